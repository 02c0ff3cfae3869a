import { clinicalRoutes } from '@odontia/shared/routes/clinical';
import { clinicalRecordExtras as extras, prescriptionRecord } from '@odontia/shared/routes/medical-history';
import type { FastifyPluginAsync } from 'fastify';
import { sendPdf } from '../../lib/pdf.ts';
import { recordRoutes } from '../../plugins/record-routes.ts';
import { routes } from '../../plugins/routes.ts';
import { prescriptionPdf, prescriptionsService } from './prescriptions.service.ts';

/**
 * /api/patients/:patientId/prescriptions and /api/prescriptions/by-code/:code (issue 6). A deleted
 * patient or another clinic's answers 404 patient_not_found; a prescription of another patient or
 * clinic, 404 prescription_not_found.
 */
export const prescriptionsRoutes: FastifyPluginAsync = async (app) => {
  const read = { permission: 'patients.read', failureCode: 'error_get_prescription' } as const;
  const write = { permission: 'clinical.write' } as const;
  const route = routes(app, { tags: ['medical history'] });

  route.serve(
    clinicalRoutes.prescriptionByCode,
    { ...read, summary: "The clinic's prescription with this verification code (a pharmacy calls to verify it)" },
    async ({ ctx, params }) => ({ data: await prescriptionsService.byCode({ ctx, code: params.code }) }),
  );

  recordRoutes(route, {
    declared: prescriptionRecord,
    service: prescriptionsService,
    list: { ...read, summary: "A patient's prescriptions, newest first" },
    get: { ...read, summary: 'One prescription and its lines' },
    create: {
      ...write,
      failureCode: 'error_create_prescription',
      summary:
        'Write a prescription; 409 medication_not_prescribable when a line names a medicine that is not approved and active',
    },
    update: {
      ...write,
      failureCode: 'error_update_prescription',
      summary: 'Edit a prescription; 409 version_conflict (with the current values) when the version is stale',
    },
    remove: {
      ...write,
      failureCode: 'error_delete_prescription',
      summary: 'Delete a prescription: hidden from now on; the record and its audit are kept',
    },
    changes: { ...read, summary: "The prescription's history of changes (audit events), newest first" },
  });

  // Rendered after the read's transaction: a PDF takes a while and holds no row.
  route.serve(
    extras.prescriptionPdf,
    {
      ...read,
      summary:
        "The printable prescription (PDF) in the patient's language: clinic, patient, medicines, professional, signature line, verification code",
      transaction: false,
    },
    async ({ actor, params, reply }) => {
      const printable = await app.db.withTenant(actor.accountId, (tx) =>
        prescriptionsService.printable({ ctx: { ...actor, tx }, ...params }),
      );
      return sendPdf(reply, await prescriptionPdf(printable));
    },
  );
};
