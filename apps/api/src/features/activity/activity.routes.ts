import { activityQuerySchema, activityResponseSchema } from '@odontia/shared/schemas/activity';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sessionOf } from '../../plugins/auth.ts';
import type { ActivityService } from './activity.service.ts';

/** GET /api/activity: the top bar's activity stream, filtered by what the level may read. */
export const activityRoutes: FastifyPluginAsyncZod<{ service: ActivityService }> = async (app, { service }) => {
  app.get(
    '/activity',
    {
      config: { permission: 'authenticated' },
      schema: {
        tags: ['activity'],
        security: [{ bearerAuth: [] }],
        summary: "The clinic's latest audited changes the signed-in level may see, newest first",
        querystring: activityQuerySchema,
        response: { 200: activityResponseSchema },
      },
    },
    async (request) => ({ data: await service.latest(sessionOf(request), request.query) }),
  );
};
