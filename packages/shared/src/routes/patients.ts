import { apiRoute } from '../api-route.ts';
import {
  createPatientRequestSchema,
  patientDeletedResponseSchema,
  patientResponseSchema,
  patientsListQuerySchema,
  patientsPageSchema,
  updatePatientRequestSchema,
} from '../schemas/patients.ts';
import { patientParamsSchema, recordChangesPageSchema, recordChangesQuerySchema } from '../schemas/records.ts';

/** /api/patients (issue 5). */
export const patientRoutes = {
  list: apiRoute({ method: 'GET', path: '/patients', query: patientsListQuerySchema, answer: patientsPageSchema }),
  get: apiRoute({
    method: 'GET',
    path: '/patients/:patientId',
    params: patientParamsSchema,
    answer: patientResponseSchema,
  }),
  create: apiRoute({
    method: 'POST',
    path: '/patients',
    body: createPatientRequestSchema,
    answer: patientResponseSchema,
    status: 201,
  }),
  update: apiRoute({
    method: 'PUT',
    path: '/patients/:patientId',
    params: patientParamsSchema,
    body: updatePatientRequestSchema,
    answer: patientResponseSchema,
  }),
  remove: apiRoute({
    method: 'DELETE',
    path: '/patients/:patientId',
    params: patientParamsSchema,
    answer: patientDeletedResponseSchema,
  }),
  changes: apiRoute({
    method: 'GET',
    path: '/patients/:patientId/changes',
    params: patientParamsSchema,
    query: recordChangesQuerySchema,
    answer: recordChangesPageSchema,
  }),
};
