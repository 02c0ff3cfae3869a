import { Navigate, Outlet, useLocation } from 'react-router';
import { ForbiddenPage } from '../../pages/forbidden';
import { useSessionUser } from '../../session/session';
import { canOpen, homePathFor } from './menu';

/**
 * The page of the matched route, or the 403 page when the user's level may not open the path
 * (`pathActions` in menu.ts). The server refuses the data anyway; this only spares the user a
 * page of errors. A level without a dashboard (customer) is taken to its profile instead.
 */
export function PermittedOutlet() {
  const { pathname } = useLocation();
  const user = useSessionUser();
  if (!user || canOpen(user.level, pathname)) return <Outlet />;
  if (pathname === '/dashboard') return <Navigate to={homePathFor(user.level)} replace />;
  return <ForbiddenPage homePath={homePathFor(user.level)} />;
}
