import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { FullScreenSpinner } from '../../components/spinner';
import { useSession } from './session';

/** Protected routes render only after the session check succeeds (spec §2, §4). */
export function SessionGuard({ children }: { children: ReactNode }) {
  const session = useSession();
  const location = useLocation();

  if (session.status === 'pending') return <FullScreenSpinner />;
  if (session.status === 'unauthenticated') {
    return <Navigate to="/auth/sign-in" replace state={{ from: location }} />;
  }
  return children;
}
