import { clinicalRoutes as declared } from '@odontia/shared/routes/clinical';
import type { FastifyPluginAsync } from 'fastify';
import { routes } from '../../plugins/routes.ts';
import { listProfessionals } from './clinical.service.ts';

/**
 * The clinic's professionals every clinical form picks from. The clinical records themselves
 * register beside it, in `../medical-history.routes.ts`.
 */
export const clinicalRoutes: FastifyPluginAsync = async (app) => {
  routes(app, { tags: ['medical history'] }).serve(
    declared.professionals,
    {
      // Whoever reads the records reads who wrote them (GET /api/users needs users.manage).
      permission: 'patients.read',
      summary: "The clinic's professionals (active users who are not customers), by name",
    },
    async ({ ctx }) => ({ data: await listProfessionals(ctx) }),
  );
};
