import type { Profile } from '@odontia/shared/schemas/auth';

/**
 * The signed-in user as `GET /api/auth/system/me` answers it (`profileSchema`) and as it is
 * stored, JSON, under the obfuscated `user` key and in the `_REBACK_AUTH_KEY_` cookie.
 */
export type SessionUser = Profile;

/** Minutes without activity before the screen locks itself when the clinic did not say. */
export const defaultLockAfterMinutes = 15;

export function lockAfterMinutesOf(user: Pick<SessionUser, 'settings'> | null | undefined): number {
  const minutes = Number(user?.settings?.lockAfterMinutes);
  return Number.isFinite(minutes) && minutes >= 1 ? minutes : defaultLockAfterMinutes;
}
