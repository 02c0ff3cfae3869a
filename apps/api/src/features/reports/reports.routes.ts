import { reportRoutes as declared } from '@odontia/shared/routes/reports';
import type { FastifyPluginAsync } from 'fastify';
import type { FileStorage } from '../../lib/file-storage.ts';
import { inTransaction, routes } from '../../plugins/routes.ts';
import { catalogue, reportsService as service } from './reports.service.ts';

/** /api/reports (issue 19): read-only, reports.read; exports may be asked by a read-only clinic. */
export const reportsRoutes: FastifyPluginAsync<{
  storage: FileStorage;
  directMaxRows: number;
  keepDays: number;
}> = async (app, { storage, directMaxRows, keepDays }) => {
  const route = routes(app, { tags: ['reports'] });
  const read = { permission: 'reports.read', failureCode: 'error_get_report' } as const;
  const exporting = { permission: 'reports.read', failureCode: 'error_export_report' } as const;

  route.serve(
    declared.catalogue,
    { ...read, summary: 'The catalogue of reports: each one with its filters, columns and export formats' },
    async () => ({ data: catalogue() }),
  );

  // `declared.file` is this same route as the web's client asks it with `format`.
  route.serve(
    declared.page,
    {
      ...read,
      summary:
        "One page of a report's rows for a period with the totals of every row of the period; with `format` the whole report as CSV (UTF-8 with BOM, ';'), XLSX or PDF (409 report_export_too_large above 5,000 rows: export it as a job)",
      // A second of lag is fine: with a read replica it reads there (plugins/routes.ts).
      replica: true,
    },
    async ({ ctx, params, query, reply }) => {
      if (!query.format) return service.page({ ctx, reportId: params.reportId, query });
      const file = await service.file({ ctx, reportId: params.reportId, query, format: query.format, directMaxRows });
      return reply
        .type(file.contentType)
        .header('content-disposition', `attachment; filename="${file.fileName}"`)
        .header('cache-control', 'no-store')
        .send(file.bytes);
    },
  );

  route.serve(
    declared.queueExport,
    {
      ...exporting,
      summary:
        'Export a whole report in the background (a job writes it in chunks and moves its progress); 409 report_export_too_large for a PDF of more than 20,000 rows',
      allowReadOnly: true,
    },
    ({ ctx, params, body }) => service.queueExport({ ctx, reportId: params.reportId, body }),
  );

  route.serve(
    declared.export,
    { ...exporting, summary: "An export's state and progress (0–100); another clinic's id answers 404" },
    ({ ctx, params }) => service.getExport({ ctx, exportId: params.exportId }),
  );

  route.serve(
    declared.exportFile,
    {
      ...exporting,
      summary:
        "A finished export's file; 409 report_export_not_ready while its job runs or when it failed, 410 report_export_expired once removed after REPORT_EXPORT_KEEP_DAYS",
      transaction: false,
    },
    async ({ actor, params, reply }) => {
      const file = await inTransaction(app.db, actor, (ctx) =>
        service.exportFile({ ctx, exportId: params.exportId, keepDays }),
      );
      return reply
        .type(file.contentType)
        .header('content-disposition', `attachment; filename="${file.fileName}"`)
        .header('cache-control', 'no-store')
        .send(await storage.open(file.storageKey));
    },
  );
};
