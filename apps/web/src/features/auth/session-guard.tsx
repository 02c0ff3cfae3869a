import { type ReactNode, useEffect } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { FullScreenSpinner } from '../../components/spinner';
import { onAuthFailure } from '../../lib/http';
import { queryClient } from '../../lib/query-client';
import { clearLocalSession, useSession } from '../../session/session';

/**
 * Protected routes render only after the session check succeeds (spec §2, §4). A locked session
 * goes to the lock screen; any call answering 401 `session_locked` later does too, and
 * `unauthorized`/`session_expired` end the local session.
 */
export function SessionGuard({ children }: { children: ReactNode }) {
  const session = useSession();
  const location = useLocation();
  const navigate = useNavigate();

  useEffect(
    () =>
      onAuthFailure((failure) => {
        if (failure === 'locked') {
          void navigate('/auth/lock-screen', { state: { from: location } });
          return;
        }
        clearLocalSession();
        queryClient.clear();
        void navigate('/auth/sign-in', { replace: true, state: { from: location } });
      }),
    [navigate, location],
  );

  if (session.status === 'pending') return <FullScreenSpinner />;
  if (session.status === 'unauthenticated') {
    return <Navigate to="/auth/sign-in" replace state={{ from: location }} />;
  }
  if (session.status === 'locked') return <Navigate to="/auth/lock-screen" replace state={{ from: location }} />;
  return children;
}
