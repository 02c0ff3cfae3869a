import { clinicalRoutes } from '@odontia/shared/routes/clinical';
import { clinicalRecordExtras as extras, prescriptionRecord } from '@odontia/shared/routes/medical-history';
import type { FastifyPluginAsync } from 'fastify';
import { medicalRecordRoutes, servePrintout } from '../clinical/medical-record-routes.ts';
import { prescriptionPdf, prescriptionsService } from './prescriptions.service.ts';

/**
 * /api/patients/:patientId/prescriptions and /api/prescriptions/by-code/:code (issue 6). A deleted
 * patient or another clinic's answers 404 patient_not_found; a prescription of another patient or
 * clinic, 404 prescription_not_found.
 */
export const prescriptionsRoutes: FastifyPluginAsync = async (app) => {
  const { route, read } = medicalRecordRoutes(app, {
    declared: prescriptionRecord,
    service: prescriptionsService,
    summaries: {
      list: "A patient's prescriptions, newest first",
      get: 'One prescription and its lines',
      create:
        'Write a prescription; 409 medication_not_prescribable when a line names a medicine that is not approved and active',
      update: 'Edit a prescription; 409 version_conflict (with the current values) when the version is stale',
      remove: 'Delete a prescription: hidden from now on; the record and its audit are kept',
      changes: "The prescription's history of changes (audit events), newest first",
    },
  });

  route.serve(
    clinicalRoutes.prescriptionByCode,
    { ...read, summary: "The clinic's prescription with this verification code (a pharmacy calls to verify it)" },
    async ({ ctx, params }) => ({ data: await prescriptionsService.byCode({ ctx, code: params.code }) }),
  );

  servePrintout(
    app,
    route,
    extras.prescriptionPdf,
    {
      ...read,
      summary:
        "The printable prescription (PDF) in the patient's language: clinic, patient, medicines, professional, signature line, verification code",
    },
    { printable: prescriptionsService.printable, render: prescriptionPdf },
  );
};
