import { apiRoute } from '../api-route.ts';
import {
  clinicExportAnswerSchema,
  clinicExportPageSchema,
  clinicExportParamsSchema,
  clinicExportQuerySchema,
} from '../schemas/clinic-export.ts';

/** The clinic's full export (issue 42): /api/clinic-exports. */
export const clinicExportRoutes = {
  list: apiRoute({
    method: 'GET',
    path: '/clinic-exports',
    query: clinicExportQuerySchema,
    answer: clinicExportPageSchema,
  }),
  create: apiRoute({
    method: 'POST',
    path: '/clinic-exports',
    answer: clinicExportAnswerSchema,
    status: 201,
    idempotent: 'clinic-exports.create',
  }),
  get: apiRoute({
    method: 'GET',
    path: '/clinic-exports/:exportId',
    params: clinicExportParamsSchema,
    answer: clinicExportAnswerSchema,
  }),
  file: apiRoute({
    method: 'GET',
    path: '/clinic-exports/:exportId/file',
    params: clinicExportParamsSchema,
    produces: ['application/zip'],
  }),
};
