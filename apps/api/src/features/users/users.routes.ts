import { idSchema } from '@odontia/shared/schemas/common';
import {
  inviteUserRequestSchema,
  updateUserRequestSchema,
  userResponseSchema,
  usersListQuerySchema,
  usersPageSchema,
} from '@odontia/shared/schemas/users';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sessionOf } from '../../plugins/auth.ts';
import type { UsersService } from './users.service.ts';

/** /api/users: the clinic's users, for administrators (`users.manage`). */
export const usersRoutes: FastifyPluginAsyncZod<{ service: UsersService }> = async (app, { service }) => {
  const tags = ['users'];
  const security = [{ bearerAuth: [] }];

  app.get(
    '/users',
    {
      config: { permission: 'users.manage' },
      schema: {
        tags,
        security,
        summary: "List the clinic's users",
        querystring: usersListQuerySchema,
        response: { 200: usersPageSchema },
      },
    },
    async (request) => service.list(sessionOf(request), request.query),
  );

  app.post(
    '/users',
    {
      config: { permission: 'users.manage' },
      schema: {
        tags,
        security,
        summary: 'Invite a user by e-mail; the invitation link sets the password',
        body: inviteUserRequestSchema,
        response: { 201: userResponseSchema },
      },
    },
    async (request, reply) => {
      const data = await service.invite(sessionOf(request), request.body, request.ip);
      return reply.status(201).send({ data, code: 'user_invited' as const });
    },
  );

  app.patch(
    '/users/:id',
    {
      config: { permission: 'users.manage' },
      schema: {
        tags,
        security,
        summary: 'Change the level of a user, deactivate or reactivate them',
        params: z.object({ id: idSchema }),
        body: updateUserRequestSchema,
        response: { 200: userResponseSchema },
      },
    },
    async (request) => ({
      data: await service.update(sessionOf(request), request.params.id, request.body, request.ip),
      code: 'user_updated' as const,
    }),
  );
};
