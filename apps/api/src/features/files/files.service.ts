import type { Readable } from 'node:stream';
import type { Multipart } from '@fastify/multipart';
import type {
  AllowedFileMimeType,
  PatientFile,
  PatientFilesQuery,
  PatientFileType,
  UpdatePatientFileInput,
} from '@odontia/shared/schemas/files';
import type { PageQuery } from '@odontia/shared/schemas/records';
import type { Database } from '../../db/client.ts';
import type { RowWithNames } from '../../db/records.ts';
import type { patientFiles } from '../../db/schema/index.ts';
import { AppError } from '../../lib/app-error.ts';
import type { FileStorage } from '../../lib/file-storage.ts';
import { newId } from '../../lib/ids.ts';
import { type Actor, inTransaction, type RequestContext } from '../../plugins/routes.ts';
import { audit } from '../audit/audit.repository.ts';
import { auditedRecords } from '../audit/audited-records.ts';
import { attendancesOfPatient } from '../clinical/clinical.repository.ts';
import { invalidFields, requirePatient } from '../clinical/clinical.service.ts';
import { filesRepository, fileTypeFilter, insertFiles, type PatientFileRow } from './files.repository.ts';
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
    createdAt: row.createdAt.toISOString(),
    createdByName: row.createdByName,
    updatedAt: row.updatedAt.toISOString(),
    updatedByName: row.updatedByName,
    version: row.version,
  };
}

const editable = (row: Pick<PatientFileRow, 'fileType' | 'note' | 'takenOn'>) => ({
  fileType: row.fileType,
  note: row.note,
  takenOn: row.takenOn,
});

const records = auditedRecords({
  repository: filesRepository,
  entity: 'file',
  notFound: 'file_not_found',
  present: toPatientFile,
  columnsOf: editable,
});

type Scope = { ctx: RequestContext; patientId: string };
type One = Scope & { id: string };

export function createFilesService({
  db,
  storage,
  limits,
}: {
  db: Database;
  storage: FileStorage;
  limits: UploadLimits;
}) {
  return {
    async list({ ctx, patientId, query }: Scope & { query: PatientFilesQuery }) {
      await requirePatient(ctx, patientId);
      return records.page(ctx, { patientId }, query, fileTypeFilter(query.fileType));
    },

    async get({ ctx, patientId, id }: One): Promise<PatientFile> {
      await requirePatient(ctx, patientId);
      return records.get(ctx, { patientId }, id);
    },

    /**
     * Streams the multipart request into the storage, then records every file at once in its
     * own transaction (the route runs without one: nothing waits on the upload's bytes).
     */
    async upload({
      actor,
      patientId,
      parts,
    }: {
      actor: Actor;
      patientId: string;
      parts: () => AsyncIterableIterator<Multipart>;
    }): Promise<PatientFile[]> {
      // Before reading a byte: an unknown patient is refused without storing anything.
      await inTransaction(db, actor, (ctx) => requirePatient(ctx, patientId));
      const received = await receiveUpload(parts(), storage, limits);
      try {
        return await inTransaction(db, actor, async (ctx) => {
          await requirePatient(ctx, patientId, { lock: true });
          const attendanceIds = [...new Set(received.flatMap((file) => file.entry.attendanceId ?? []))];
          const known = await attendancesOfPatient(ctx, patientId, attendanceIds);
          const unknown = received.flatMap((file, index) =>
            file.entry.attendanceId && !known.has(file.entry.attendanceId)
              ? [{ path: `metadata.${index}.attendanceId`, code: 'invalid_value' as const }]
              : [],
          );
          if (unknown.length > 0) throw invalidFields(unknown);
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
          }));
          await insertFiles(ctx, rows);
          for (const row of rows) {
            await audit(ctx, {
              patientId,
              action: 'file_uploaded',
              entity: 'file',
              entityId: row.id,
              after: {
                ...editable(row),
                attendanceId: row.attendanceId,
                originalName: row.originalName,
                mimeType: row.mimeType,
                sizeBytes: row.sizeBytes,
                sha256: row.sha256,
              },
            });
          }
          const files: PatientFile[] = [];
          for (const row of rows) files.push(await records.get(ctx, { patientId }, row.id));
          return files;
        });
      } catch (error) {
        await removeAll(
          storage,
          received.flatMap((file) => [file.stored.key, ...(file.thumbnail ? [file.thumbnail.key] : [])]),
        );
        throw error;
      }
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
      await audit(ctx, {
        patientId,
        action: 'file_deleted',
        entity: 'file',
        entityId: id,
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
