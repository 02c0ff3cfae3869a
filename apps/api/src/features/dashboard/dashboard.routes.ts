import { dashboardRoutes as declared } from '@odontia/shared/routes/dashboard';
import type { FastifyPluginAsync } from 'fastify';
import { routes } from '../../plugins/routes.ts';
import { dashboard } from './dashboard.service.ts';

/** The dashboard (issue 19): one read for every staff level; the money figures for reports.read only. */
export const dashboardRoutes: FastifyPluginAsync = async (app) => {
  const route = routes(app, { tags: ['dashboard'] });
  route.serve(
    declared.get,
    {
      permission: 'patients.read',
      failureCode: 'error_get_dashboard',
      summary:
        "The period's figures beside the period before and a year before (attendances, new and returning patients, appointments kept, cancelled late and missed), today's agenda per professional (a level without reports.read: its own), and for reports.read production, collections by method, receivables with aging and the biggest debtors, payables due and the top treatments",
      // A second of lag is fine: with a read replica it reads there (plugins/routes.ts).
      replica: true,
    },
    async ({ ctx, query }) => ({ data: await dashboard(ctx, query) }),
  );
};
