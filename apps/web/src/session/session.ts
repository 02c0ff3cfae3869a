import { useQuery } from '@tanstack/react-query';
import { useCallback, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { authFailureOf, isApiError } from '../lib/http';
import { queryClient, sessionQueryKey } from '../lib/query-client';
import { tokenStore, userStore } from '../lib/storage-keys';
import { clearLocalSession, profileFromBody, sessionApi, storeSession, takeSessionCheck } from './session-store';
import type { SessionUser } from './types';

export { sessionQueryKey } from '../lib/query-client';
export {
  clearLocalSession,
  profileFromBody,
  returnPath,
  type StartedSession,
  sessionApi,
  sessionCookieName,
  storeSession,
  writeSessionCookie,
} from './session-store';

async function fetchProfile(): Promise<SessionUser> {
  try {
    const profile = profileFromBody(await takeSessionCheck());
    if (!profile) throw new Error('Empty profile answer');
    userStore.set(profile);
    return profile;
  } catch (error) {
    // Spec §8: the failure is logged, no message is shown; the guard sends the visitor to sign in.
    console.warn('Session check failed:', error);
    throw error;
  }
}

export type SessionState =
  | { status: 'pending' }
  | { status: 'authenticated'; user: SessionUser }
  | { status: 'locked' }
  | { status: 'unauthenticated' };

/** Spec §4: pending → authenticated (token and a profile) or unauthenticated (no token, empty or failed call). */
export function useSession(): SessionState {
  const hasToken = Boolean(tokenStore.get());
  const query = useQuery({
    queryKey: sessionQueryKey,
    queryFn: fetchProfile,
    enabled: hasToken,
    retry: false,
    staleTime: 5 * 60_000,
    refetchOnWindowFocus: false,
  });

  if (!hasToken) return { status: 'unauthenticated' };
  if (query.isPending) return { status: 'pending' };
  if (query.isError && isApiError(query.error) && authFailureOf(query.error) === 'locked') return { status: 'locked' };
  if (query.isError || !query.data) return { status: 'unauthenticated' };
  if (query.data.locked) return { status: 'locked' };
  return { status: 'authenticated', user: query.data };
}

/** The profile of the signed-in user (inside the authenticated layout). */
export function useSessionUser(): SessionUser | null {
  const session = useSession();
  return session.status === 'authenticated' ? session.user : null;
}

export function useSignOut(): () => Promise<void> {
  const navigate = useNavigate();
  return useCallback(async () => {
    try {
      await sessionApi.signOut();
    } catch {
      // The local session ends whatever the server says.
    }
    clearLocalSession();
    queryClient.clear();
    await navigate('/auth/sign-in', { replace: true });
  }, [navigate]);
}

/**
 * Moves to another of the person's clinics (issue 19): the server revokes this session and opens
 * one there; the page then reloads into that clinic's dashboard, so nothing cached from the
 * clinic left (queries, forms, the menu) survives.
 */
export function useSwitchClinic(): (accountId: string) => Promise<void> {
  return useCallback(async (accountId: string) => {
    const answer = await sessionApi.switchClinic({ body: { accountId } });
    queryClient.clear();
    storeSession(answer.data, answer.data.remember);
    window.location.assign(new URL('dashboard', document.baseURI).href);
  }, []);
}

/** Locks the screen: the server refuses data calls until unlock; the lock screen remembers the page. */
export function useLockSession(): () => Promise<void> {
  const navigate = useNavigate();
  const location = useLocation();
  const here = useRef(location);
  here.current = location;
  return useCallback(async () => {
    const from = here.current;
    if (from.pathname.startsWith('/auth/')) return;
    try {
      await sessionApi.lock();
    } catch (error) {
      // The session is over: the session guard is already on its way to sign-in.
      if (isApiError(error) && authFailureOf(error) === 'signedOut') return;
      // Otherwise locked locally anyway.
    }
    await navigate('/auth/lock-screen', { state: { from } });
  }, [navigate]);
}
