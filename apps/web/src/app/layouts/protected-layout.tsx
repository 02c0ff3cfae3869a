import { lazy, Suspense } from 'react';
import { Navigate, useLocation } from 'react-router';
import { FullScreenSpinner } from '../../components/spinner';
import { tokenStore } from '../../lib/storage-keys';

// React.lazy (not a route `lazy`): a visitor without a token is sent to sign-in at once, without
// downloading anything. With a token, the session check (and TanStack Query) and the
// authenticated layout load in parallel.
const loadGuardedApp = () => import('./guarded-app');
const GuardedApp = lazy(() => loadGuardedApp().then((module) => ({ default: module.GuardedApp })));

/** Protected routes: spec §4 "no token" is signed out; otherwise the session check, then the layout. */
export function ProtectedLayout() {
  const location = useLocation();
  if (!tokenStore.get()) return <Navigate to="/auth/sign-in" replace state={{ from: location }} />;
  void import('./app-layout');
  return (
    <Suspense fallback={<FullScreenSpinner />}>
      <GuardedApp />
    </Suspense>
  );
}
