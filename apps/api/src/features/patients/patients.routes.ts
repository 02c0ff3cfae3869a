import {
  createPatientRequestSchema,
  patientDeletedResponseSchema,
  patientResponseSchema,
  patientsListQuerySchema,
  patientsPageSchema,
  updatePatientRequestSchema,
} from '@odontia/shared/schemas/patients';
import {
  patientParamsSchema as params,
  recordChangesPageSchema,
  recordChangesQuerySchema,
} from '@odontia/shared/schemas/records';
import type { FastifyPluginAsync } from 'fastify';
import { routes } from '../../plugins/routes.ts';
import { patientsService as service } from './patients.service.ts';

/** /api/patients (issue 5). Another clinic's or a deleted patient's id answers 404 patient_not_found. */
export const patientsRoutes: FastifyPluginAsync = async (app) => {
  const route = routes(app, { tags: ['patients'] });
  const read = { permission: 'patients.read', failureCode: 'error_get_patient' } as const;
  const write = { permission: 'patients.write' } as const;

  route.get(
    '/patients',
    {
      ...read,
      summary: 'List patients: search as you type (names, ID number, skuPatient, e-mail, phone), active, sort',
      querystring: patientsListQuerySchema,
      answer: patientsPageSchema,
      // A second of lag is fine: with a read replica it reads there (plugins/routes.ts).
      replica: true,
    },
    ({ ctx, query }) => service.list({ ctx, query }),
  );

  route.get(
    '/patients/:patientId',
    { ...read, summary: 'One patient', params, answer: patientResponseSchema },
    async ({ ctx, params }) => ({ data: await service.get({ ctx, ...params }) }),
  );

  route.post(
    '/patients',
    {
      ...write,
      failureCode: 'error_create_patient',
      summary: "Create a patient; skuPatient comes from the clinic's counter; 409 duplicate_ssn",
      body: createPatientRequestSchema,
      answer: patientResponseSchema,
      status: 201,
    },
    async ({ ctx, body }) => ({ data: await service.create({ ctx, input: body }), code: 'patient_created' as const }),
  );

  route.put(
    '/patients/:patientId',
    {
      ...write,
      failureCode: 'error_update_patient',
      summary: 'Edit a patient; 409 version_conflict (with the current values) when the version is stale',
      params,
      body: updatePatientRequestSchema,
      answer: patientResponseSchema,
    },
    async ({ ctx, params, body }) => ({
      data: await service.update({ ctx, ...params, input: body }),
      code: 'patient_updated' as const,
    }),
  );

  route.delete(
    '/patients/:patientId',
    {
      ...write,
      failureCode: 'error_delete_patient',
      summary: 'Delete a patient: hidden everywhere from now on; the record and its audit are kept',
      params,
      answer: patientDeletedResponseSchema,
    },
    async ({ ctx, params }) => {
      await service.remove({ ctx, ...params });
      return { code: 'patient_deleted' as const };
    },
  );

  route.get(
    '/patients/:patientId/changes',
    {
      ...read,
      summary: "The patient's history of changes (audit events), newest first",
      params,
      querystring: recordChangesQuerySchema,
      answer: recordChangesPageSchema,
    },
    ({ ctx, params, query }) => service.changes({ ctx, ...params, query }),
  );
};
