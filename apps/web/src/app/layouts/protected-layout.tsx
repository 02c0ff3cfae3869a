import { lazy, Suspense } from 'react';
import { Navigate, useLocation } from 'react-router';
import { FullScreenSpinner } from '../../components/spinner';
import { tokenStore } from '../../lib/storage-keys';
import { startSessionCheck } from '../../session/session-store';

// React.lazy (not a route `lazy`): a visitor without a token is sent to sign-in at once, without
// downloading anything. With a token, the session check (and TanStack Query) and the
// authenticated layout load in parallel.
const loadGuardedApp = () => import('./guarded-app');
const GuardedApp = lazy(() => loadGuardedApp().then((module) => ({ default: module.GuardedApp })));

/**
 * The signed-in app's first load in one round: the router runs this with the page's own chunk, so
 * the session check starts and the layout's chunks arrive together with the page's, not one after
 * the other once each has rendered (issue 34, mobile Lighthouse). Without a token: nothing.
 */
export function preloadSignedInApp(): Promise<unknown> {
  if (!tokenStore.get()) return Promise.resolve();
  startSessionCheck();
  return Promise.all([loadGuardedApp(), import('./app-layout')]);
}

/** Protected routes: spec §4 "no token" is signed out; otherwise the session check, then the layout. */
export function ProtectedLayout() {
  const location = useLocation();
  if (!tokenStore.get()) return <Navigate to="/auth/sign-in" replace state={{ from: location }} />;
  return (
    <Suspense fallback={<FullScreenSpinner />}>
      <GuardedApp />
    </Suspense>
  );
}
