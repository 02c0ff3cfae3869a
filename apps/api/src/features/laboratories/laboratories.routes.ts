import { clinicalRecordExtras as extras, laboratoryRecord } from '@odontia/shared/routes/medical-history';
import type { FastifyPluginAsync } from 'fastify';
import { medicalRecordRoutes, servePrintout } from '../clinical/medical-record-routes.ts';
import { laboratoriesService, laboratoryOrderPdf } from './laboratories.service.ts';

/**
 * /api/patients/:patientId/laboratories (issue 5). A deleted patient or another clinic's answers
 * 404 patient_not_found; a laboratory of another patient or clinic, 404 laboratory_not_found.
 */
export const laboratoriesRoutes: FastifyPluginAsync = async (app) => {
  const { route, read } = medicalRecordRoutes(app, {
    declared: laboratoryRecord,
    service: laboratoriesService,
    summaries: {
      list: "A patient's laboratory orders, newest order first",
      get: 'One laboratory order and its result',
      create: 'Add a laboratory order',
      update:
        'Edit a laboratory order or record its result; 409 version_conflict (with the current values) when the version is stale',
      remove: 'Delete a laboratory order: hidden from now on; the record and its audit are kept',
      changes: "The laboratory's history of changes (audit events), newest first",
    },
  });

  servePrintout(
    app,
    route,
    extras.laboratoryOrderPdf,
    {
      ...read,
      summary: 'The printable order (PDF): clinic header, patient, professional, studies, instructions, signature line',
    },
    { printable: laboratoriesService.printable, render: laboratoryOrderPdf },
  );
};
