import { idSchema } from '@odontia/shared/schemas/common';
import {
  createPatientRequestSchema,
  patientDeletedResponseSchema,
  patientResponseSchema,
  patientsListQuerySchema,
  patientsPageSchema,
  updatePatientRequestSchema,
} from '@odontia/shared/schemas/patients';
import { recordChangesPageSchema, recordChangesQuerySchema } from '@odontia/shared/schemas/records';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sessionOf } from '../../plugins/auth.ts';
import type { PatientsService } from './patients.service.ts';

const params = z.object({ patientId: idSchema });
const tags = ['patients'];
const security = [{ bearerAuth: [] }];

/** /api/patients (issue 5). Another clinic's or a deleted patient's id answers 404 patient_not_found. */
export const patientsRoutes: FastifyPluginAsyncZod<{ service: PatientsService }> = async (app, { service }) => {
  app.get(
    '/patients',
    {
      config: { permission: 'patients.read', failureCode: 'error_get_patient' },
      schema: {
        tags,
        security,
        summary: 'List patients: search as you type (names, ID number, skuPatient, e-mail, phone), active, sort',
        querystring: patientsListQuerySchema,
        response: { 200: patientsPageSchema },
      },
    },
    async (request) => service.list(sessionOf(request), request.query),
  );

  app.get(
    '/patients/:patientId',
    {
      config: { permission: 'patients.read', failureCode: 'error_get_patient' },
      schema: { tags, security, summary: 'One patient', params, response: { 200: patientResponseSchema } },
    },
    async (request) => ({ data: await service.get(sessionOf(request), request.params.patientId) }),
  );

  app.post(
    '/patients',
    {
      config: { permission: 'patients.write', failureCode: 'error_create_patient' },
      schema: {
        tags,
        security,
        summary: "Create a patient; skuPatient comes from the clinic's counter; 409 duplicate_ssn",
        body: createPatientRequestSchema,
        response: { 201: patientResponseSchema },
      },
    },
    async (request, reply) => {
      const data = await service.create(sessionOf(request), request.body, request.ip);
      return reply.status(201).send({ data, code: 'patient_created' as const });
    },
  );

  app.put(
    '/patients/:patientId',
    {
      config: { permission: 'patients.write', failureCode: 'error_update_patient' },
      schema: {
        tags,
        security,
        summary: 'Edit a patient; 409 version_conflict (with the current values) when the version is stale',
        params,
        body: updatePatientRequestSchema,
        response: { 200: patientResponseSchema },
      },
    },
    async (request) => ({
      data: await service.update(sessionOf(request), request.params.patientId, request.body, request.ip),
      code: 'patient_updated' as const,
    }),
  );

  app.delete(
    '/patients/:patientId',
    {
      config: { permission: 'patients.write', failureCode: 'error_delete_patient' },
      schema: {
        tags,
        security,
        summary: 'Delete a patient: hidden everywhere from now on; the record and its audit are kept',
        params,
        response: { 200: patientDeletedResponseSchema },
      },
    },
    async (request) => {
      await service.remove(sessionOf(request), request.params.patientId, request.ip);
      return { code: 'patient_deleted' as const };
    },
  );

  app.get(
    '/patients/:patientId/changes',
    {
      config: { permission: 'patients.read', failureCode: 'error_get_patient' },
      schema: {
        tags,
        security,
        summary: "The patient's history of changes (audit events), newest first",
        params,
        querystring: recordChangesQuerySchema,
        response: { 200: recordChangesPageSchema },
      },
    },
    async (request) => service.changes(sessionOf(request), request.params.patientId, request.query),
  );
};
