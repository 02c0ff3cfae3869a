import {
  createDiagnosisRequestSchema,
  diagnosesPageSchema,
  diagnosisDeletedResponseSchema,
  diagnosisResponseSchema,
  updateDiagnosisRequestSchema,
} from '@odontia/shared/schemas/diagnoses';
import {
  pageQuerySchema,
  patientParamsSchema,
  patientRecordParamsSchema,
  recordChangesPageSchema,
  recordChangesQuerySchema,
} from '@odontia/shared/schemas/records';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sessionOf } from '../../plugins/auth.ts';
import type { DiagnosesService } from './diagnoses.service.ts';

const tags = ['medical history'];
const security = [{ bearerAuth: [] }];
const base = '/patients/:patientId/diagnoses';

/**
 * /api/patients/:patientId/diagnoses (issue 5). A deleted patient or another clinic's answers
 * 404 patient_not_found; a diagnosis of another patient or clinic, 404 diagnosis_not_found.
 */
export const diagnosesRoutes: FastifyPluginAsyncZod<{ service: DiagnosesService }> = async (app, { service }) => {
  app.get(
    base,
    {
      config: { permission: 'patients.read', failureCode: 'error_get_diagnosis' },
      schema: {
        tags,
        security,
        summary: "A patient's diagnoses, newest first",
        params: patientParamsSchema,
        querystring: pageQuerySchema,
        response: { 200: diagnosesPageSchema },
      },
    },
    async (request) => service.list(sessionOf(request), request.params.patientId, request.query),
  );

  app.get(
    `${base}/:id`,
    {
      config: { permission: 'patients.read', failureCode: 'error_get_diagnosis' },
      schema: {
        tags,
        security,
        summary: 'One diagnosis',
        params: patientRecordParamsSchema,
        response: { 200: diagnosisResponseSchema },
      },
    },
    async (request) => ({
      data: await service.get(sessionOf(request), request.params.patientId, request.params.id),
    }),
  );

  app.post(
    base,
    {
      config: { permission: 'clinical.write', failureCode: 'error_create_diagnosis' },
      schema: {
        tags,
        security,
        summary: 'Add a diagnosis',
        params: patientParamsSchema,
        body: createDiagnosisRequestSchema,
        response: { 201: diagnosisResponseSchema },
      },
    },
    async (request, reply) => {
      const data = await service.create(sessionOf(request), request.params.patientId, request.body, request.ip);
      return reply.status(201).send({ data, code: 'diagnosis_created' as const });
    },
  );

  app.put(
    `${base}/:id`,
    {
      config: { permission: 'clinical.write', failureCode: 'error_update_diagnosis' },
      schema: {
        tags,
        security,
        summary: 'Edit a diagnosis; 409 version_conflict (with the current values) when the version is stale',
        params: patientRecordParamsSchema,
        body: updateDiagnosisRequestSchema,
        response: { 200: diagnosisResponseSchema },
      },
    },
    async (request) => ({
      data: await service.update(
        sessionOf(request),
        request.params.patientId,
        request.params.id,
        request.body,
        request.ip,
      ),
      code: 'diagnosis_updated' as const,
    }),
  );

  app.delete(
    `${base}/:id`,
    {
      config: { permission: 'clinical.write', failureCode: 'error_delete_diagnosis' },
      schema: {
        tags,
        security,
        summary: 'Delete a diagnosis: hidden from now on; the record and its audit are kept',
        params: patientRecordParamsSchema,
        response: { 200: diagnosisDeletedResponseSchema },
      },
    },
    async (request) => {
      await service.remove(sessionOf(request), request.params.patientId, request.params.id, request.ip);
      return { code: 'diagnosis_deleted' as const };
    },
  );

  app.get(
    `${base}/:id/changes`,
    {
      config: { permission: 'patients.read', failureCode: 'error_get_diagnosis' },
      schema: {
        tags,
        security,
        summary: "The diagnosis's history of changes (audit events), newest first",
        params: patientRecordParamsSchema,
        querystring: recordChangesQuerySchema,
        response: { 200: recordChangesPageSchema },
      },
    },
    async (request) => service.changes(sessionOf(request), request.params.patientId, request.params.id, request.query),
  );
};
