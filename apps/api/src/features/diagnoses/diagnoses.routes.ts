import { diagnosisRecord } from '@odontia/shared/routes/medical-history';
import type { FastifyPluginAsync } from 'fastify';
import { recordRoutes } from '../../plugins/record-routes.ts';
import { routes } from '../../plugins/routes.ts';
import { diagnosesService } from './diagnoses.service.ts';

/**
 * /api/patients/:patientId/diagnoses (issue 5). A deleted patient or another clinic's answers
 * 404 patient_not_found; a diagnosis of another patient or clinic, 404 diagnosis_not_found.
 */
export const diagnosesRoutes: FastifyPluginAsync = async (app) => {
  const read = { permission: 'patients.read', failureCode: 'error_get_diagnosis' } as const;
  const write = { permission: 'clinical.write' } as const;
  recordRoutes(routes(app, { tags: ['medical history'] }), {
    declared: diagnosisRecord,
    service: diagnosesService,
    list: { ...read, summary: "A patient's diagnoses, newest first" },
    get: { ...read, summary: 'One diagnosis' },
    create: { ...write, failureCode: 'error_create_diagnosis', summary: 'Add a diagnosis' },
    update: {
      ...write,
      failureCode: 'error_update_diagnosis',
      summary: 'Edit a diagnosis; 409 version_conflict (with the current values) when the version is stale',
    },
    remove: {
      ...write,
      failureCode: 'error_delete_diagnosis',
      summary: 'Delete a diagnosis: hidden from now on; the record and its audit are kept',
    },
    changes: { ...read, summary: "The diagnosis's history of changes (audit events), newest first" },
  });
};
