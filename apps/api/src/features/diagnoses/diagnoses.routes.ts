import { diagnosisRecord } from '@odontia/shared/routes/medical-history';
import type { FastifyPluginAsync } from 'fastify';
import { medicalRecordRoutes } from '../clinical/medical-record-routes.ts';
import { diagnosesService } from './diagnoses.service.ts';

/**
 * /api/patients/:patientId/diagnoses (issue 5). A deleted patient or another clinic's answers
 * 404 patient_not_found; a diagnosis of another patient or clinic, 404 diagnosis_not_found.
 */
export const diagnosesRoutes: FastifyPluginAsync = async (app) => {
  medicalRecordRoutes(app, {
    declared: diagnosisRecord,
    service: diagnosesService,
    summaries: {
      list: "A patient's diagnoses, newest first",
      get: 'One diagnosis',
      create: 'Add a diagnosis',
      update: 'Edit a diagnosis; 409 version_conflict (with the current values) when the version is stale',
      remove: 'Delete a diagnosis: hidden from now on; the record and its audit are kept',
      changes: "The diagnosis's history of changes (audit events), newest first",
    },
  });
};
