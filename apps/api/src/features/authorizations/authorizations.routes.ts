import { authorizationRoutes as declared } from '@odontia/shared/routes/authorizations';
import type { FastifyPluginAsync } from 'fastify';
import { sendPdf } from '../../lib/pdf.ts';
import { recordRoutes } from '../../plugins/record-routes.ts';
import { routes } from '../../plugins/routes.ts';
import { authorizationsService as service } from './authorizations.service.ts';

/**
 * /api/patients/:patientId/authorizations (issue 6). A deleted patient or another clinic's answers
 * 404 patient_not_found; an authorization of another patient or clinic, 404 authorization_not_found.
 */
export const authorizationsRoutes: FastifyPluginAsync = async (app) => {
  const route = routes(app, { tags: ['medical history'] });
  const read = { permission: 'patients.read' } as const;
  const write = { permission: 'clinical.write' } as const;

  recordRoutes(route, {
    declared: { name: 'authorization', routes: declared },
    service,
    list: { ...read, summary: "A patient's treatment authorizations, newest first (status=signed|unsigned to filter)" },
    get: { ...read, summary: 'One authorization with every signature (standing and revoked), newest first' },
    create: {
      ...write,
      failureCode: 'error_create_authorization',
      summary: "Write an authorization from an active template: the template's placeholders are filled from the fields",
    },
    update: {
      ...write,
      summary:
        'Edit an unsigned authorization (409 authorization_is_signed when signed, 409 version_conflict when stale)',
    },
    remove: {
      ...write,
      summary:
        'Delete a never-signed authorization (soft). Signed: 409 authorization_is_signed; signed once: 409 error_delete_authorization',
    },
    changes: { ...read, summary: "The authorization's history of changes (audit events), newest first" },
  });

  route.serve(
    declared.sign,
    {
      ...write,
      summary:
        'Sign: signer name and ID number, signature PNG (base64). Stores the text as signed and SHA-256(UTF-8 text ‖ 0x00 ‖ PNG)',
    },
    async ({ ctx, params, body }) => ({
      data: await service.sign({ ctx, ...params, input: body }),
      code: 'authorization_signed' as const,
    }),
  );

  route.serve(
    declared.unsign,
    { ...write, summary: 'Revoke the standing signature with a reason (409 error_unsign_authorization when unsigned)' },
    async ({ ctx, params, body }) => ({
      data: await service.unsign({ ctx, ...params, reason: body.reason }),
      code: 'authorization_unsigned' as const,
    }),
  );

  route.serve(
    declared.verify,
    {
      ...read,
      summary: "Recompute each signature's SHA-256 from the stored text and image and say whether it matches",
    },
    async ({ ctx, params }) => ({ data: await service.verify({ ctx, ...params }) }),
  );

  route.serve(
    declared.pdf,
    {
      ...read,
      summary:
        'The printable authorization (PDF): clinic, patient, text; when signed the signature, signer, time and SHA-256',
      transaction: false,
    },
    async ({ actor, params, reply }) => sendPdf(reply, await service.pdf({ db: app.db, actor, ...params })),
  );
};
