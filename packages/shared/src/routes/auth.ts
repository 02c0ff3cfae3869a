import { z } from 'zod';
import { apiRoute } from '../api-route.ts';
import {
  activationParamsSchema,
  authCodeResponseSchema,
  changePasswordRequestSchema,
  forgotPasswordRequestSchema,
  profileResponseSchema,
  resendActivationRequestSchema,
  resetLinkResponseSchema,
  resetPasswordParamsSchema,
  resetPasswordRequestSchema,
  signInRequestSchema,
  signInResponseSchema,
  signUpRequestSchema,
  signUpTermsResponseSchema,
  switchClinicRequestSchema,
  switchClinicResponseSchema,
  unlockRequestSchema,
  updateProfileRequestSchema,
} from '../schemas/auth.ts';

/**
 * The signed-in user's routes of /api/auth (issue 3): the profile, the password, switching clinic,
 * locking and signing out. The public ones are `publicAuthRoutes` below.
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

/**
 * The public routes of /api/auth (issue 3), served without a session (`route.servePublic`):
 * sign-up, sign-in and the mailed links (activation, password reset).
 */
export const publicAuthRoutes = {
  signUpTerms: apiRoute({ method: 'GET', path: '/auth/sign-up', answer: signUpTermsResponseSchema }),
  signUp: apiRoute({
    method: 'POST',
    path: '/auth/sign-up',
    body: signUpRequestSchema,
    answer: authCodeResponseSchema('account_created'),
    status: 201,
  }),
  activate: apiRoute({
    method: 'POST',
    path: '/auth/activation/:token',
    params: activationParamsSchema,
    answer: authCodeResponseSchema('account_activated'),
  }),
  resendActivation: apiRoute({
    method: 'POST',
    path: '/auth/resend-activation',
    body: resendActivationRequestSchema,
    answer: authCodeResponseSchema('activation_link_sent'),
  }),
  signIn: apiRoute({ method: 'POST', path: '/auth/sign-in', body: signInRequestSchema, answer: signInResponseSchema }),
  forgotPassword: apiRoute({
    method: 'POST',
    path: '/auth/forgot-password',
    body: forgotPasswordRequestSchema,
    answer: authCodeResponseSchema('password_reset_link_sent'),
  }),
  checkResetLink: apiRoute({
    method: 'GET',
    path: '/auth/reset-password/:id',
    params: resetPasswordParamsSchema,
    answer: resetLinkResponseSchema,
  }),
  resetPassword: apiRoute({
    method: 'POST',
    path: '/auth/reset-password/:id',
    params: resetPasswordParamsSchema,
    body: resetPasswordRequestSchema,
    answer: authCodeResponseSchema('password_reset'),
  }),
};
