import {
  maxFilesPerUpload,
  patientFileContentQuerySchema,
  patientFileDeletedResponseSchema,
  patientFileResponseSchema,
  patientFilesPageSchema,
  patientFilesQuerySchema,
  patientFilesUploadedResponseSchema,
  type UploadLimits,
  updatePatientFileRequestSchema,
  uploadLimitsSchema,
} from '@odontia/shared/schemas/files';
import {
  patientParamsSchema,
  patientRecordParamsSchema,
  recordChangesPageSchema,
  recordChangesQuerySchema,
} from '@odontia/shared/schemas/records';
import contentDisposition from 'content-disposition';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { AppError } from '../../lib/app-error.ts';
import { multipartBodies, multipartParts } from '../../plugins/multipart.ts';
import { routes } from '../../plugins/routes.ts';
import type { FilesService } from './files.service.ts';

const base = '/patients/:patientId/files';
const one = `${base}/:id`;

/** The plain-ASCII `filename=` for old clients (accents dropped); `filename*=` keeps the real name. */
export function asciiFallback(name: string): string {
  return name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]/g, '_')
    .replace(/["\\]/g, '_');
}

/**
 * A stored file is the user's content, not the app's: the detected type only (never sniffed), no
 * script or plugin even if opened directly (a sandboxed, empty CSP), cached by this browser only.
 */
function sendStored(
  reply: FastifyReply,
  file: { stream: NodeJS.ReadableStream; mimeType: string; sizeBytes: number | null; originalName: string },
  disposition: 'inline' | 'attachment',
) {
  reply
    .type(file.mimeType)
    .header(
      'content-disposition',
      contentDisposition(file.originalName, { type: disposition, fallback: asciiFallback(file.originalName) }),
    )
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox")
    .header('cache-control', 'private, max-age=3600');
  if (file.sizeBytes !== null) reply.header('content-length', String(file.sizeBytes));
  return reply.send(file.stream);
}

/**
 * /api/patients/:patientId/files (issue 6). A deleted patient or another clinic's answers 404
 * patient_not_found; a file of another patient or clinic, or a deleted one, 404 file_not_found.
 * Only these routes accept multipart bodies.
 */
export const filesRoutes: FastifyPluginAsync<{
  service: FilesService;
  maxFileBytes: number;
  limits: UploadLimits;
}> = async (app, { service, maxFileBytes, limits }) => {
  await app.register(multipartBodies, {
    limits: {
      fileSize: maxFileBytes + 1,
      files: maxFilesPerUpload,
      fields: 10,
      fieldSize: 256 * 1024,
      parts: maxFilesPerUpload + 10,
    },
  });
  const route = routes(app, { tags: ['medical history'] });
  const read = { permission: 'patients.read' } as const;
  const write = { permission: 'clinical.write' } as const;
  const download = { ...read, failureCode: 'error_download_file' } as const;
  const params = patientRecordParamsSchema;

  route.get(
    '/files/limits',
    {
      ...read,
      summary: 'The upload limits (UPLOAD_MAX_MB a file, UPLOAD_TOTAL_MAX_MB an upload) and the accepted types',
      answer: uploadLimitsSchema,
      // Configuration, not the clinic's data: no transaction.
      transaction: false,
    },
    async () => limits,
  );

  route.get(
    base,
    {
      ...read,
      summary: "A patient's files and exams, newest upload first; ?fileType= keeps one type",
      params: patientParamsSchema,
      querystring: patientFilesQuerySchema,
      answer: patientFilesPageSchema,
    },
    ({ ctx, params, query }) => service.list({ ctx, ...params, query }),
  );

  route.post(
    base,
    {
      ...write,
      summary:
        'Upload one or several files (multipart: parts `files`, and `metadata`, a JSON array with one {fileType, note, takenOn, attendanceId} per file in their order). JPEG, PNG, WebP (with a thumbnail) or PDF, detected from the content (415 file_type_not_allowed); 413 file_too_large names the file over UPLOAD_MAX_MB, 413 files_too_large a batch over UPLOAD_TOTAL_MAX_MB; 400 invalid_multipart_body for a body without a valid boundary, malformed or cut short; a body idle for BODY_IDLE_TIMEOUT_SECONDS closes the connection: nothing is stored then',
      consumes: ['multipart/form-data'],
      params: patientParamsSchema,
      answer: patientFilesUploadedResponseSchema,
      status: 201,
      // The bytes are streamed to the storage first; the service records them in its own transaction.
      transaction: false,
    },
    async ({ actor, params, request }) => {
      if (!request.isMultipart()) throw new AppError('unsupported_media_type');
      const data = await service.upload({ actor, ...params, parts: () => multipartParts(request) });
      return { data, code: 'files_uploaded' as const };
    },
  );

  route.get(
    one,
    { ...read, summary: "One file's metadata", params, answer: patientFileResponseSchema },
    async ({ ctx, params }) => ({ data: await service.get({ ctx, ...params }) }),
  );

  route.get(
    `${one}/content`,
    {
      ...download,
      summary: 'The file itself, inline (images, PDF) or as an attachment with ?download=1',
      params,
      querystring: patientFileContentQuerySchema,
    },
    async ({ ctx, params, query, reply }) => {
      const file = await service.content({ ctx, ...params, which: 'original' });
      const attachment = query.download === '1' || query.download === 'true';
      return sendStored(reply, file, attachment ? 'attachment' : 'inline');
    },
  );

  route.get(
    `${one}/thumbnail`,
    {
      ...download,
      summary: "An image's thumbnail (JPEG, 320 px at most); 404 file_not_found for a PDF",
      params,
    },
    async ({ ctx, params, reply }) =>
      sendStored(reply, await service.content({ ctx, ...params, which: 'thumbnail' }), 'inline'),
  );

  route.patch(
    one,
    {
      ...write,
      summary: "Change a file's type, note or date; 409 version_conflict (with the current values) when stale",
      params,
      body: updatePatientFileRequestSchema,
      answer: patientFileResponseSchema,
    },
    async ({ ctx, params, body }) => ({
      data: await service.update({ ctx, ...params, input: body }),
      code: 'file_updated' as const,
    }),
  );

  route.delete(
    one,
    {
      ...write,
      summary: 'Delete a file: hidden from now on; its bytes, record and audit are kept',
      params,
      answer: patientFileDeletedResponseSchema,
    },
    async ({ ctx, params }) => {
      await service.remove({ ctx, ...params });
      return { code: 'file_deleted' as const };
    },
  );

  route.get(
    `${one}/changes`,
    {
      ...read,
      summary: "The file's history of changes (audit events), newest first",
      params,
      querystring: recordChangesQuerySchema,
      answer: recordChangesPageSchema,
    },
    ({ ctx, params, query }) => service.changes({ ctx, ...params, query }),
  );
};
