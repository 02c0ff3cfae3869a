import { userRoutes as declared } from '@odontia/shared/routes/users';
import type { FastifyPluginAsync } from 'fastify';
import { routes } from '../../plugins/routes.ts';
import type { UsersService } from './users.service.ts';

/** /api/users: the clinic's users, for administrators (`users.manage`). */
export const usersRoutes: FastifyPluginAsync<{ service: UsersService }> = async (app, { service }) => {
  const route = routes(app, { tags: ['users'] });
  const permission = 'users.manage';

  route.serve(declared.list, { permission, summary: "List the clinic's users" }, ({ ctx, query }) =>
    service.list({ ctx, query }),
  );

  route.serve(
    declared.invite,
    {
      permission,
      summary: 'Invite a user by e-mail; the invitation link sets the password',
      // The invitation mail leaves after the commit.
      transaction: false,
    },
    async ({ actor, body }) => ({ data: await service.invite({ actor, input: body }), code: 'user_invited' as const }),
  );

  route.serve(
    declared.update,
    { permission, summary: 'Change the level of a user, deactivate or reactivate them' },
    async ({ ctx, params, body }) => ({
      data: await service.update({ ctx, id: params.id, input: body }),
      code: 'user_updated' as const,
    }),
  );
};
