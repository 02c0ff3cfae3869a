import {
  authorizationDeletedResponseSchema,
  authorizationListQuerySchema,
  authorizationResponseSchema,
  authorizationsPageSchema,
  authorizationVerificationSchema,
  createAuthorizationRequestSchema,
  signAuthorizationRequestSchema,
  unsignAuthorizationRequestSchema,
  updateAuthorizationRequestSchema,
} from '@odontia/shared/schemas/authorizations';
import {
  patientParamsSchema,
  patientRecordParamsSchema,
  recordChangesPageSchema,
  recordChangesQuerySchema,
} from '@odontia/shared/schemas/records';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sessionOf } from '../../plugins/auth.ts';
import type { AuthorizationsService } from './authorizations.service.ts';

const tags = ['medical history'];
const security = [{ bearerAuth: [] }];
const base = '/patients/:patientId/authorizations';

/**
 * /api/patients/:patientId/authorizations (issue 6). A deleted patient or another clinic's answers
 * 404 patient_not_found; an authorization of another patient or clinic, 404 authorization_not_found.
 */
export const authorizationsRoutes: FastifyPluginAsyncZod<{ service: AuthorizationsService }> = async (
  app,
  { service },
) => {
  app.get(
    base,
    {
      config: { permission: 'patients.read' },
      schema: {
        tags,
        security,
        summary: "A patient's treatment authorizations, newest first (status=signed|unsigned to filter)",
        params: patientParamsSchema,
        querystring: authorizationListQuerySchema,
        response: { 200: authorizationsPageSchema },
      },
    },
    async (request) => service.list(sessionOf(request), request.params.patientId, request.query),
  );

  app.get(
    `${base}/:id`,
    {
      config: { permission: 'patients.read' },
      schema: {
        tags,
        security,
        summary: 'One authorization with every signature (standing and revoked), newest first',
        params: patientRecordParamsSchema,
        response: { 200: authorizationResponseSchema },
      },
    },
    async (request) => ({ data: await service.get(sessionOf(request), request.params.patientId, request.params.id) }),
  );

  app.post(
    base,
    {
      config: { permission: 'clinical.write' },
      schema: {
        tags,
        security,
        summary:
          "Write an authorization from an active template: the template's placeholders are filled from the fields",
        params: patientParamsSchema,
        body: createAuthorizationRequestSchema,
        response: { 201: authorizationResponseSchema },
      },
    },
    async (request, reply) => {
      const data = await service.create(sessionOf(request), request.params.patientId, request.body, request.ip);
      return reply.status(201).send({ data, code: 'authorization_created' as const });
    },
  );

  app.put(
    `${base}/:id`,
    {
      config: { permission: 'clinical.write' },
      schema: {
        tags,
        security,
        summary:
          'Edit an unsigned authorization (409 authorization_is_signed when signed, 409 version_conflict when stale)',
        params: patientRecordParamsSchema,
        body: updateAuthorizationRequestSchema,
        response: { 200: authorizationResponseSchema },
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
      code: 'authorization_updated' as const,
    }),
  );

  app.delete(
    `${base}/:id`,
    {
      config: { permission: 'clinical.write' },
      schema: {
        tags,
        security,
        summary:
          'Delete a never-signed authorization (soft). Signed: 409 authorization_is_signed; signed once: 409 error_delete_authorization',
        params: patientRecordParamsSchema,
        response: { 200: authorizationDeletedResponseSchema },
      },
    },
    async (request) => {
      await service.remove(sessionOf(request), request.params.patientId, request.params.id, request.ip);
      return { code: 'authorization_deleted' as const };
    },
  );

  app.post(
    `${base}/:id/sign`,
    {
      config: { permission: 'clinical.write' },
      schema: {
        tags,
        security,
        summary:
          'Sign: signer name and ID number, signature PNG (base64). Stores the text as signed and SHA-256(UTF-8 text ‖ 0x00 ‖ PNG)',
        params: patientRecordParamsSchema,
        body: signAuthorizationRequestSchema,
        response: { 200: authorizationResponseSchema },
      },
    },
    async (request) => ({
      data: await service.sign(
        sessionOf(request),
        request.params.patientId,
        request.params.id,
        request.body,
        request.ip,
      ),
      code: 'authorization_signed' as const,
    }),
  );

  app.post(
    `${base}/:id/unsign`,
    {
      config: { permission: 'clinical.write' },
      schema: {
        tags,
        security,
        summary: 'Revoke the standing signature with a reason (409 error_unsign_authorization when unsigned)',
        params: patientRecordParamsSchema,
        body: unsignAuthorizationRequestSchema,
        response: { 200: authorizationResponseSchema },
      },
    },
    async (request) => ({
      data: await service.unsign(
        sessionOf(request),
        request.params.patientId,
        request.params.id,
        request.body.reason,
        request.ip,
      ),
      code: 'authorization_unsigned' as const,
    }),
  );

  app.get(
    `${base}/:id/verify`,
    {
      config: { permission: 'patients.read' },
      schema: {
        tags,
        security,
        summary: "Recompute each signature's SHA-256 from the stored text and image and say whether it matches",
        params: patientRecordParamsSchema,
        response: { 200: authorizationVerificationSchema },
      },
    },
    async (request) => ({
      data: await service.verify(sessionOf(request), request.params.patientId, request.params.id),
    }),
  );

  app.get(
    `${base}/:id/pdf`,
    {
      config: { permission: 'patients.read' },
      schema: {
        tags,
        security,
        summary:
          'The printable authorization (PDF): clinic, patient, text; when signed the signature, signer, time and SHA-256',
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
      config: { permission: 'patients.read' },
      schema: {
        tags,
        security,
        summary: "The authorization's history of changes (audit events), newest first",
        params: patientRecordParamsSchema,
        querystring: recordChangesQuerySchema,
        response: { 200: recordChangesPageSchema },
      },
    },
    async (request) => service.changes(sessionOf(request), request.params.patientId, request.params.id, request.query),
  );
};
