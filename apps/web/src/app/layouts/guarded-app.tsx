import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { FullScreenSpinner } from '../../components/spinner';
import { SessionGuard } from '../../features/auth/session-guard';
import { queryClient } from '../../lib/query-client';

export const loadAppLayout = () => import('./app-layout');
const AppLayout = lazy(() => loadAppLayout().then((module) => ({ default: module.AppLayout })));

/** With a token: TanStack Query, the session check, then the authenticated layout. */
export function GuardedApp() {
  return (
    <QueryClientProvider client={queryClient}>
      <SessionGuard>
        <Suspense fallback={<FullScreenSpinner />}>
          <AppLayout />
        </Suspense>
      </SessionGuard>
    </QueryClientProvider>
  );
}
