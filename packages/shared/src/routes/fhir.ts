import { apiRoute } from '../api-route.ts';
import {
  accessExportAnswerSchema,
  accessExportParamsSchema,
  fhirBundleBodySchema,
  fhirImportAnswerSchema,
  latestAccessExportAnswerSchema,
  patientAccessExportParamsSchema,
} from '../schemas/fhir.ts';
import { patientParamsSchema } from '../schemas/records.ts';

/**
 * A patient's record in FHIR R4 and the right of access (issue 42): the bundle, its import into
 * another clinic, and the ZIP of the whole record asked by the staff or by the patient in the portal.
 */
export const fhirRoutes = {
  export: apiRoute({
    method: 'GET',
    path: '/patients/:patientId/fhir',
    params: patientParamsSchema,
    produces: ['application/fhir+json'],
  }),
  import: apiRoute({
    method: 'POST',
    path: '/fhir/import',
    body: fhirBundleBodySchema,
    consumes: ['application/json', 'application/fhir+json'],
    answer: fhirImportAnswerSchema,
    status: 201,
    idempotent: 'fhir.import',
  }),
};

export const accessExportRoutes = {
  queue: apiRoute({
    method: 'POST',
    path: '/patients/:patientId/access-exports',
    params: patientParamsSchema,
    answer: accessExportAnswerSchema,
    status: 201,
    idempotent: 'access_exports.create',
  }),
  latest: apiRoute({
    method: 'GET',
    path: '/patients/:patientId/access-exports/latest',
    params: patientParamsSchema,
    answer: latestAccessExportAnswerSchema,
  }),
  get: apiRoute({
    method: 'GET',
    path: '/patients/:patientId/access-exports/:exportId',
    params: patientAccessExportParamsSchema,
    answer: accessExportAnswerSchema,
  }),
  file: apiRoute({
    method: 'GET',
    path: '/patients/:patientId/access-exports/:exportId/file',
    params: patientAccessExportParamsSchema,
    produces: ['application/zip'],
  }),
};

/** The same, asked by the patient for themselves in the portal (`portal.use`). */
export const portalAccessExportRoutes = {
  queue: apiRoute({
    method: 'POST',
    path: '/portal/access-exports',
    answer: accessExportAnswerSchema,
    status: 201,
    idempotent: 'portal.access_exports.create',
  }),
  latest: apiRoute({
    method: 'GET',
    path: '/portal/access-exports/latest',
    answer: latestAccessExportAnswerSchema,
  }),
  get: apiRoute({
    method: 'GET',
    path: '/portal/access-exports/:exportId',
    params: accessExportParamsSchema,
    answer: accessExportAnswerSchema,
  }),
  file: apiRoute({
    method: 'GET',
    path: '/portal/access-exports/:exportId/file',
    params: accessExportParamsSchema,
    produces: ['application/zip'],
  }),
};
