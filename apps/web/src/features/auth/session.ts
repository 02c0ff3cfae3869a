import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { http } from '../../lib/http';
import { tokenStore, userStore } from '../../lib/storage-keys';
import type { SessionUser } from './types';

/** The session cookie of spec §3 (set by the server, holds the user as JSON). */
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
  if (query.isError || !query.data) return { status: 'unauthenticated' };
  return { status: 'authenticated', user: query.data };
}

/** The profile of the signed-in user (inside the authenticated layout). */
export function useSessionUser(): SessionUser | null {
  const session = useSession();
  return session.status === 'authenticated' ? session.user : null;
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
