import { MutationCache, QueryClient } from '@tanstack/react-query';
import { isApiError } from './http';

/**
 * The one query cache. Not part of the public entry: the authenticated area (and the lock
 * screen) load it, the sign-in page reaches it with a dynamic import after success.
 */
/** Where the signed-in profile is cached (the session check fills it, a read-only refusal refetches it). */
export const sessionQueryKey = ['auth', 'me'] as const;

export const queryClient: QueryClient = new QueryClient({
  // A write refused because the clinic became read-only (issue 19): read the session again, so
  // the contract's banner shows at once.
  mutationCache: new MutationCache({
    onError: (error) => {
      if (isApiError(error) && error.code === 'account_read_only')
        void queryClient.invalidateQueries({ queryKey: sessionQueryKey });
    },
  }),
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
