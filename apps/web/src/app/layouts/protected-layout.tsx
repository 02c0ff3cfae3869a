import { lazy, Suspense } from 'react';
import { FullScreenSpinner } from '../../components/spinner';
import { SessionGuard } from '../../features/auth/session-guard';
import { tokenStore } from '../../lib/storage-keys';

// A React.lazy (not a route `lazy`): the router would fetch a route module even for a visitor
// without a token who is about to be redirected to sign in.
const loadAppLayout = () => import('./app-layout');
const AppLayout = lazy(() => loadAppLayout().then((module) => ({ default: module.AppLayout })));

/** Protected routes: the session check first, then the authenticated layout. */
export function ProtectedLayout() {
  // With a token, fetch the layout while the session check runs.
  if (tokenStore.get()) void loadAppLayout();
  return (
    <SessionGuard>
      <Suspense fallback={<FullScreenSpinner />}>
        <AppLayout />
      </Suspense>
    </SessionGuard>
  );
}
