import { clinicalRoutes } from '@odontia/shared/routes/clinical';
import { certificateRecord, clinicalRecordExtras as extras } from '@odontia/shared/routes/medical-history';
import type { FastifyPluginAsync } from 'fastify';
import { medicalRecordRoutes, servePrintout } from '../clinical/medical-record-routes.ts';
import { certificatePdf, certificatesService } from './certificates.service.ts';

/**
 * /api/patients/:patientId/certificates and /api/certificates/by-code/:code (issue 24), with the
 * permissions of prescriptions: read with patients.read, issue and void with clinical.write.
 */
export const certificatesRoutes: FastifyPluginAsync = async (app) => {
  const { route, read, write } = medicalRecordRoutes(app, {
    declared: certificateRecord,
    service: certificatesService,
    summaries: {
      list: "A patient's health certificates, newest first (voided ones too, marked)",
      get: 'One health certificate',
      create: 'Issue a health certificate: placeholders filled, the professional copied, a CE- verification code',
      update:
        'Edit the internal notes of a certificate; 409 health_certificate_issued when a printed field changes, 409 version_conflict when stale',
      remove: 'Delete a certificate issued by mistake: hidden from now on; the record and its audit are kept',
      changes: "The certificate's history of changes (audit events), newest first",
    },
  });

  route.serve(
    clinicalRoutes.certificateByCode,
    {
      ...read,
      summary:
        "The clinic's health certificate with this verification code (an employer or a school calls to verify it)",
    },
    async ({ ctx, params }) => ({ data: await certificatesService.byCode({ ctx, code: params.code }) }),
  );

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

  servePrintout(
    app,
    route,
    extras.certificatePdf,
    {
      ...read,
      summary: "The printable certificate (PDF) in the patient's language, with the clinic header and its code",
    },
    { printable: certificatesService.printable, render: certificatePdf },
  );
};
