import { apiRoute } from '../api-route.ts';
import { dashboardQuerySchema, dashboardResponseSchema } from '../schemas/dashboard.ts';

/** /api/dashboard (issue 19): the period's figures and today's agenda. */
export const dashboardRoutes = {
  get: apiRoute({ method: 'GET', path: '/dashboard', query: dashboardQuerySchema, answer: dashboardResponseSchema }),
};
