import { importRoutes as declared } from '@odontia/shared/routes/imports';
import { importMaxBytes } from '@odontia/shared/schemas/imports';
import type { FastifyPluginAsync } from 'fastify';
import { AppError } from '../../lib/app-error.ts';
import { sendCsv } from '../../lib/csv.ts';
import { multipartBodies, multipartParts } from '../../plugins/multipart.ts';
import { routes } from '../../plugins/routes.ts';
import type { ImportsService } from './imports.service.ts';

/** /api/imports (issue 42): the administrator's import wizard (data.import). */
export const importsRoutes: FastifyPluginAsync<{ service: ImportsService }> = async (app, { service }) => {
  await app.register(multipartBodies, {
    limits: { fileSize: importMaxBytes + 1, files: 1, fields: 5, fieldSize: 4096, parts: 8 },
  });
  const route = routes(app, { tags: ['imports'] });
  const allowed = { permission: 'data.import', failureCode: 'error_import' } as const;

  route.serve(
    declared.upload,
    {
      ...allowed,
      summary:
        "Upload a CSV (`,` `;` or tab; UTF-8 or Windows-1252, detected) or XLSX (first sheet) to import: multipart parts `kind`, `source` (the other system's name) and `file`. Answers the preview with the suggested mapping (the source's saved one, else the headers' synonyms). 413 import_file_too_large, 422 import_too_many_rows, 400 import_file_unreadable or invalid_multipart_body (a cut-off upload)",
      consumes: ['multipart/form-data'],
      transaction: false,
    },
    async ({ actor, request }) => {
      if (!request.isMultipart()) throw new AppError('unsupported_media_type');
      const data = await service.upload({ actor, parts: () => multipartParts(request) });
      return { data, code: 'import_uploaded' as const };
    },
  );

  route.serve(
    declared.list,
    { ...allowed, summary: "The clinic's imports, newest first (the wizard's history)" },
    ({ ctx, query }) => service.list({ ctx, page: query.page, pageSize: query.pageSize }),
  );

  route.serve(
    declared.template,
    { ...allowed, summary: "A kind's template: CSV with the Spanish headers and an example row" },
    async ({ params, reply }) => sendCsv(reply, service.template(params.kind)),
  );

  route.serve(
    declared.get,
    { ...allowed, summary: "An import's state, progress and counts (polled)" },
    async ({ ctx, params }) => ({
      data: await service.get({ ctx, importId: params.importId }),
    }),
  );

  route.serve(
    declared.preview,
    {
      ...allowed,
      summary:
        "The file's header and first rows read in `encoding` (default: the detected one), with the suggested mapping",
    },
    async ({ ctx, params, query }) => ({
      data: await service.preview({
        ctx,
        importId: params.importId,
        ...(query.encoding ? { encoding: query.encoding } : {}),
      }),
    }),
  );

  route.serve(
    declared.check,
    {
      ...allowed,
      summary:
        'Check the file with an encoding and a mapping (a dry run in the background: nothing is written); 400 import_mapping_invalid, 409 import_wrong_state',
    },
    ({ ctx, params, body }) => service.check({ ctx, importId: params.importId, body }),
  );

  route.serve(
    declared.run,
    {
      ...allowed,
      summary:
        'Import the checked file in the background (Idempotency-Key); the mapping is saved for the source; 409 import_wrong_state before its dry run or once imported',
    },
    ({ ctx, params }) => service.run({ ctx, importId: params.importId }),
  );

  route.serve(
    declared.rows,
    { ...allowed, summary: "The rows' outcomes of the last pass (or `phase`), by line, filtered by `outcome`" },
    ({ ctx, params, query }) => service.rows({ ctx, importId: params.importId, query }),
  );

  route.serve(
    declared.refused,
    {
      ...allowed,
      summary: 'The refused rows of the last pass as CSV: line, reasons (field: code) and the cells as read',
    },
    async ({ ctx, params, reply }) => sendCsv(reply, await service.refusedCsv({ ctx, importId: params.importId })),
  );
};
