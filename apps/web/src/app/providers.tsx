import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { lazy, type ReactNode, Suspense } from 'react';
import { useToastContainerWanted } from '../lib/api-toast';
import { isApiError } from '../lib/http';
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

export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <ThemeProvider>
        <NotificationProvider>
          {children}
          <LazyToasts />
        </NotificationProvider>
      </ThemeProvider>
    </QueryClientProvider>
  );
}
