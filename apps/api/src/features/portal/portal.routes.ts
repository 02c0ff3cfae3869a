import { portalRoutes as declared } from '@odontia/shared/routes/portal';
import type { FastifyPluginAsync } from 'fastify';
import { routes } from '../../plugins/routes.ts';
import { portalMe } from './portal.service.ts';

/**
 * /api/portal/* — the patient portal (issue 37): a customer session's own data, `portal.use`
 * only. Every handler's transaction runs as the session's patient (plugins/routes.ts →
 * `withPatient`): the database itself refuses any other patient's rows.
 */
export const portalRoutes: FastifyPluginAsync = async (app) => {
  const route = routes(app, { tags: ['portal'] });

  route.serve(
    declared.me,
    { permission: 'portal.use', summary: "The signed-in patient, their clinic and the portal's settings" },
    async ({ ctx }) => ({ data: await portalMe(ctx) }),
  );
};
