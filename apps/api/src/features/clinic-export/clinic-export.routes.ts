import { clinicExportRoutes as declared } from '@odontia/shared/routes/clinic-export';
import type { FastifyPluginAsync } from 'fastify';
import type { FileStorage } from '../../lib/file-storage.ts';
import { inTransaction, routes } from '../../plugins/routes.ts';
import type { createClinicExportService } from './clinic-export.service.ts';

/**
 * /api/clinic-exports (issue 42): the clinic's full export, clinic.export (administrators). A
 * read-only clinic may still ask for it: it is how a clinic leaves. Another clinic's id answers 404.
 */
export const clinicExportRoutes: FastifyPluginAsync<{
  service: ReturnType<typeof createClinicExportService>;
  storage: FileStorage;
}> = async (app, { service, storage }) => {
  const route = routes(app, { tags: ['clinic export'] });
  const read = { permission: 'clinic.export', failureCode: 'error_get_clinic_export' } as const;

  route.serve(
    declared.list,
    { ...read, summary: "The clinic's full exports, newest first, with their state and progress" },
    ({ ctx, query }) => service.list({ ctx, query }),
  );
  route.serve(
    declared.create,
    {
      permission: 'clinic.export',
      failureCode: 'error_create_clinic_export',
      allowReadOnly: true,
      summary:
        'Export everything the clinic owns (every table as JSON lines, the uploaded files, a data dictionary and a manifest of SHA-256s) as one ZIP written by a job; 409 clinic_export_running while another one runs',
    },
    ({ ctx }) => service.create({ ctx }),
  );
  route.serve(
    declared.get,
    { ...read, summary: "An export's state and progress (0–100); poll it with x-background: 1" },
    ({ ctx, params }) => service.get({ ctx, exportId: params.exportId }),
  );
  route.serve(
    declared.file,
    {
      ...read,
      summary:
        "A finished export's ZIP; 409 clinic_export_not_ready while its job runs or when it failed, 410 clinic_export_expired once removed",
      transaction: false,
    },
    async ({ actor, params, reply }) => {
      const file = await inTransaction(app.db, actor, (ctx) => service.file({ ctx, exportId: params.exportId }));
      return reply
        .type('application/zip')
        .header('content-disposition', `attachment; filename="${file.fileName}"`)
        .header('cache-control', 'no-store')
        .send(await storage.open(file.storageKey));
    },
  );
};
