import { apiRoute } from '../api-route.ts';
import { activityQuerySchema, activityResponseSchema } from '../schemas/activity.ts';

/** GET /api/activity: the top bar's activity stream. */
export const activityRoutes = {
  latest: apiRoute({ method: 'GET', path: '/activity', query: activityQuerySchema, answer: activityResponseSchema }),
};
