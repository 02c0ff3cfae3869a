import { sessionRoutes as declared } from '@odontia/shared/routes/auth';
import {
  activationParamsSchema,
  authCodeResponseSchema,
  forgotPasswordRequestSchema,
  resendActivationRequestSchema,
  resetLinkResponseSchema,
  resetPasswordParamsSchema,
  resetPasswordRequestSchema,
  signInRequestSchema,
  signInResponseSchema,
  signUpRequestSchema,
  signUpTermsResponseSchema,
} from '@odontia/shared/schemas/auth';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sessionOf } from '../../plugins/auth.ts';
import { routes } from '../../plugins/routes.ts';
import type { AuthService } from './auth.service.ts';
import { type ClientContext, trialDays } from './auth-common.ts';

/**
 * /api/auth/*: the session endpoints (ARCHITECTURE §5); the public ones (sign-up, sign-in, the
 * links) are declared by hand (route.serve serves signed-in routes only), the signed-in user's are
 * declared in packages/shared/src/routes/auth.ts and served with `route.serve`. Contracts from
 * packages/shared; the rules in auth.service.ts. Every answer has a success `code` for the toast.
 */

const contextOf = (request: FastifyRequest): ClientContext => ({
  ip: request.ip,
  userAgent: request.headers['user-agent'],
});

export const authRoutes: FastifyPluginAsyncZod<{ service: AuthService; plansEnforced: boolean }> = async (
  app,
  { service, plansEnforced },
) => {
  const tags = ['auth'];

  app.get(
    '/auth/sign-up',
    {
      config: { permission: 'public' },
      schema: {
        tags,
        summary: "What a new clinic gets: the trial's days where the installation has plans (PLANS), else null",
        response: { 200: signUpTermsResponseSchema },
      },
    },
    async () => ({ data: { trialDays: plansEnforced ? trialDays : null } }),
  );

  app.post(
    '/auth/sign-up',
    {
      config: { permission: 'public' },
      schema: {
        tags,
        summary:
          'Create a clinic (on a 30-day trial where plans are configured) and its administrator; sends the activation mail',
        body: signUpRequestSchema,
        response: { 201: authCodeResponseSchema('account_created') },
      },
    },
    async (request, reply) => {
      await service.signUp(request.body, contextOf(request));
      return reply.status(201).send({ code: 'account_created' as const });
    },
  );

  app.post(
    '/auth/activation/:token',
    {
      config: { permission: 'public' },
      schema: {
        tags,
        summary: 'Activate an account with the link of its activation mail',
        params: activationParamsSchema,
        response: { 200: authCodeResponseSchema('account_activated') },
      },
    },
    async (request) => {
      await service.activate(request.params.token);
      return { code: 'account_activated' as const };
    },
  );

  app.post(
    '/auth/resend-activation',
    {
      config: { permission: 'public' },
      schema: {
        tags,
        summary: 'Send a new activation mail (same answer whether or not the e-mail exists)',
        body: resendActivationRequestSchema,
        response: { 200: authCodeResponseSchema('activation_link_sent') },
      },
    },
    async (request) => {
      await service.resendActivation(request.body.email, contextOf(request));
      return { code: 'activation_link_sent' as const };
    },
  );

  app.post(
    '/auth/sign-in',
    {
      config: { permission: 'public' },
      schema: {
        tags,
        summary: 'Sign in: an opaque bearer token (30 days with remember, else 12 hours) and the profile',
        body: signInRequestSchema,
        response: { 200: signInResponseSchema },
      },
    },
    async (request) => {
      const data = await service.signIn(request.body, contextOf(request));
      return { data, code: 'login_success' as const };
    },
  );

  // The signed-in user's routes. Those that check the password run their own transactions: the
  // check counts under the throttle (its own transaction) even when the request fails.
  const route = routes(app, { tags });
  const sessionIdOf = (request: FastifyRequest) => sessionOf(request).sessionId;

  route.serve(
    declared.me,
    {
      permission: 'authenticated',
      allowLocked: true,
      summary: "The signed-in user, their clinic and settings, and the person's other clinics",
      // The person's clinics are read across clinics (system context), with the profile.
      transaction: false,
    },
    async ({ actor, request }) => ({ data: await service.profile({ actor, locked: sessionOf(request).locked }) }),
  );

  route.serve(
    declared.switchClinic,
    {
      permission: 'authenticated',
      allowReadOnly: true,
      summary:
        "Move to another of the person's clinics: a new session there (same remember choice and expiry), this one revoked; 404 clinic_not_found for a clinic the person may not enter",
      transaction: false,
    },
    async ({ actor, body, request }) => ({
      data: await service.switchClinic({ actor, sessionId: sessionIdOf(request), input: body }),
      code: 'clinic_switched' as const,
    }),
  );

  route.serve(
    declared.updateProfile,
    {
      permission: 'profile.manage',
      summary: 'Update the own profile (a new e-mail needs currentPassword)',
      transaction: false,
    },
    async ({ actor, body, request }) => ({
      data: await service.updateProfile({ actor, locked: sessionOf(request).locked, input: body }),
      code: 'profile_updated' as const,
    }),
  );

  route.serve(
    declared.changePassword,
    {
      permission: 'profile.manage',
      allowReadOnly: true,
      summary: 'Change the own password; ends the other sessions of the user',
      transaction: false,
    },
    async ({ actor, body, request }) => {
      await service.changePassword({ actor, sessionId: sessionIdOf(request), input: body });
      return { code: 'password_changed' as const };
    },
  );

  route.serve(
    declared.signOut,
    {
      permission: 'authenticated',
      allowReadOnly: true,
      allowLocked: true,
      summary: 'End this session on the server',
    },
    async ({ ctx, request }) => {
      await service.signOut({ ctx, sessionId: sessionIdOf(request) });
      return { code: 'logout_success' as const };
    },
  );

  route.serve(
    declared.lock,
    {
      permission: 'authenticated',
      allowReadOnly: true,
      summary: 'Lock this session: every data route answers 401 session_locked until unlocked',
    },
    async ({ ctx, request }) => {
      await service.lock({ ctx, sessionId: sessionIdOf(request) });
      return { code: 'screen_locked' as const };
    },
  );

  route.serve(
    declared.unlock,
    {
      permission: 'authenticated',
      allowReadOnly: true,
      allowLocked: true,
      summary: "Unlock this session with the user's password",
      transaction: false,
    },
    async ({ actor, body, request }) => {
      await service.unlock({ actor, sessionId: sessionIdOf(request), password: body.password });
      return { code: 'session_unlocked' as const };
    },
  );

  app.post(
    '/auth/forgot-password',
    {
      config: { permission: 'public' },
      schema: {
        tags,
        summary: 'Mail a password-reset link (same answer whether or not the e-mail exists)',
        body: forgotPasswordRequestSchema,
        response: { 200: authCodeResponseSchema('password_reset_link_sent') },
      },
    },
    async (request) => {
      await service.forgotPassword(request.body.email, contextOf(request));
      return { code: 'password_reset_link_sent' as const };
    },
  );

  app.get(
    '/auth/reset-password/:id',
    {
      config: { permission: 'public' },
      schema: {
        tags,
        summary: 'Whether a password-reset link can still be used',
        params: resetPasswordParamsSchema,
        response: { 200: resetLinkResponseSchema },
      },
    },
    async (request) => {
      await service.checkResetToken(request.params.id);
      return { data: { valid: true as const } };
    },
  );

  app.post(
    '/auth/reset-password/:id',
    {
      config: { permission: 'public' },
      schema: {
        tags,
        summary: 'Set a new password with a reset link (single use, 60 minutes); ends every session of the user',
        params: resetPasswordParamsSchema,
        body: resetPasswordRequestSchema,
        response: { 200: authCodeResponseSchema('password_reset') },
      },
    },
    async (request) => {
      await service.resetPassword(request.params.id, request.body.password, contextOf(request));
      return { code: 'password_reset' as const };
    },
  );
};
