import type { sessionRoutes } from '@odontia/shared/routes/auth';
import { addressClient } from '../lib/api-client';
import { i18n, isLanguage } from '../lib/i18n';
import { tokenStore, userStore } from '../lib/storage-keys';
import type { SessionUser } from './types';

/*
 * The session as the browser keeps it: token, user, cookie. No TanStack Query here, so the
 * sign-in page can use it without loading the query library (bundle budget).
 */

/** The session cookie of spec §3: the user as JSON, never the token. */
export const sessionCookieName = '_REBACK_AUTH_KEY_';

/**
 * The profile inside an answer: the answer itself or its `{ data }` envelope (API convention).
 * Null means "empty", which spec §4 treats as signed out.
 */
export function profileFromBody(answer: unknown): SessionUser | null {
  if (!answer || typeof answer !== 'object' || Array.isArray(answer)) return null;
  const value = 'data' in answer ? (answer as { data: unknown }).data : answer;
  if (!value || typeof value !== 'object' || Array.isArray(value) || Object.keys(value).length === 0) return null;
  return value as SessionUser;
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

let startedCheck: { answer: Promise<unknown>; token: string | null; at: number } | null = null;

/**
 * Starts the session check (`me`) before the code that waits for it has loaded: the router runs
 * this with the page's first chunks (app/layouts/protected-layout.tsx), so the answer is on its way
 * while they download (issue 34, mobile Lighthouse).
 */
export function startSessionCheck(): void {
  if (startedCheck) return;
  startedCheck = { answer: sessionApi.me(), token: tokenStore.get(), at: Date.now() };
  // Whoever takes the answer handles a failure; this copy only keeps it from being "unhandled".
  startedCheck.answer.catch(() => {});
}

/**
 * The started check's answer, once, if it is still this session's (same token, a few seconds
 * old); otherwise, and for every later check, the server is asked again.
 */
export function takeSessionCheck(): Promise<unknown> {
  const started = startedCheck;
  startedCheck = null;
  const current = started && started.token === tokenStore.get() && Date.now() - started.at < 10_000;
  return current ? started.answer : sessionApi.me();
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
  const from = (state as { from?: Partial<{ pathname: string; search: string; hash: string }> | string } | null)?.from;
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

/**
 * The signed-in user's routes of /api/auth, declared in packages/shared (issue 36) and called by
 * address: the session is on the sign-in path, which does not load the contracts; kept here, apart from
 * the session's hooks (React Query), so that the sign-in form's unlock does not load them.
 */
export const sessionApi = addressClient<typeof sessionRoutes>({
  me: ['GET', '/auth/system/me'],
  switchClinic: ['POST', '/auth/switch'],
  updateProfile: ['PATCH', '/auth/system/me'],
  changePassword: ['POST', '/auth/system/password'],
  signOut: ['POST', '/auth/sign-out'],
  lock: ['POST', '/auth/lock'],
  unlock: ['POST', '/auth/unlock'],
});
