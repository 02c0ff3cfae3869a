import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef } from 'react';
import { type Location, useLocation, useNavigate } from 'react-router';
import { authFailureOf, http, isApiError } from '../../lib/http';
import { i18n, isLanguage } from '../../lib/i18n';
import { tokenStore, userStore } from '../../lib/storage-keys';
import type { SessionUser } from './types';

/** The session cookie of spec §3: the user as JSON, never the token. */
export const sessionCookieName = '_REBACK_AUTH_KEY_';
export const sessionQueryKey = ['auth', 'me'] as const;

/**
 * The profile inside an answer: the answer itself or its `{ data }` envelope (API convention).
 * Null means "empty", which spec §4 treats as signed out.
 */
export function profileFromBody(body: unknown): SessionUser | null {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return null;
  const value = 'data' in body ? (body as { data: unknown }).data : body;
  if (!value || typeof value !== 'object' || Array.isArray(value) || Object.keys(value).length === 0) return null;
  return value as SessionUser;
}

async function fetchProfile(): Promise<SessionUser> {
  try {
    const profile = profileFromBody(await http.get('auth/system/me'));
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

function basePath(): string {
  return new URL(document.baseURI).pathname;
}

/** Writes the `_REBACK_AUTH_KEY_` cookie; with remember me it lasts until the session expires. */
export function writeSessionCookie(user: SessionUser, expiresAt?: string | null): void {
  const expires = expiresAt ? Date.parse(expiresAt) : Number.NaN;
  const maxAge = Number.isFinite(expires) ? `; Max-Age=${Math.max(0, Math.floor((expires - Date.now()) / 1000))}` : '';
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  // biome-ignore lint/suspicious/noDocumentCookie: one plain cookie, no library needed
  document.cookie = `${sessionCookieName}=${encodeURIComponent(JSON.stringify(user))}; path=${basePath()}; SameSite=Lax${maxAge}${secure}`;
}

export interface StartedSession {
  token: string;
  expiresAt: string;
  user: SessionUser;
}

/** After sign-in: token, user and cookie kept, the interface in the user's language. */
export function storeSession(session: StartedSession, remember: boolean): void {
  tokenStore.set(session.token);
  userStore.set(session.user);
  writeSessionCookie(session.user, remember ? session.expiresAt : null);
  const language = session.user.settings?.systemLanguage;
  if (isLanguage(language) && language !== i18n.resolvedLanguage) void i18n.changeLanguage(language);
}

/**
 * Where to go after sign-in or unlock: the page first asked for (`location.state.from`, set by
 * the session guard or the lock), else the dashboard. Never back to an /auth page.
 */
export function returnPath(state: unknown): string {
  const from = (state as { from?: Partial<Location> | string } | null)?.from;
  const target =
    typeof from === 'string' ? from : from?.pathname ? `${from.pathname}${from.search ?? ''}${from.hash ?? ''}` : '';
  if (!target.startsWith('/') || target.startsWith('//') || target.startsWith('/auth')) return '/dashboard';
  return target;
}

function removeSessionCookie(): void {
  const basePath = new URL(document.baseURI).pathname;
  for (const path of new Set(['/', basePath, basePath.replace(/\/$/, '')])) {
    // biome-ignore lint/suspicious/noDocumentCookie: plain cookie removal, works in every browser
    if (path) document.cookie = `${sessionCookieName}=; Max-Age=0; path=${path}; SameSite=Lax`;
  }
}

/** Clears everything the browser keeps of the session. */
export function clearLocalSession(): void {
  removeSessionCookie();
  tokenStore.remove();
  userStore.remove();
}

export function useSignOut(): () => Promise<void> {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useCallback(async () => {
    try {
      await http.post('auth/sign-out');
    } catch {
      // The local session ends whatever the server says.
    }
    clearLocalSession();
    queryClient.clear();
    await navigate('/auth/sign-in', { replace: true });
  }, [queryClient, navigate]);
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
      await http.post('auth/lock');
    } catch (error) {
      // The session is over: the session guard is already on its way to sign-in.
      if (isApiError(error) && authFailureOf(error) === 'signedOut') return;
      // Otherwise locked locally anyway.
    }
    await navigate('/auth/lock-screen', { state: { from } });
  }, [navigate]);
}
