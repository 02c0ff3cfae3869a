import { sessionRoutes as declared, publicAuthRoutes as publicRoutes } from '@odontia/shared/routes/auth';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sessionOf } from '../../plugins/auth.ts';
import { routes } from '../../plugins/routes.ts';
import type { AuthService } from './auth.service.ts';
import { type ClientContext, trialDays } from './auth-common.ts';

/**
 * /api/auth/*: the session endpoints (ARCHITECTURE §5), declared in packages/shared/src/routes/auth.ts:
 * the public ones (sign-up, sign-in, the mailed links) served with `route.servePublic`, the
 * signed-in user's with `route.serve`. Contracts from
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

  const route = routes(app, { tags });

  route.servePublic(
    publicRoutes.signUpTerms,
    { summary: "What a new clinic gets: the trial's days where the installation has plans (PLANS), else null" },
    async () => ({ data: { trialDays: plansEnforced ? trialDays : null } }),
  );

  route.servePublic(
    publicRoutes.signUp,
    {
      summary:
        'Create a clinic (on a 30-day trial where plans are configured) and its administrator; sends the activation mail',
    },
    async ({ body, request }) => {
      await service.signUp(body, contextOf(request));
      return { code: 'account_created' as const };
    },
  );

  route.servePublic(
    publicRoutes.activate,
    { summary: 'Activate an account with the link of its activation mail' },
    async ({ params }) => {
      await service.activate(params.token);
      return { code: 'account_activated' as const };
    },
  );

  route.servePublic(
    publicRoutes.resendActivation,
    { summary: 'Send a new activation mail (same answer whether or not the e-mail exists)' },
    async ({ body, request }) => {
      await service.resendActivation(body.email, contextOf(request));
      return { code: 'activation_link_sent' as const };
    },
  );

  route.servePublic(
    publicRoutes.signIn,
    { summary: 'Sign in: an opaque bearer token (30 days with remember, else 12 hours) and the profile' },
    async ({ body, request }) => {
      const data = await service.signIn(body, contextOf(request));
      return { data, code: 'login_success' as const };
    },
  );

  // The signed-in user's routes. Those that check the password run their own transactions: the
  // check counts under the throttle (its own transaction) even when the request fails.
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

  route.servePublic(
    publicRoutes.forgotPassword,
    { summary: 'Mail a password-reset link (same answer whether or not the e-mail exists)' },
    async ({ body, request }) => {
      await service.forgotPassword(body.email, contextOf(request));
      return { code: 'password_reset_link_sent' as const };
    },
  );

  route.servePublic(
    publicRoutes.checkResetLink,
    { summary: 'Whether a password-reset link can still be used' },
    async ({ params }) => {
      await service.checkResetToken(params.id);
      return { data: { valid: true as const } };
    },
  );

  route.servePublic(
    publicRoutes.resetPassword,
    { summary: 'Set a new password with a reset link (single use, 60 minutes); ends every session of the user' },
    async ({ params, body, request }) => {
      await service.resetPassword(params.id, body.password, contextOf(request));
      return { code: 'password_reset' as const };
    },
  );
};
