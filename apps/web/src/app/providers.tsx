import { lazy, type ReactNode, Suspense } from 'react';
import { useToastContainerWanted } from '../lib/api-toast';
import { NotificationProvider } from '../lib/notifications';
import { ThemeProvider } from '../lib/theme-context';

// Toasts answer user actions, never the first paint: react-toastify loads with the first toast.
const Toasts = lazy(() => import('./toasts'));

function LazyToasts() {
  const wanted = useToastContainerWanted();
  return wanted ? (
    <Suspense fallback={null}>
      <Toasts />
    </Suspense>
  ) : null;
}

/** TanStack Query is provided by the authenticated area (app/layouts/guarded-app.tsx), not here. */
export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <ThemeProvider>
      <NotificationProvider>
        {children}
        <LazyToasts />
      </NotificationProvider>
    </ThemeProvider>
  );
}
