import { clinicalRecordExtras as extras, laboratoryRecord } from '@odontia/shared/routes/medical-history';
import type { FastifyPluginAsync } from 'fastify';
import { sendPdf } from '../../lib/pdf.ts';
import { recordRoutes } from '../../plugins/record-routes.ts';
import { routes } from '../../plugins/routes.ts';
import { laboratoriesService, laboratoryOrderPdf } from './laboratories.service.ts';

/**
 * /api/patients/:patientId/laboratories (issue 5). A deleted patient or another clinic's answers
 * 404 patient_not_found; a laboratory of another patient or clinic, 404 laboratory_not_found.
 */
export const laboratoriesRoutes: FastifyPluginAsync = async (app) => {
  const read = { permission: 'patients.read', failureCode: 'error_get_laboratory' } as const;
  const write = { permission: 'clinical.write' } as const;
  const route = routes(app, { tags: ['medical history'] });
  recordRoutes(route, {
    declared: laboratoryRecord,
    service: laboratoriesService,
    list: { ...read, summary: "A patient's laboratory orders, newest order first" },
    get: { ...read, summary: 'One laboratory order and its result' },
    create: { ...write, failureCode: 'error_create_laboratory', summary: 'Add a laboratory order' },
    update: {
      ...write,
      failureCode: 'error_update_laboratory',
      summary:
        'Edit a laboratory order or record its result; 409 version_conflict (with the current values) when the version is stale',
    },
    remove: {
      ...write,
      failureCode: 'error_delete_laboratory',
      summary: 'Delete a laboratory order: hidden from now on; the record and its audit are kept',
    },
    changes: { ...read, summary: "The laboratory's history of changes (audit events), newest first" },
  });

  // Rendered after the read's transaction: a PDF takes a while and holds no row.
  route.serve(
    extras.laboratoryOrderPdf,
    {
      ...read,
      summary: 'The printable order (PDF): clinic header, patient, professional, studies, instructions, signature line',
      transaction: false,
    },
    async ({ actor, params, reply }) => {
      const printable = await app.db.withTenant(actor.accountId, (tx) =>
        laboratoriesService.printable({ ctx: { ...actor, tx }, ...params }),
      );
      return sendPdf(reply, await laboratoryOrderPdf(printable));
    },
  );
};
