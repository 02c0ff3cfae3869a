import { apiRoute } from '../api-route.ts';
import { recordParamsSchema } from '../schemas/records.ts';
import {
  inviteUserRequestSchema,
  updateUserRequestSchema,
  userResponseSchema,
  usersListQuerySchema,
  usersPageSchema,
} from '../schemas/users.ts';

/** /api/users: the clinic's users, for administrators. */
export const userRoutes = {
  list: apiRoute({ method: 'GET', path: '/users', query: usersListQuerySchema, answer: usersPageSchema }),
  invite: apiRoute({
    method: 'POST',
    path: '/users',
    body: inviteUserRequestSchema,
    answer: userResponseSchema,
    status: 201,
  }),
  update: apiRoute({
    method: 'PATCH',
    path: '/users/:id',
    params: recordParamsSchema,
    body: updateUserRequestSchema,
    answer: userResponseSchema,
  }),
};
