import { createContext, lazy, type ReactNode, Suspense, useCallback, useContext, useState } from 'react';
import type { Notification, NotificationOptions } from './notification-types';

/** Spec §4/§9: in-app notifications hide after 2000 ms unless told otherwise. */
export const defaultNotificationDelay = 2000;

const NotificationStack = lazy(() => import('./notification-stack'));
const NotificationContext = createContext<((options: NotificationOptions) => void) | null>(null);

let nextId = 1;

export function NotificationProvider({ children }: { children: ReactNode }) {
  const [items, setItems] = useState<Notification[]>([]);

  const showNotification = useCallback((options: NotificationOptions) => {
    const item: Notification = {
      id: nextId++,
      title: options.title,
      message: options.message,
      variant: options.variant ?? 'primary',
      delay: options.delay ?? defaultNotificationDelay,
    };
    setItems((current) => [...current, item]);
  }, []);

  const close = useCallback((id: number) => setItems((current) => current.filter((item) => item.id !== id)), []);

  return (
    <NotificationContext.Provider value={showNotification}>
      {children}
      {items.length > 0 ? (
        <Suspense fallback={null}>
          <NotificationStack items={items} onClose={close} />
        </Suspense>
      ) : null}
    </NotificationContext.Provider>
  );
}

export function useNotification(): (options: NotificationOptions) => void {
  const context = useContext(NotificationContext);
  if (!context) throw new Error('useNotification must be used inside NotificationProvider');
  return context;
}
