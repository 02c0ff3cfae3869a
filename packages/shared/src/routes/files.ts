import { z } from 'zod';
import { apiRoute } from '../api-route.ts';
import {
  allowedFileMimeTypes,
  patientFileContentQuerySchema,
  patientFileDeletedResponseSchema,
  patientFileResponseSchema,
  patientFileSchema,
  patientFilesPageSchema,
  patientFilesQuerySchema,
  patientFilesUploadedResponseSchema,
  recordFileParamsSchema,
  recordFileRemovedResponseSchema,
  recordFilesQuerySchema,
  updatePatientFileRequestSchema,
  uploadLimitsSchema,
} from '../schemas/files.ts';
import { laboratoryContracts } from '../schemas/laboratories.ts';
import {
  patientParamsSchema,
  patientRecordParamsSchema,
  recordChangesPageSchema,
  recordChangesQuerySchema,
} from '../schemas/records.ts';

/**
 * A patient's files and exams (issue 6): /api/patients/:patientId/files. An upload is a multipart
 * body: the web sends it with `http.upload` (with its progress) to the declared path, and the
 * declaration carries no JSON body.
 */
const one = '/patients/:patientId/files/:id';

export const fileRoutes = {
  limits: apiRoute({ method: 'GET', path: '/files/limits', answer: uploadLimitsSchema }),
  list: apiRoute({
    method: 'GET',
    path: '/patients/:patientId/files',
    params: patientParamsSchema,
    query: patientFilesQuerySchema,
    answer: patientFilesPageSchema,
  }),
  /** Multipart: parts `files` and `metadata`. */
  upload: apiRoute({
    method: 'POST',
    path: '/patients/:patientId/files',
    params: patientParamsSchema,
    answer: patientFilesUploadedResponseSchema,
    status: 201,
  }),
  get: apiRoute({ method: 'GET', path: one, params: patientRecordParamsSchema, answer: patientFileResponseSchema }),
  content: apiRoute({
    method: 'GET',
    path: `${one}/content`,
    params: patientRecordParamsSchema,
    query: patientFileContentQuerySchema,
    produces: allowedFileMimeTypes,
  }),
  thumbnail: apiRoute({
    method: 'GET',
    path: `${one}/thumbnail`,
    params: patientRecordParamsSchema,
    produces: ['image/jpeg'],
  }),
  update: apiRoute({
    method: 'PATCH',
    path: one,
    params: patientRecordParamsSchema,
    body: updatePatientFileRequestSchema,
    answer: patientFileResponseSchema,
  }),
  remove: apiRoute({
    method: 'DELETE',
    path: one,
    params: patientRecordParamsSchema,
    answer: patientFileDeletedResponseSchema,
  }),
  changes: apiRoute({
    method: 'GET',
    path: `${one}/changes`,
    params: patientRecordParamsSchema,
    query: recordChangesQuerySchema,
    answer: recordChangesPageSchema,
  }),
  /** Multipart: parts `files` and `metadata` as an upload, and `result`. */
  receiveLaboratoryResult: apiRoute({
    method: 'POST',
    path: '/patients/:patientId/laboratories/:id/result',
    params: patientRecordParamsSchema,
    answer: z.object({
      data: z.object({ laboratory: laboratoryContracts.one.shape.data, files: z.array(patientFileSchema) }),
      code: z.literal('laboratory_updated'),
    }),
  }),
};

/**
 * The files of a diagnosis or a laboratory order (issue 24), under the record's own path: list,
 * upload (multipart, attached), remove from the record (`…/link`) and delete (soft).
 */
function recordFileRoutes(
  path: '/patients/:patientId/diagnoses/:id/files' | '/patients/:patientId/laboratories/:id/files',
) {
  return {
    list: apiRoute({
      method: 'GET',
      path,
      params: patientRecordParamsSchema,
      query: recordFilesQuerySchema,
      answer: patientFilesPageSchema,
    }),
    /** Multipart: the patient's upload, attached to the record. */
    upload: apiRoute({
      method: 'POST',
      path,
      params: patientRecordParamsSchema,
      answer: patientFilesUploadedResponseSchema,
      status: 201,
    }),
    unlink: apiRoute({
      method: 'DELETE',
      path: `${path}/:fileId/link`,
      params: recordFileParamsSchema,
      answer: recordFileRemovedResponseSchema,
    }),
    remove: apiRoute({
      method: 'DELETE',
      path: `${path}/:fileId`,
      params: recordFileParamsSchema,
      answer: patientFileDeletedResponseSchema,
    }),
  };
}

export const diagnosisFileRoutes = recordFileRoutes('/patients/:patientId/diagnoses/:id/files');
export const laboratoryFileRoutes = recordFileRoutes('/patients/:patientId/laboratories/:id/files');
