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
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../lib/app-error.ts';
import { sessionOf } from '../../plugins/auth.ts';
import { multipartBodies, multipartParts } from '../../plugins/multipart.ts';
import type { FilesService } from './files.service.ts';

const tags = ['medical history'];
const security = [{ bearerAuth: [] }];
const base = '/patients/:patientId/files';

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
export const filesRoutes: FastifyPluginAsyncZod<{
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

  app.get(
    '/files/limits',
    {
      config: { permission: 'patients.read' },
      schema: {
        tags,
        security,
        summary: 'The upload limits (UPLOAD_MAX_MB a file, UPLOAD_TOTAL_MAX_MB an upload) and the accepted types',
        response: { 200: uploadLimitsSchema },
      },
    },
    async () => limits,
  );

  app.get(
    base,
    {
      config: { permission: 'patients.read' },
      schema: {
        tags,
        security,
        summary: "A patient's files and exams, newest upload first; ?fileType= keeps one type",
        params: patientParamsSchema,
        querystring: patientFilesQuerySchema,
        response: { 200: patientFilesPageSchema },
      },
    },
    async (request) => service.list(sessionOf(request), request.params.patientId, request.query),
  );

  app.post(
    base,
    {
      config: { permission: 'clinical.write' },
      schema: {
        tags,
        security,
        summary:
          'Upload one or several files (multipart: parts `files`, and `metadata`, a JSON array with one {fileType, note, takenOn, attendanceId} per file in their order). JPEG, PNG, WebP (with a thumbnail) or PDF, detected from the content (415 file_type_not_allowed); 413 file_too_large names the file over UPLOAD_MAX_MB, 413 files_too_large a batch over UPLOAD_TOTAL_MAX_MB; 400 invalid_multipart_body for a body without a valid boundary, malformed or cut short; a body idle for BODY_IDLE_TIMEOUT_SECONDS closes the connection: nothing is stored then',
        consumes: ['multipart/form-data'],
        params: patientParamsSchema,
        response: { 201: patientFilesUploadedResponseSchema },
      },
    },
    async (request, reply) => {
      if (!request.isMultipart()) throw new AppError('unsupported_media_type');
      const data = await service.upload(
        sessionOf(request),
        request.params.patientId,
        () => multipartParts(request),
        request.ip,
      );
      return reply.status(201).send({ data, code: 'files_uploaded' as const });
    },
  );

  app.get(
    `${base}/:id`,
    {
      config: { permission: 'patients.read' },
      schema: {
        tags,
        security,
        summary: "One file's metadata",
        params: patientRecordParamsSchema,
        response: { 200: patientFileResponseSchema },
      },
    },
    async (request) => ({
      data: await service.get(sessionOf(request), request.params.patientId, request.params.id),
    }),
  );

  app.get(
    `${base}/:id/content`,
    {
      config: { permission: 'patients.read', failureCode: 'error_download_file' },
      schema: {
        tags,
        security,
        summary: 'The file itself, inline (images, PDF) or as an attachment with ?download=1',
        params: patientRecordParamsSchema,
        querystring: patientFileContentQuerySchema,
      },
    },
    async (request, reply) => {
      const file = await service.content(sessionOf(request), request.params.patientId, request.params.id, 'original');
      const download = request.query.download === '1' || request.query.download === 'true';
      return sendStored(reply, file, download ? 'attachment' : 'inline');
    },
  );

  app.get(
    `${base}/:id/thumbnail`,
    {
      config: { permission: 'patients.read', failureCode: 'error_download_file' },
      schema: {
        tags,
        security,
        summary: "An image's thumbnail (JPEG, 320 px at most); 404 file_not_found for a PDF",
        params: patientRecordParamsSchema,
      },
    },
    async (request, reply) => {
      const file = await service.content(sessionOf(request), request.params.patientId, request.params.id, 'thumbnail');
      return sendStored(reply, file, 'inline');
    },
  );

  app.patch(
    `${base}/:id`,
    {
      config: { permission: 'clinical.write' },
      schema: {
        tags,
        security,
        summary: "Change a file's type, note or date; 409 version_conflict (with the current values) when stale",
        params: patientRecordParamsSchema,
        body: updatePatientFileRequestSchema,
        response: { 200: patientFileResponseSchema },
      },
    },
    async (request) => ({
      data: await service.update(
        sessionOf(request),
        request.params.patientId,
        request.params.id,
        request.body,
        request.ip,
      ),
      code: 'file_updated' as const,
    }),
  );

  app.delete(
    `${base}/:id`,
    {
      config: { permission: 'clinical.write' },
      schema: {
        tags,
        security,
        summary: 'Delete a file: hidden from now on; its bytes, record and audit are kept',
        params: patientRecordParamsSchema,
        response: { 200: patientFileDeletedResponseSchema },
      },
    },
    async (request) => {
      await service.remove(sessionOf(request), request.params.patientId, request.params.id, request.ip);
      return { code: 'file_deleted' as const };
    },
  );

  app.get(
    `${base}/:id/changes`,
    {
      config: { permission: 'patients.read' },
      schema: {
        tags,
        security,
        summary: "The file's history of changes (audit events), newest first",
        params: patientRecordParamsSchema,
        querystring: recordChangesQuerySchema,
        response: { 200: recordChangesPageSchema },
      },
    },
    async (request) => service.changes(sessionOf(request), request.params.patientId, request.params.id, request.query),
  );
};
