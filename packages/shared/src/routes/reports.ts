import { apiRoute } from '../api-route.ts';
import {
  reportCatalogueSchema,
  reportExportAnswerSchema,
  reportExportBodySchema,
  reportExportParamsSchema,
  reportPageSchema,
  reportParamsSchema,
  reportQuerySchema,
} from '../schemas/reports.ts';

const spreadsheet = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** /api/reports (issue 19): the catalogue, a report's page or its file, its background exports. */
export const reportRoutes = {
  catalogue: apiRoute({ method: 'GET', path: '/reports', answer: reportCatalogueSchema }),
  /** A page of rows as JSON; with `format`, the whole report as a file (`file` below). */
  page: apiRoute({
    method: 'GET',
    path: '/reports/:reportId',
    params: reportParamsSchema,
    query: reportQuerySchema,
    answer: reportPageSchema,
    produces: ['application/json', 'text/csv', spreadsheet, 'application/pdf'],
  }),
  /** The same route as `page`, asked with `format`: the web's client then takes the file. */
  file: apiRoute({
    method: 'GET',
    path: '/reports/:reportId',
    params: reportParamsSchema,
    query: reportQuerySchema,
    produces: ['text/csv', spreadsheet, 'application/pdf'],
  }),
  queueExport: apiRoute({
    method: 'POST',
    path: '/reports/:reportId/exports',
    params: reportParamsSchema,
    body: reportExportBodySchema,
    answer: reportExportAnswerSchema,
    status: 201,
  }),
  export: apiRoute({
    method: 'GET',
    path: '/reports/exports/:exportId',
    params: reportExportParamsSchema,
    answer: reportExportAnswerSchema,
  }),
  exportFile: apiRoute({
    method: 'GET',
    path: '/reports/exports/:exportId/file',
    params: reportExportParamsSchema,
    produces: ['text/csv', spreadsheet, 'application/pdf'],
  }),
};
