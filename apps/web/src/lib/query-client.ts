import { QueryClient } from '@tanstack/react-query';
import { isApiError } from './http';

/**
 * The one query cache. Not part of the public entry: the authenticated area (and the lock
 * screen) load it, the sign-in page reaches it with a dynamic import after success.
 */
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
