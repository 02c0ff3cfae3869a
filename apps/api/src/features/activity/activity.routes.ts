import { activityRoutes as declared } from '@odontia/shared/routes/activity';
import type { FastifyPluginAsync } from 'fastify';
import { routes } from '../../plugins/routes.ts';
import { activityService } from './activity.service.ts';

/** GET /api/activity: the top bar's activity stream, filtered by what the level may read. */
export const activityRoutes: FastifyPluginAsync = async (app) => {
  routes(app, { tags: ['activity'] }).serve(
    declared.latest,
    {
      permission: 'authenticated',
      summary: "The clinic's latest audited changes the signed-in level may see, newest first",
    },
    async ({ ctx, query }) => ({ data: await activityService.latest({ ctx, query }) }),
  );
};
