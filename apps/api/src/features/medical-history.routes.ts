import type { FastifyPluginAsync } from 'fastify';
import { attendancesRoutes } from './attendances/attendances.routes.ts';
import { certificatesRoutes } from './certificates/certificates.routes.ts';
import { clinicalRoutes } from './clinical/clinical.routes.ts';
import { diagnosesRoutes } from './diagnoses/diagnoses.routes.ts';
import { laboratoriesRoutes } from './laboratories/laboratories.routes.ts';
import { odontogramRoutes } from './odontogram/odontogram.routes.ts';
import { perioRoutes } from './perio/perio.routes.ts';
import { prescriptionsRoutes } from './prescriptions/prescriptions.routes.ts';

/**
 * The medical history (issue 5), under /api/patients/:patientId/…: the clinic's professionals and
 * every clinical record kind. The kinds build on `clinical/` (the base they share), so they are
 * registered here, above it, and `clinical/` imports none of them.
 */
export const medicalHistoryRoutes: FastifyPluginAsync = async (app) => {
  await app.register(clinicalRoutes);
  await app.register(diagnosesRoutes);
  await app.register(laboratoriesRoutes);
  await app.register(attendancesRoutes);
  await app.register(odontogramRoutes);
  await app.register(perioRoutes);
  await app.register(prescriptionsRoutes);
  await app.register(certificatesRoutes);
};
