import {
  reportCatalogueSchema,
  reportExportAnswerSchema,
  reportExportBodySchema,
  reportExportParamsSchema,
  reportPageSchema,
  reportParamsSchema,
  reportQuerySchema,
} from '@odontia/shared/schemas/reports';
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

  route.get(
    '/reports',
    {
      ...read,
      summary: 'The catalogue of reports: each one with its filters, columns and export formats',
      answer: reportCatalogueSchema,
    },
    async () => ({ data: catalogue() }),
  );

  route.get(
    '/reports/:reportId',
    {
      ...read,
      summary:
        "One page of a report's rows for a period with the totals of every row of the period; with `format` the whole report as CSV (UTF-8 with BOM, ';'), XLSX or PDF (409 report_export_too_large above 5,000 rows: export it as a job)",
      params: reportParamsSchema,
      querystring: reportQuerySchema,
      answer: reportPageSchema,
      // A second of lag is fine: with a read replica it reads there (plugins/routes.ts).
      replica: true,
      produces: [
        'application/json',
        'text/csv',
        'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        'application/pdf',
      ],
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

  route.post(
    '/reports/:reportId/exports',
    {
      ...exporting,
      summary:
        'Export a whole report in the background (a job writes it in chunks and moves its progress); 409 report_export_too_large for a PDF of more than 20,000 rows',
      params: reportParamsSchema,
      body: reportExportBodySchema,
      answer: reportExportAnswerSchema,
      status: 201,
      allowReadOnly: true,
    },
    ({ ctx, params, body }) => service.queueExport({ ctx, reportId: params.reportId, body }),
  );

  route.get(
    '/reports/exports/:exportId',
    {
      ...exporting,
      summary: "An export's state and progress (0–100); another clinic's id answers 404",
      params: reportExportParamsSchema,
      answer: reportExportAnswerSchema,
    },
    ({ ctx, params }) => service.getExport({ ctx, exportId: params.exportId }),
  );

  route.get(
    '/reports/exports/:exportId/file',
    {
      ...exporting,
      summary:
        "A finished export's file; 409 report_export_not_ready while its job runs or when it failed, 410 report_export_expired once removed after REPORT_EXPORT_KEEP_DAYS",
      params: reportExportParamsSchema,
      produces: ['text/csv', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'application/pdf'],
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
