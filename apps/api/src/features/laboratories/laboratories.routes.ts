import {
  createLaboratoryRequestSchema,
  laboratoriesPageSchema,
  laboratoryDeletedResponseSchema,
  laboratoryResponseSchema,
  updateLaboratoryRequestSchema,
} from '@odontia/shared/schemas/laboratories';
import {
  pageQuerySchema,
  patientParamsSchema,
  patientRecordParamsSchema,
  recordChangesPageSchema,
  recordChangesQuerySchema,
} from '@odontia/shared/schemas/records';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sessionOf } from '../../plugins/auth.ts';
import type { LaboratoriesService } from './laboratories.service.ts';

const tags = ['medical history'];
const security = [{ bearerAuth: [] }];
const base = '/patients/:patientId/laboratories';

/**
 * /api/patients/:patientId/laboratories (issue 5). A deleted patient or another clinic's answers
 * 404 patient_not_found; a laboratory of another patient or clinic, 404 laboratory_not_found.
 */
export const laboratoriesRoutes: FastifyPluginAsyncZod<{ service: LaboratoriesService }> = async (app, { service }) => {
  app.get(
    base,
    {
      config: { permission: 'patients.read', failureCode: 'error_get_laboratory' },
      schema: {
        tags,
        security,
        summary: "A patient's laboratory orders, newest order first",
        params: patientParamsSchema,
        querystring: pageQuerySchema,
        response: { 200: laboratoriesPageSchema },
      },
    },
    async (request) => service.list(sessionOf(request), request.params.patientId, request.query),
  );

  app.get(
    `${base}/:id`,
    {
      config: { permission: 'patients.read', failureCode: 'error_get_laboratory' },
      schema: {
        tags,
        security,
        summary: 'One laboratory order and its result',
        params: patientRecordParamsSchema,
        response: { 200: laboratoryResponseSchema },
      },
    },
    async (request) => ({
      data: await service.get(sessionOf(request), request.params.patientId, request.params.id),
    }),
  );

  app.post(
    base,
    {
      config: { permission: 'clinical.write', failureCode: 'error_create_laboratory' },
      schema: {
        tags,
        security,
        summary: 'Add a laboratory order',
        params: patientParamsSchema,
        body: createLaboratoryRequestSchema,
        response: { 201: laboratoryResponseSchema },
      },
    },
    async (request, reply) => {
      const data = await service.create(sessionOf(request), request.params.patientId, request.body, request.ip);
      return reply.status(201).send({ data, code: 'laboratory_created' as const });
    },
  );

  app.put(
    `${base}/:id`,
    {
      config: { permission: 'clinical.write', failureCode: 'error_update_laboratory' },
      schema: {
        tags,
        security,
        summary:
          'Edit a laboratory order or record its result; 409 version_conflict (with the current values) when the version is stale',
        params: patientRecordParamsSchema,
        body: updateLaboratoryRequestSchema,
        response: { 200: laboratoryResponseSchema },
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
      code: 'laboratory_updated' as const,
    }),
  );

  app.delete(
    `${base}/:id`,
    {
      config: { permission: 'clinical.write', failureCode: 'error_delete_laboratory' },
      schema: {
        tags,
        security,
        summary: 'Delete a laboratory order: hidden from now on; the record and its audit are kept',
        params: patientRecordParamsSchema,
        response: { 200: laboratoryDeletedResponseSchema },
      },
    },
    async (request) => {
      await service.remove(sessionOf(request), request.params.patientId, request.params.id, request.ip);
      return { code: 'laboratory_deleted' as const };
    },
  );

  app.get(
    `${base}/:id/order.pdf`,
    {
      config: { permission: 'patients.read', failureCode: 'error_get_laboratory' },
      schema: {
        tags,
        security,
        summary:
          'The printable order (PDF): clinic header, patient, professional, studies, instructions, signature line',
        params: patientRecordParamsSchema,
      },
    },
    async (request, reply) => {
      const { pdf, fileName } = await service.orderPdf(sessionOf(request), request.params.patientId, request.params.id);
      return reply
        .type('application/pdf')
        .header('content-disposition', `inline; filename="${fileName}"`)
        .header('cache-control', 'no-store')
        .send(pdf);
    },
  );

  app.get(
    `${base}/:id/changes`,
    {
      config: { permission: 'patients.read', failureCode: 'error_get_laboratory' },
      schema: {
        tags,
        security,
        summary: "The laboratory's history of changes (audit events), newest first",
        params: patientRecordParamsSchema,
        querystring: recordChangesQuerySchema,
        response: { 200: recordChangesPageSchema },
      },
    },
    async (request) => service.changes(sessionOf(request), request.params.patientId, request.params.id, request.query),
  );
};
