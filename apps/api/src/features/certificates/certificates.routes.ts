import { clinicalRoutes } from '@odontia/shared/routes/clinical';
import { certificateRecord, clinicalRecordExtras as extras } from '@odontia/shared/routes/medical-history';
import type { FastifyPluginAsync } from 'fastify';
import { sendPdf } from '../../lib/pdf.ts';
import { recordRoutes } from '../../plugins/record-routes.ts';
import { routes } from '../../plugins/routes.ts';
import { certificatePdf, certificatesService } from './certificates.service.ts';

/**
 * /api/patients/:patientId/certificates and /api/certificates/by-code/:code (issue 24), with the
 * permissions of prescriptions: read with patients.read, issue and void with clinical.write.
 */
export const certificatesRoutes: FastifyPluginAsync = async (app) => {
  const read = { permission: 'patients.read', failureCode: 'error_get_health_certificate' } as const;
  const write = { permission: 'clinical.write' } as const;
  const route = routes(app, { tags: ['medical history'] });

  route.serve(
    clinicalRoutes.certificateByCode,
    {
      ...read,
      summary:
        "The clinic's health certificate with this verification code (an employer or a school calls to verify it)",
    },
    async ({ ctx, params }) => ({ data: await certificatesService.byCode({ ctx, code: params.code }) }),
  );

  recordRoutes(route, {
    declared: certificateRecord,
    service: certificatesService,
    list: { ...read, summary: "A patient's health certificates, newest first (voided ones too, marked)" },
    get: { ...read, summary: 'One health certificate' },
    create: {
      ...write,
      failureCode: 'error_create_health_certificate',
      summary: 'Issue a health certificate: placeholders filled, the professional copied, a CE- verification code',
    },
    update: {
      ...write,
      failureCode: 'error_update_health_certificate',
      summary:
        'Edit the internal notes of a certificate; 409 health_certificate_issued when a printed field changes, 409 version_conflict when stale',
    },
    remove: {
      ...write,
      failureCode: 'error_delete_health_certificate',
      summary: 'Delete a certificate issued by mistake: hidden from now on; the record and its audit are kept',
    },
    changes: { ...read, summary: "The certificate's history of changes (audit events), newest first" },
  });

  route.serve(
    extras.voidCertificate,
    {
      ...write,
      failureCode: 'error_update_health_certificate',
      summary: 'Void a certificate with a reason (kept and marked); 409 health_certificate_already_voided',
    },
    async ({ ctx, params, body }) => ({
      data: await certificatesService.void({ ctx, ...params, input: body }),
      code: 'health_certificate_voided' as const,
    }),
  );

  // Rendered after the read's transaction: a PDF takes a while and holds no row.
  route.serve(
    extras.certificatePdf,
    {
      ...read,
      summary: "The printable certificate (PDF) in the patient's language, with the clinic header and its code",
      transaction: false,
    },
    async ({ actor, params, reply }) => {
      const printable = await app.db.withTenant(actor.accountId, (tx) =>
        certificatesService.printable({ ctx: { ...actor, tx }, ...params }),
      );
      return sendPdf(reply, await certificatePdf(printable));
    },
  );
};
