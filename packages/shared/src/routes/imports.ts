import { apiRoute } from '../api-route.ts';
import {
  importCheckBodySchema,
  importListQuerySchema,
  importParamsSchema,
  importPreviewAnswerSchema,
  importPreviewQuerySchema,
  importRowsPageSchema,
  importRowsQuerySchema,
  importRunAnswerSchema,
  importRunsPageSchema,
  importTemplateParamsSchema,
} from '../schemas/imports.ts';

/**
 * /api/imports (issue 42): upload a file (multipart: `file`, `kind`, `source`), preview it in an
 * encoding, check it (a dry run in the background), import it (idempotent), read its rows'
 * outcomes, download the refused rows and the templates.
 */
export const importRoutes = {
  list: apiRoute({ method: 'GET', path: '/imports', query: importListQuerySchema, answer: importRunsPageSchema }),
  /** Multipart: parts `kind`, `source` and `file` (in that order). */
  upload: apiRoute({ method: 'POST', path: '/imports', answer: importPreviewAnswerSchema, status: 201 }),
  template: apiRoute({
    method: 'GET',
    path: '/import-templates/:kind',
    params: importTemplateParamsSchema,
    produces: ['text/csv'],
  }),
  get: apiRoute({
    method: 'GET',
    path: '/imports/:importId',
    params: importParamsSchema,
    answer: importRunAnswerSchema,
  }),
  preview: apiRoute({
    method: 'GET',
    path: '/imports/:importId/preview',
    params: importParamsSchema,
    query: importPreviewQuerySchema,
    answer: importPreviewAnswerSchema,
  }),
  check: apiRoute({
    method: 'POST',
    path: '/imports/:importId/check',
    params: importParamsSchema,
    body: importCheckBodySchema,
    answer: importRunAnswerSchema,
  }),
  run: apiRoute({
    method: 'POST',
    path: '/imports/:importId/run',
    params: importParamsSchema,
    answer: importRunAnswerSchema,
    idempotent: 'imports.run',
  }),
  rows: apiRoute({
    method: 'GET',
    path: '/imports/:importId/rows',
    params: importParamsSchema,
    query: importRowsQuerySchema,
    answer: importRowsPageSchema,
  }),
  refused: apiRoute({
    method: 'GET',
    path: '/imports/:importId/refused.csv',
    params: importParamsSchema,
    produces: ['text/csv'],
  }),
};
