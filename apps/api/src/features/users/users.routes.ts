import { recordParamsSchema } from '@odontia/shared/schemas/records';
import {
  inviteUserRequestSchema,
  updateUserRequestSchema,
  userResponseSchema,
  usersListQuerySchema,
  usersPageSchema,
} from '@odontia/shared/schemas/users';
import type { FastifyPluginAsync } from 'fastify';
import { routes } from '../../plugins/routes.ts';
import type { UsersService } from './users.service.ts';

/** /api/users: the clinic's users, for administrators (`users.manage`). */
export const usersRoutes: FastifyPluginAsync<{ service: UsersService }> = async (app, { service }) => {
  const route = routes(app, { tags: ['users'] });
  const permission = 'users.manage';

  route.get(
    '/users',
    { permission, summary: "List the clinic's users", querystring: usersListQuerySchema, answer: usersPageSchema },
    ({ ctx, query }) => service.list({ ctx, query }),
  );

  route.post(
    '/users',
    {
      permission,
      summary: 'Invite a user by e-mail; the invitation link sets the password',
      body: inviteUserRequestSchema,
      answer: userResponseSchema,
      status: 201,
      // The invitation mail leaves after the commit.
      transaction: false,
    },
    async ({ actor, body }) => ({ data: await service.invite({ actor, input: body }), code: 'user_invited' as const }),
  );

  route.patch(
    '/users/:id',
    {
      permission,
      summary: 'Change the level of a user, deactivate or reactivate them',
      params: recordParamsSchema,
      body: updateUserRequestSchema,
      answer: userResponseSchema,
    },
    async ({ ctx, params, body }) => ({
      data: await service.update({ ctx, id: params.id, input: body }),
      code: 'user_updated' as const,
    }),
  );
};
