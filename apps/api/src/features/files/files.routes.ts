import { diagnosisFileRoutes, fileRoutes, laboratoryFileRoutes } from '@odontia/shared/routes/files';
import { maxFilesPerUpload, type RecordKind, type UploadLimits } from '@odontia/shared/schemas/files';
import contentDisposition from 'content-disposition';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { AppError } from '../../lib/app-error.ts';
import { multipartBodies, multipartParts } from '../../plugins/multipart.ts';
import { routes } from '../../plugins/routes.ts';
import { findUploadMaxMb } from '../settings/settings.repository.ts';
import type { FilesService } from './files.service.ts';

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

  route.serve(
    fileRoutes.limits,
    {
      ...read,
      summary:
        "The upload limits (a file: the clinic's limit within UPLOAD_MAX_MB; an upload: UPLOAD_TOTAL_MAX_MB) and the accepted types",
    },
    async ({ ctx }) => {
      const clinicMaxMb = await findUploadMaxMb(ctx);
      return {
        ...limits,
        maxFileMb: clinicMaxMb === null ? limits.maxFileMb : Math.min(limits.maxFileMb, clinicMaxMb),
      };
    },
  );

  route.serve(
    fileRoutes.list,
    { ...read, summary: "A patient's files and exams, newest upload first; ?fileType= keeps one type" },
    ({ ctx, params, query }) => service.list({ ctx, ...params, query }),
  );

  route.serve(
    fileRoutes.upload,
    {
      ...write,
      summary:
        'Upload one or several files (multipart: parts `files`, and `metadata`, a JSON array with one {fileType, note, takenOn, attendanceId} per file in their order). JPEG, PNG, WebP (with a thumbnail) or PDF, detected from the content (415 file_type_not_allowed); 413 file_too_large names the file over UPLOAD_MAX_MB, 413 files_too_large a batch over UPLOAD_TOTAL_MAX_MB; 400 invalid_multipart_body for a body without a valid boundary, malformed or cut short; a body idle for BODY_IDLE_TIMEOUT_SECONDS closes the connection: nothing is stored then',
      consumes: ['multipart/form-data'],
      // The bytes are streamed to the storage first; the service records them in its own transaction.
      transaction: false,
    },
    async ({ actor, params, request }) => {
      if (!request.isMultipart()) throw new AppError('unsupported_media_type');
      const data = await service.upload({ actor, ...params, parts: () => multipartParts(request) });
      return { data, code: 'files_uploaded' as const };
    },
  );

  route.serve(fileRoutes.get, { ...read, summary: "One file's metadata" }, async ({ ctx, params }) => ({
    data: await service.get({ ctx, ...params }),
  }));

  route.serve(
    fileRoutes.content,
    { ...download, summary: 'The file itself, inline (images, PDF) or as an attachment with ?download=1' },
    async ({ ctx, params, query, reply }) => {
      const file = await service.content({ ctx, ...params, which: 'original' });
      const attachment = query.download === '1' || query.download === 'true';
      return sendStored(reply, file, attachment ? 'attachment' : 'inline');
    },
  );

  route.serve(
    fileRoutes.thumbnail,
    { ...download, summary: "An image's thumbnail (JPEG, 320 px at most); 404 file_not_found for a PDF" },
    async ({ ctx, params, reply }) =>
      sendStored(reply, await service.content({ ctx, ...params, which: 'thumbnail' }), 'inline'),
  );

  route.serve(
    fileRoutes.update,
    {
      ...write,
      summary: "Change a file's type, note or date; 409 version_conflict (with the current values) when stale",
    },
    async ({ ctx, params, body }) => ({
      data: await service.update({ ctx, ...params, input: body }),
      code: 'file_updated' as const,
    }),
  );

  route.serve(
    fileRoutes.remove,
    { ...write, summary: 'Delete a file: hidden from now on; its bytes, record and audit are kept' },
    async ({ ctx, params }) => {
      await service.remove({ ctx, ...params });
      return { code: 'file_deleted' as const };
    },
  );

  route.serve(
    fileRoutes.changes,
    { ...read, summary: "The file's history of changes (audit events), newest first" },
    ({ ctx, params, query }) => service.changes({ ctx, ...params, query }),
  );

  for (const kind of ['diagnosis', 'laboratory'] as const) recordFileRoutes(route, service, kind);

  route.serve(
    fileRoutes.receiveLaboratoryResult,
    {
      ...write,
      failureCode: 'error_update_laboratory',
      summary:
        "Upload the laboratory's files and mark the order received in one step (multipart: parts `files` and `metadata` as an upload, and `result`, JSON {resultDate, result, version}); 409 version_conflict when stale; nothing is stored when it fails",
      consumes: ['multipart/form-data'],
      transaction: false,
    },
    async ({ actor, params, request }) => {
      if (!request.isMultipart()) throw new AppError('unsupported_media_type');
      const data = await service.receiveResult({ actor, ...params, parts: () => multipartParts(request) });
      return { data, code: 'laboratory_updated' as const };
    },
  );
};

/**
 * The files of a diagnosis or a laboratory order (issue 24), under the record's own path: list,
 * upload (attached), remove from the record (`…/link`: it stays in the patient's files) and
 * delete (soft). The bytes are served by the patient's file routes above.
 */
function recordFileRoutes(route: ReturnType<typeof routes>, service: FilesService, kind: RecordKind) {
  const declared = kind === 'diagnosis' ? diagnosisFileRoutes : laboratoryFileRoutes;
  const name = kind === 'diagnosis' ? 'diagnosis' : 'laboratory order';
  const write = { permission: 'clinical.write' } as const;
  const file = (params: { patientId: string; id: string; fileId: string }) => ({
    patientId: params.patientId,
    record: { kind, id: params.id },
    fileId: params.fileId,
  });

  route.serve(
    declared.list,
    {
      permission: 'patients.read',
      failureCode: `error_get_${kind}_file`,
      summary: `The ${name}'s files, newest upload first`,
    },
    ({ ctx, params, query }) =>
      service.listOfRecord({ ctx, patientId: params.patientId, record: { kind, id: params.id }, query }),
  );

  route.serve(
    declared.upload,
    {
      ...write,
      failureCode: `error_create_${kind}_file`,
      summary: `Attach files to the ${name}: the patient's upload (same multipart body, types and limits), attached to it`,
      consumes: ['multipart/form-data'],
      transaction: false,
    },
    async ({ actor, params, request }) => {
      if (!request.isMultipart()) throw new AppError('unsupported_media_type');
      const data = await service.upload({
        actor,
        patientId: params.patientId,
        record: { kind, id: params.id },
        parts: () => multipartParts(request),
      });
      return { data, code: 'files_uploaded' as const };
    },
  );

  route.serve(
    declared.unlink,
    {
      ...write,
      failureCode: `error_remove_${kind}_file`,
      summary: `Remove a file from the ${name}: it stays in the patient's files (audited)`,
    },
    async ({ ctx, params }) => {
      await service.unlink({ ctx, ...file(params) });
      return { code: 'file_removed' as const };
    },
  );

  route.serve(
    declared.remove,
    {
      ...write,
      failureCode: `error_delete_${kind}_file`,
      summary: `Delete a file of the ${name}: hidden from now on; its bytes, record and audit are kept`,
    },
    async ({ ctx, params }) => {
      await service.removeOfRecord({ ctx, ...file(params) });
      return { code: 'file_deleted' as const };
    },
  );
}
