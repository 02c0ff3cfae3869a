import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ToastContainer } from 'react-toastify/unstyled';
import { isApiError } from '../lib/http';
import { NotificationProvider } from '../lib/notifications';
import { ThemeProvider, useThemeSettings } from '../lib/theme-context';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      refetchOnWindowFocus: false,
      // Client errors (4xx) will not change on retry; network and server errors may.
      retry: (count, error) => count < 2 && !(isApiError(error) && error.status >= 400 && error.status < 500),
    },
    mutations: { retry: false },
  },
});

function Toasts() {
  const { settings } = useThemeSettings();
  const { t } = useTranslation('common');
  return (
    <ToastContainer
      position="top-right"
      autoClose={5000}
      theme={settings.theme}
      newestOnTop
      closeButton
      aria-label={t('notifications')}
    />
  );
}

export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <ThemeProvider>
        <NotificationProvider>
          {children}
          <Toasts />
        </NotificationProvider>
      </ThemeProvider>
    </QueryClientProvider>
  );
}
