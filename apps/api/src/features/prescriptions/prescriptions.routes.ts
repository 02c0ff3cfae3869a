import {
  createPrescriptionRequestSchema,
  prescriptionByCodeParamsSchema,
  prescriptionByCodeResponseSchema,
  prescriptionDeletedResponseSchema,
  prescriptionResponseSchema,
  prescriptionsPageSchema,
  updatePrescriptionRequestSchema,
} from '@odontia/shared/schemas/prescriptions';
import {
  pageQuerySchema,
  patientParamsSchema,
  patientRecordParamsSchema,
  recordChangesPageSchema,
  recordChangesQuerySchema,
} from '@odontia/shared/schemas/records';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sessionOf } from '../../plugins/auth.ts';
import type { PrescriptionsService } from './prescriptions.service.ts';

const tags = ['medical history'];
const security = [{ bearerAuth: [] }];
const base = '/patients/:patientId/prescriptions';

/**
 * /api/patients/:patientId/prescriptions and /api/prescriptions/by-code/:code (issue 6). A deleted
 * patient or another clinic's answers 404 patient_not_found; a prescription of another patient or
 * clinic, 404 prescription_not_found.
 */
export const prescriptionsRoutes: FastifyPluginAsyncZod<{ service: PrescriptionsService }> = async (
  app,
  { service },
) => {
  app.get(
    base,
    {
      config: { permission: 'patients.read', failureCode: 'error_get_prescription' },
      schema: {
        tags,
        security,
        summary: "A patient's prescriptions, newest first",
        params: patientParamsSchema,
        querystring: pageQuerySchema,
        response: { 200: prescriptionsPageSchema },
      },
    },
    async (request) => service.list(sessionOf(request), request.params.patientId, request.query),
  );

  app.get(
    '/prescriptions/by-code/:code',
    {
      config: { permission: 'patients.read', failureCode: 'error_get_prescription' },
      schema: {
        tags,
        security,
        summary: "The clinic's prescription with this verification code (a pharmacy calls to verify it)",
        params: prescriptionByCodeParamsSchema,
        response: { 200: prescriptionByCodeResponseSchema },
      },
    },
    async (request) => ({ data: await service.byCode(sessionOf(request), request.params.code) }),
  );

  app.get(
    `${base}/:id`,
    {
      config: { permission: 'patients.read', failureCode: 'error_get_prescription' },
      schema: {
        tags,
        security,
        summary: 'One prescription and its lines',
        params: patientRecordParamsSchema,
        response: { 200: prescriptionResponseSchema },
      },
    },
    async (request) => ({
      data: await service.get(sessionOf(request), request.params.patientId, request.params.id),
    }),
  );

  app.post(
    base,
    {
      config: { permission: 'clinical.write', failureCode: 'error_create_prescription' },
      schema: {
        tags,
        security,
        summary:
          'Write a prescription; 409 medication_not_prescribable when a line names a medicine that is not approved and active',
        params: patientParamsSchema,
        body: createPrescriptionRequestSchema,
        response: { 201: prescriptionResponseSchema },
      },
    },
    async (request, reply) => {
      const data = await service.create(sessionOf(request), request.params.patientId, request.body, request.ip);
      return reply.status(201).send({ data, code: 'prescription_created' as const });
    },
  );

  app.put(
    `${base}/:id`,
    {
      config: { permission: 'clinical.write', failureCode: 'error_update_prescription' },
      schema: {
        tags,
        security,
        summary: 'Edit a prescription; 409 version_conflict (with the current values) when the version is stale',
        params: patientRecordParamsSchema,
        body: updatePrescriptionRequestSchema,
        response: { 200: prescriptionResponseSchema },
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
      code: 'prescription_updated' as const,
    }),
  );

  app.delete(
    `${base}/:id`,
    {
      config: { permission: 'clinical.write', failureCode: 'error_delete_prescription' },
      schema: {
        tags,
        security,
        summary: 'Delete a prescription: hidden from now on; the record and its audit are kept',
        params: patientRecordParamsSchema,
        response: { 200: prescriptionDeletedResponseSchema },
      },
    },
    async (request) => {
      await service.remove(sessionOf(request), request.params.patientId, request.params.id, request.ip);
      return { code: 'prescription_deleted' as const };
    },
  );

  app.get(
    `${base}/:id/pdf`,
    {
      config: { permission: 'patients.read', failureCode: 'error_get_prescription' },
      schema: {
        tags,
        security,
        summary:
          "The printable prescription (PDF) in the patient's language: clinic, patient, medicines, professional, signature line, verification code",
        params: patientRecordParamsSchema,
      },
    },
    async (request, reply) => {
      const { pdf, fileName } = await service.pdf(sessionOf(request), request.params.patientId, request.params.id);
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
      config: { permission: 'patients.read', failureCode: 'error_get_prescription' },
      schema: {
        tags,
        security,
        summary: "The prescription's history of changes (audit events), newest first",
        params: patientRecordParamsSchema,
        querystring: recordChangesQuerySchema,
        response: { 200: recordChangesPageSchema },
      },
    },
    async (request) => service.changes(sessionOf(request), request.params.patientId, request.params.id, request.query),
  );
};
