import { professionalsResponseSchema } from '@odontia/shared/schemas/clinical';
import type { FastifyPluginAsync } from 'fastify';
import { routes } from '../../plugins/routes.ts';
import { attendancesRoutes } from '../attendances/attendances.routes.ts';
import { certificatesRoutes } from '../certificates/certificates.routes.ts';
import { diagnosesRoutes } from '../diagnoses/diagnoses.routes.ts';
import { laboratoriesRoutes } from '../laboratories/laboratories.routes.ts';
import { odontogramRoutes } from '../odontogram/odontogram.routes.ts';
import { prescriptionsRoutes } from '../prescriptions/prescriptions.routes.ts';
import { listProfessionals } from './clinical.service.ts';

/**
 * The clinical records of the medical history (issue 5), under /api/patients/:patientId/…, and
 * the clinic's professionals every clinical form picks from.
 */
export const clinicalRoutes: FastifyPluginAsync = async (app) => {
  routes(app, { tags: ['medical history'] }).get(
    '/professionals',
    {
      // Whoever reads the records reads who wrote them (GET /api/users needs users.manage).
      permission: 'patients.read',
      summary: "The clinic's professionals (active users who are not customers), by name",
      answer: professionalsResponseSchema,
    },
    async ({ ctx }) => ({ data: await listProfessionals(ctx) }),
  );
  await app.register(diagnosesRoutes);
  await app.register(laboratoriesRoutes);
  await app.register(attendancesRoutes);
  await app.register(odontogramRoutes);
  await app.register(prescriptionsRoutes);
  await app.register(certificatesRoutes);
};
