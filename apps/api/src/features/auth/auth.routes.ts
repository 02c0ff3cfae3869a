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
  unlockRequestSchema,
  updateProfileRequestSchema,
} from '@odontia/shared/schemas/auth';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sessionOf } from '../../plugins/auth.ts';
import type { AuthService, RequestContext } from './auth.service.ts';

/**
 * /api/auth/*: the session endpoints (ARCHITECTURE §5). Contracts from packages/shared;
 * the rules in auth.service.ts. Every answer has a success `code` for the toast.
 */

const contextOf = (request: FastifyRequest): RequestContext => ({
  ip: request.ip,
  userAgent: request.headers['user-agent'],
});

export const authRoutes: FastifyPluginAsyncZod<{ service: AuthService }> = async (app, { service }) => {
  const tags = ['auth'];

  app.post(
    '/auth/sign-up',
    {
      config: { permission: 'public' },
      schema: {
        tags,
        summary: 'Create a clinic (trial, 30 days) and its administrator; sends the activation mail',
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

  app.get(
    '/auth/system/me',
    {
      config: { permission: 'authenticated', allowLocked: true },
      schema: {
        tags,
        summary: 'The signed-in user, their clinic and settings',
        security: [{ bearerAuth: [] }],
        response: { 200: profileResponseSchema },
      },
    },
    async (request) => ({ data: await service.profile(sessionOf(request)) }),
  );

  app.patch(
    '/auth/system/me',
    {
      config: { permission: 'profile.manage' },
      schema: {
        tags,
        summary: 'Update the own profile (a new e-mail needs currentPassword)',
        security: [{ bearerAuth: [] }],
        body: updateProfileRequestSchema,
        response: { 200: profileResponseSchema.extend({ code: z.literal('profile_updated') }) },
      },
    },
    async (request) => ({
      data: await service.updateProfile(sessionOf(request), request.body, contextOf(request)),
      code: 'profile_updated' as const,
    }),
  );

  app.post(
    '/auth/system/password',
    {
      config: { permission: 'profile.manage' },
      schema: {
        tags,
        summary: 'Change the own password; ends the other sessions of the user',
        security: [{ bearerAuth: [] }],
        body: changePasswordRequestSchema,
        response: { 200: authCodeResponseSchema('password_changed') },
      },
    },
    async (request) => {
      await service.changePassword(sessionOf(request), request.body, contextOf(request));
      return { code: 'password_changed' as const };
    },
  );

  app.post(
    '/auth/sign-out',
    {
      config: { permission: 'authenticated', allowLocked: true },
      schema: {
        tags,
        summary: 'End this session on the server',
        security: [{ bearerAuth: [] }],
        response: { 200: authCodeResponseSchema('logout_success') },
      },
    },
    async (request) => {
      await service.signOut(sessionOf(request));
      return { code: 'logout_success' as const };
    },
  );

  app.post(
    '/auth/lock',
    {
      config: { permission: 'authenticated' },
      schema: {
        tags,
        summary: 'Lock this session: every data route answers 401 session_locked until unlocked',
        security: [{ bearerAuth: [] }],
        response: { 200: authCodeResponseSchema('screen_locked') },
      },
    },
    async (request) => {
      await service.lock(sessionOf(request), contextOf(request));
      return { code: 'screen_locked' as const };
    },
  );

  app.post(
    '/auth/unlock',
    {
      config: { permission: 'authenticated', allowLocked: true },
      schema: {
        tags,
        summary: "Unlock this session with the user's password",
        security: [{ bearerAuth: [] }],
        body: unlockRequestSchema,
        response: { 200: authCodeResponseSchema('session_unlocked') },
      },
    },
    async (request) => {
      await service.unlock(sessionOf(request), request.body.password, contextOf(request));
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
