import type { Readable } from 'node:stream';
import type { Multipart } from '@fastify/multipart';
import type { Plan } from '@odontia/shared/schemas/account';
import {
  type AllowedFileMimeType,
  type PatientFile,
  type PatientFilesQuery,
  type PatientFileType,
  type RecordKind,
  receiveLaboratoryResultSchema,
  type UpdatePatientFileInput,
} from '@odontia/shared/schemas/files';
import type { Laboratory } from '@odontia/shared/schemas/laboratories';
import type { PageQuery } from '@odontia/shared/schemas/records';
import { isFieldCode } from '@odontia/shared/validation';
import type { Actor, RequestContext } from '../../context.ts';
import type { Database } from '../../db/client.ts';
import type { RowWithNames } from '../../db/records.ts';
import { presentStamps } from '../../db/records.ts';
import type { patientFiles } from '../../db/schema/index.ts';
import { AppError } from '../../lib/app-error.ts';
import type { FileStorage } from '../../lib/file-storage.ts';
import { newId } from '../../lib/ids.ts';
import { inTransaction } from '../../plugins/routes.ts';
import { requireStorageFor } from '../account/plan-limits.ts';
import { recordAudit } from '../audit/audit.repository.ts';
import { auditedRecords } from '../audit/audited-records.ts';
import { attendancesOfPatient } from '../clinical/clinical.repository.ts';
import { invalidFields, requirePatient } from '../clinical/clinical.service.ts';
import { diagnosesRepository } from '../diagnoses/diagnoses.repository.ts';
import { laboratoriesRepository } from '../laboratories/laboratories.repository.ts';
import { laboratoriesService } from '../laboratories/laboratories.service.ts';
import { findUploadMaxMb } from '../settings/settings.repository.ts';
import { fileFilter, filesRepository, insertFiles, type PatientFileRow, recordFilter } from './files.repository.ts';
import { receiveUpload, removeAll, type UploadLimits } from './files.upload.ts';

/**
 * Files and exams of a patient (issue 6). An upload is stored first (streamed, all or nothing),
 * then recorded with one audit event per file in one transaction; a failed transaction removes
 * what was stored. Edits change the type, note or date (with the version); delete is soft and
 * keeps the bytes. A factory: uploads and downloads need the storage.
 */

export function toPatientFile(row: RowWithNames<typeof patientFiles>): PatientFile {
  return {
    id: row.id,
    patientId: row.patientId,
    fileType: row.fileType as PatientFileType,
    note: row.note,
    originalName: row.originalName,
    mimeType: row.mimeType as AllowedFileMimeType,
    sizeBytes: row.sizeBytes,
    sha256: row.sha256,
    hasThumbnail: row.thumbnailKey !== null,
    takenOn: row.takenOn,
    attendanceId: row.attendanceId,
    diagnosisId: row.diagnosisId,
    laboratoryId: row.laboratoryId,
    ...presentStamps(row),
  };
}

const editable = (row: Pick<PatientFileRow, 'fileType' | 'note' | 'takenOn'>) => ({
  fileType: row.fileType,
  note: row.note,
  takenOn: row.takenOn,
});

const auditFile = recordAudit('file');

const records = auditedRecords({
  repository: filesRepository,
  entity: 'file',
  notFound: 'file_not_found',
  present: toPatientFile,
  columnsOf: editable,
});

type Scope = { ctx: RequestContext; patientId: string };
type One = Scope & { id: string };
/** A diagnosis or a laboratory order of the patient (issue 24). */
type RecordRef = { kind: RecordKind; id: string };
type RecordFile = Scope & { record: RecordRef; fileId: string };

const recordOwners = {
  diagnosis: { repository: diagnosesRepository, notFound: 'diagnosis_not_found', key: 'diagnosisId' },
  laboratory: { repository: laboratoriesRepository, notFound: 'laboratory_not_found', key: 'laboratoryId' },
} as const;

/** The record, live and the patient's (locked for a write); 404 with its own code otherwise. */
async function requireRecord(ctx: RequestContext, patientId: string, { kind, id }: RecordRef, lock = false) {
  const { repository, notFound } = recordOwners[kind];
  const row = lock
    ? await repository.findForUpdate(ctx, { patientId }, id)
    : await repository.find(ctx, { patientId }, id);
  if (!row) throw new AppError(notFound);
}

/** The file, locked, when it belongs to the record; 404 file_not_found otherwise. */
async function lockRecordFile(ctx: RequestContext, { patientId, record, fileId }: RecordFile) {
  await requirePatient(ctx, patientId, { lock: true });
  await requireRecord(ctx, patientId, record, true);
  const current = await records.lock(ctx, { patientId }, fileId);
  if (current[recordOwners[record.kind].key] !== record.id) throw new AppError('file_not_found');
  return current;
}

/** The `result` part of "upload the PDF and mark received": its JSON, checked like a field. */
function resultPart(text: string | undefined) {
  let value: unknown;
  try {
    value = text === undefined ? undefined : JSON.parse(text);
  } catch {
    throw invalidFields([{ path: 'result', code: 'invalid_value' }]);
  }
  const parsed = receiveLaboratoryResultSchema.safeParse(value ?? {});
  if (!parsed.success) {
    throw invalidFields(
      parsed.error.issues.map((issue) => ({
        path: ['result', ...issue.path].join('.'),
        code: isFieldCode(issue.message) ? issue.message : 'invalid_value',
      })),
    );
  }
  return parsed.data;
}

/** The clinic's own limit on a file (system settings, in MB) within the installation's. */
export function uploadLimitsOfClinic(installation: UploadLimits, clinicMaxMb: number | null): UploadLimits {
  if (clinicMaxMb === null) return installation;
  return { ...installation, maxFileBytes: Math.min(installation.maxFileBytes, clinicMaxMb * 1024 * 1024) };
}

export function createFilesService({
  db,
  storage,
  limits,
  plans = [],
}: {
  db: Database;
  storage: FileStorage;
  limits: UploadLimits;
  /** The installation's plans: the clinic's plan may cap its storage (issue 19). */
  plans?: Plan[];
}) {
  /**
   * Streams the multipart request into the storage, then records every file at once in its
   * own transaction (the route runs without one: nothing waits on the upload's bytes). With a
   * record, the files are attached to it; `alsoInTransaction` runs in the same transaction (the laboratory's
   * result) with the upload's other text parts.
   */
  async function upload({
    actor,
    patientId,
    parts,
    record,
    alsoInTransaction,
  }: {
    actor: Actor;
    patientId: string;
    parts: () => AsyncIterableIterator<Multipart>;
    record?: RecordRef;
    alsoInTransaction?: (ctx: RequestContext, fields: Record<string, string>) => Promise<void>;
  }): Promise<PatientFile[]> {
    // Before reading a byte: an unknown patient or record is refused without storing anything.
    const clinicLimits = await inTransaction(db, actor, async (ctx) => {
      await requirePatient(ctx, patientId);
      if (record) await requireRecord(ctx, patientId, record);
      await requireStorageFor(ctx, plans, 0);
      return uploadLimitsOfClinic(limits, await findUploadMaxMb(ctx));
    });
    const fields: Record<string, string> = {};
    const received = await receiveUpload(parts(), storage, clinicLimits, fields);
    try {
      return await inTransaction(db, actor, async (ctx) => {
        await requirePatient(ctx, patientId, { lock: true });
        if (record) await requireRecord(ctx, patientId, record, true);
        // Exact now that the sizes are known (two uploads at once may pass it by one batch).
        const adding = received.reduce((total, file) => total + file.stored.sizeBytes, 0);
        await requireStorageFor(ctx, plans, adding);
        const attendanceIds = [...new Set(received.flatMap((file) => file.entry.attendanceId ?? []))];
        const known = await attendancesOfPatient(ctx, patientId, attendanceIds);
        const unknown = received.flatMap((file, index) =>
          file.entry.attendanceId && !known.has(file.entry.attendanceId)
            ? [{ path: `metadata.${index}.attendanceId`, code: 'invalid_value' as const }]
            : [],
        );
        if (unknown.length > 0) throw invalidFields(unknown);
        // A file belongs to one record at most: a record's upload names no attendance.
        const attended = record ? received.findIndex((file) => file.entry.attendanceId) : -1;
        if (attended >= 0) throw invalidFields([{ path: `metadata.${attended}.attendanceId`, code: 'invalid_value' }]);
        const rows = received.map((file) => ({
          id: newId(),
          patientId,
          fileType: file.entry.fileType,
          note: file.entry.note,
          originalName: file.originalName,
          mimeType: file.mimeType,
          sizeBytes: file.stored.sizeBytes,
          sha256: file.stored.sha256,
          storageKey: file.stored.key,
          thumbnailKey: file.thumbnail?.key ?? null,
          takenOn: file.entry.takenOn,
          attendanceId: file.entry.attendanceId ?? null,
          diagnosisId: record?.kind === 'diagnosis' ? record.id : null,
          laboratoryId: record?.kind === 'laboratory' ? record.id : null,
        }));
        await insertFiles(ctx, rows);
        for (const row of rows) {
          await auditFile(ctx, row.id, 'uploaded', {
            patientId,
            after: {
              ...editable(row),
              attendanceId: row.attendanceId,
              ...(row.diagnosisId && { diagnosisId: row.diagnosisId }),
              ...(row.laboratoryId && { laboratoryId: row.laboratoryId }),
              originalName: row.originalName,
              mimeType: row.mimeType,
              sizeBytes: row.sizeBytes,
              sha256: row.sha256,
            },
          });
        }
        const files: PatientFile[] = [];
        for (const row of rows) files.push(await records.get(ctx, { patientId }, row.id));
        await alsoInTransaction?.(ctx, fields);
        return files;
      });
    } catch (error) {
      await removeAll(
        storage,
        received.flatMap((file) => [file.stored.key, ...(file.thumbnail ? [file.thumbnail.key] : [])]),
      );
      throw error;
    }
  }

  return {
    async list({ ctx, patientId, query }: Scope & { query: PatientFilesQuery }) {
      await requirePatient(ctx, patientId);
      return records.page(ctx, { patientId }, query, fileFilter(query));
    },

    async get({ ctx, patientId, id }: One): Promise<PatientFile> {
      await requirePatient(ctx, patientId);
      return records.get(ctx, { patientId }, id);
    },

    upload,

    /** A record's files, newest upload first. */
    async listOfRecord({ ctx, patientId, record, query }: Scope & { record: RecordRef; query: PatientFilesQuery }) {
      await requirePatient(ctx, patientId);
      await requireRecord(ctx, patientId, record);
      return records.page(ctx, { patientId }, query, recordFilter(record.kind, record.id));
    },

    /** Removes the file from the record: it stays in the patient's files (audited, a new version). */
    async unlink(input: RecordFile): Promise<void> {
      const { ctx, patientId, record, fileId } = input;
      const current = await lockRecordFile(ctx, input);
      const key = recordOwners[record.kind].key;
      await filesRepository.update(ctx, fileId, { [key]: null });
      await auditFile(ctx, fileId, 'removed', {
        patientId,
        before: { [key]: record.id, originalName: current.originalName, version: current.version },
        after: { [key]: null },
      });
    },

    /** Deletes a file of the record (soft, like any of the patient's files). */
    async removeOfRecord(input: RecordFile): Promise<void> {
      await lockRecordFile(input.ctx, input);
      await this.remove({ ctx: input.ctx, patientId: input.patientId, id: input.fileId });
    },

    /**
     * "Upload the PDF and mark received" (issue 24): the files attached to the order and the order
     * marked `result_received` with the date and text of the part `result`, in one transaction.
     */
    async receiveResult({
      actor,
      patientId,
      id,
      parts,
    }: {
      actor: Actor;
      patientId: string;
      id: string;
      parts: () => AsyncIterableIterator<Multipart>;
    }): Promise<{ laboratory: Laboratory; files: PatientFile[] }> {
      let laboratory: Laboratory | undefined;
      const files = await upload({
        actor,
        patientId,
        parts,
        record: { kind: 'laboratory', id },
        alsoInTransaction: async (ctx, fields) => {
          const result = resultPart(fields.result);
          const current = await laboratoriesService.get({ ctx, patientId, id });
          if (result.resultDate < current.orderDate) {
            throw invalidFields([{ path: 'result.resultDate', code: 'date_before_order' }]);
          }
          laboratory = await laboratoriesService.update({
            ctx,
            patientId,
            id,
            input: {
              ...current,
              status: 'result_received',
              resultDate: result.resultDate,
              result: result.result ?? current.result,
              version: result.version,
            },
          });
        },
      });
      return { laboratory: laboratory as Laboratory, files };
    },

    /** A partial edit: what the input omits stays as it is. */
    async update({ ctx, patientId, id, input }: One & { input: UpdatePatientFileInput }): Promise<PatientFile> {
      await requirePatient(ctx, patientId, { lock: true });
      return records.update(ctx, { patientId }, id, {
        version: input.version,
        next: (current) => ({
          fileType: input.fileType ?? current.fileType,
          note: input.note === undefined ? current.note : input.note,
          takenOn: input.takenOn === undefined ? current.takenOn : input.takenOn,
        }),
      });
    },

    /** Soft delete, audited with the file's name: its bytes stay. */
    async remove({ ctx, patientId, id }: One): Promise<void> {
      await requirePatient(ctx, patientId, { lock: true });
      const current = await records.lock(ctx, { patientId }, id);
      await filesRepository.softDelete(ctx, id);
      await auditFile(ctx, id, 'deleted', {
        patientId,
        before: { ...editable(current), originalName: current.originalName, version: current.version },
        after: { deleted: true },
      });
    },

    /** The file's bytes (or its thumbnail) with what the answer's headers need. */
    async content({ ctx, patientId, id, which }: One & { which: 'original' | 'thumbnail' }): Promise<{
      stream: Readable;
      mimeType: string;
      sizeBytes: number | null;
      originalName: string;
    }> {
      await requirePatient(ctx, patientId);
      const row = await filesRepository.find(ctx, { patientId }, id);
      if (!row) throw new AppError('file_not_found');
      if (which === 'thumbnail') {
        if (!row.thumbnailKey) throw new AppError('file_not_found');
        const name = `${row.originalName.replace(/\.[^.]*$/, '')}-miniatura.jpg`;
        return {
          stream: await storage.open(row.thumbnailKey),
          mimeType: 'image/jpeg',
          sizeBytes: null,
          originalName: name,
        };
      }
      return {
        stream: await storage.open(row.storageKey),
        mimeType: row.mimeType,
        sizeBytes: row.sizeBytes,
        originalName: row.originalName,
      };
    },

    async changes({ ctx, patientId, id, query }: One & { query: PageQuery }) {
      await requirePatient(ctx, patientId);
      return records.changes(ctx, { patientId }, id, query);
    },
  };
}

export type FilesService = ReturnType<typeof createFilesService>;
