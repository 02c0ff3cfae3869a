import { z } from 'zod';
import { apiRoute } from '../api-route.ts';
import {
  authCodeResponseSchema,
  changePasswordRequestSchema,
  profileResponseSchema,
  switchClinicRequestSchema,
  switchClinicResponseSchema,
  unlockRequestSchema,
  updateProfileRequestSchema,
} from '../schemas/auth.ts';

/**
 * The signed-in user's routes of /api/auth (issue 3): the profile, the password, switching clinic,
 * locking and signing out. The public ones (sign-up, sign-in, the mailed links) are not declared:
 * the server serves them by hand, without a session.
 */
export const sessionRoutes = {
  me: apiRoute({ method: 'GET', path: '/auth/system/me', answer: profileResponseSchema }),
  switchClinic: apiRoute({
    method: 'POST',
    path: '/auth/switch',
    body: switchClinicRequestSchema,
    answer: switchClinicResponseSchema,
  }),
  updateProfile: apiRoute({
    method: 'PATCH',
    path: '/auth/system/me',
    body: updateProfileRequestSchema,
    answer: profileResponseSchema.extend({ code: z.literal('profile_updated') }),
  }),
  changePassword: apiRoute({
    method: 'POST',
    path: '/auth/system/password',
    body: changePasswordRequestSchema,
    answer: authCodeResponseSchema('password_changed'),
  }),
  signOut: apiRoute({ method: 'POST', path: '/auth/sign-out', answer: authCodeResponseSchema('logout_success') }),
  lock: apiRoute({ method: 'POST', path: '/auth/lock', answer: authCodeResponseSchema('screen_locked') }),
  unlock: apiRoute({
    method: 'POST',
    path: '/auth/unlock',
    body: unlockRequestSchema,
    answer: authCodeResponseSchema('session_unlocked'),
  }),
};
