import type { FastifyPluginAsync } from 'fastify';
import type { Database } from '../../db/client.ts';
import { attendancesRoutes } from '../attendances/attendances.routes.ts';
import { createAttendancesService } from '../attendances/attendances.service.ts';
import { diagnosesRoutes } from '../diagnoses/diagnoses.routes.ts';
import { createDiagnosesService } from '../diagnoses/diagnoses.service.ts';
import { laboratoriesRoutes } from '../laboratories/laboratories.routes.ts';
import { createLaboratoriesService } from '../laboratories/laboratories.service.ts';
import { prescriptionsRoutes } from '../prescriptions/prescriptions.routes.ts';
import { createPrescriptionsService } from '../prescriptions/prescriptions.service.ts';

/** The clinical records of the medical history (issue 5), under /api/patients/:patientId/…. */
export const clinicalRoutes: FastifyPluginAsync<{ db: Database }> = async (app, { db }) => {
  await app.register(diagnosesRoutes, { service: createDiagnosesService({ db }) });
  await app.register(laboratoriesRoutes, { service: createLaboratoriesService({ db }) });
  await app.register(attendancesRoutes, { service: createAttendancesService({ db }) });
  await app.register(prescriptionsRoutes, { service: createPrescriptionsService({ db }) });
};
