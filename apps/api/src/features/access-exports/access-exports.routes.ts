import { accessExportRoutes as declared, portalAccessExportRoutes as portal } from '@odontia/shared/routes/fhir';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { FileStorage } from '../../lib/file-storage.ts';
import { inTransaction, routes } from '../../plugins/routes.ts';
import { portalPatientOf } from '../portal/portal.service.ts';
import { accessExportsService as service } from './access-exports.service.ts';

/**
 * The right of access (issue 42): the staff ask for a patient's ZIP from the patient's page
 * (`patients.export`); the patient asks for their own in the portal (`portal.use`), where another
 * patient's archive is 404 (the query names the session's patient, and row-level security again).
 */
export const accessExportsRoutes: FastifyPluginAsync<{ storage: FileStorage; keepDays: number }> = async (
  app,
  { storage, keepDays },
) => {
  const route = routes(app, { tags: ['right of access'] });
  const staff = { permission: 'patients.export', failureCode: 'error_export_access' } as const;
  const own = { permission: 'portal.use', failureCode: 'error_export_access' } as const;
  const send = async (reply: FastifyReply, file: { storageKey: string; fileName: string }) =>
    reply
      .type('application/zip')
      .header('content-disposition', `attachment; filename="${file.fileName}"`)
      .header('cache-control', 'no-store')
      .send(await storage.open(file.storageKey));

  route.serve(
    declared.queue,
    {
      ...staff,
      summary:
        "Ask for the patient's whole record as a ZIP (PDF summary, FHIR bundle, money CSV, files, manifest with SHA-256): a job writes it; audited",
    },
    ({ ctx, params }) => service.queue({ ctx, patientId: params.patientId, via: 'staff' }),
  );
  route.serve(
    declared.latest,
    { ...staff, summary: "The patient's latest archive (null before the first), so the page shows it after a reload" },
    ({ ctx, params }) => service.latest({ ctx, patientId: params.patientId }),
  );
  route.serve(
    declared.get,
    { ...staff, summary: "The archive's state and progress (0–100); another clinic's or patient's id answers 404" },
    ({ ctx, params }) => service.get({ ctx, ...params }),
  );
  route.serve(
    declared.file,
    {
      ...staff,
      summary:
        'The finished ZIP (409 access_export_not_ready while its job runs, 410 access_export_expired once removed); each download audited',
      transaction: false,
    },
    async ({ actor, params, reply }) =>
      send(reply, await inTransaction(app.db, actor, (ctx) => service.file({ ctx, ...params, keepDays }))),
  );

  route.serve(
    portal.queue,
    { ...own, summary: 'The patient asks for their own record as a ZIP (the right of access); audited' },
    ({ ctx }) => service.queue({ ctx, patientId: portalPatientOf(ctx), via: 'portal' }),
  );
  route.serve(
    portal.latest,
    { ...own, summary: "The patient's own latest archive (null before the first)" },
    ({ ctx }) => service.latest({ ctx, patientId: portalPatientOf(ctx) }),
  );
  route.serve(
    portal.get,
    { ...own, summary: "The patient's own archive: state and progress; another patient's id answers 404" },
    ({ ctx, params }) => service.get({ ctx, patientId: portalPatientOf(ctx), exportId: params.exportId }),
  );
  route.serve(
    portal.file,
    { ...own, summary: "The patient's own finished ZIP; each download audited", transaction: false },
    async ({ actor, params, reply }) =>
      send(
        reply,
        await inTransaction(app.db, actor, (ctx) =>
          service.file({ ctx, patientId: portalPatientOf(ctx), exportId: params.exportId, keepDays }),
        ),
      ),
  );
};
