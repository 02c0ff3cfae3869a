import { patientRoutes as declared } from '@odontia/shared/routes/patients';
import type { FastifyPluginAsync } from 'fastify';
import { routes } from '../../plugins/routes.ts';
import { patientsService as service } from './patients.service.ts';

/** /api/patients (issue 5). Another clinic's or a deleted patient's id answers 404 patient_not_found. */
export const patientsRoutes: FastifyPluginAsync = async (app) => {
  const route = routes(app, { tags: ['patients'] });
  const read = { permission: 'patients.read', failureCode: 'error_get_patient' } as const;
  const write = { permission: 'patients.write' } as const;

  route.serve(
    declared.list,
    {
      ...read,
      summary: 'List patients: search as you type (names, ID number, skuPatient, e-mail, phone), active, sort',
      // A second of lag is fine: with a read replica it reads there (plugins/routes.ts).
      replica: true,
    },
    ({ ctx, query }) => service.list({ ctx, query }),
  );

  route.serve(declared.get, { ...read, summary: 'One patient' }, async ({ ctx, params }) => ({
    data: await service.get({ ctx, ...params }),
  }));

  route.serve(
    declared.create,
    {
      ...write,
      failureCode: 'error_create_patient',
      summary: "Create a patient; skuPatient comes from the clinic's counter; 409 duplicate_ssn",
    },
    async ({ ctx, body }) => ({ data: await service.create({ ctx, input: body }), code: 'patient_created' as const }),
  );

  route.serve(
    declared.update,
    {
      ...write,
      failureCode: 'error_update_patient',
      summary: 'Edit a patient; 409 version_conflict (with the current values) when the version is stale',
    },
    async ({ ctx, params, body }) => ({
      data: await service.update({ ctx, ...params, input: body }),
      code: 'patient_updated' as const,
    }),
  );

  route.serve(
    declared.remove,
    {
      ...write,
      failureCode: 'error_delete_patient',
      summary: 'Delete a patient: hidden everywhere from now on; the record and its audit are kept',
    },
    async ({ ctx, params }) => {
      await service.remove({ ctx, ...params });
      return { code: 'patient_deleted' as const };
    },
  );

  route.serve(
    declared.changes,
    {
      ...read,
      summary: "The patient's history of changes (audit events), newest first",
    },
    ({ ctx, params, query }) => service.changes({ ctx, ...params, query }),
  );
};
