import { professionalsResponseSchema } from '@odontia/shared/schemas/clinical';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Database } from '../../db/client.ts';
import { sessionOf } from '../../plugins/auth.ts';
import { attendancesRoutes } from '../attendances/attendances.routes.ts';
import { createAttendancesService } from '../attendances/attendances.service.ts';
import { diagnosesRoutes } from '../diagnoses/diagnoses.routes.ts';
import { laboratoriesRoutes } from '../laboratories/laboratories.routes.ts';
import { createLaboratoriesService } from '../laboratories/laboratories.service.ts';
import { odontogramRoutes } from '../odontogram/odontogram.routes.ts';
import { prescriptionsRoutes } from '../prescriptions/prescriptions.routes.ts';
import { createPrescriptionsService } from '../prescriptions/prescriptions.service.ts';
import { listProfessionals } from './clinical.service.ts';

/**
 * The clinical records of the medical history (issue 5), under /api/patients/:patientId/…, and
 * the clinic's professionals every clinical form picks from.
 */
export const clinicalRoutes: FastifyPluginAsync<{ db: Database }> = async (app, { db }) => {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/professionals',
    {
      // Whoever reads the records reads who wrote them (GET /api/users needs users.manage).
      config: { permission: 'patients.read' },
      schema: {
        tags: ['medical history'],
        security: [{ bearerAuth: [] }],
        summary: "The clinic's professionals (active users who are not customers), by name",
        response: { 200: professionalsResponseSchema },
      },
    },
    async (request) => {
      return { data: await listProfessionals(db, sessionOf(request).accountId) };
    },
  );
  await app.register(diagnosesRoutes);
  await app.register(laboratoriesRoutes, { service: createLaboratoriesService({ db }) });
  await app.register(attendancesRoutes, { service: createAttendancesService({ db }) });
  await app.register(odontogramRoutes);
  await app.register(prescriptionsRoutes, { service: createPrescriptionsService({ db }) });
};
