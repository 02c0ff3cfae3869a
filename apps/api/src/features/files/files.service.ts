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
import type { TenantTx } from '../../db/tenancy.ts';
import { AppError } from '../../lib/app-error.ts';
import type { FileStorage } from '../../lib/file-storage.ts';
import { newId } from '../../lib/ids.ts';
import type { AuthSession } from '../../plugins/auth.ts';
import { recordAuditEvent } from '../audit/audit.repository.ts';
import { changedFields, listRecordChanges } from '../audit/record-changes.ts';
import { invalidFields, requirePatient } from '../clinical/clinical.service.ts';
import * as repository from './files.repository.ts';
import { receiveUpload, removeAll, type UploadLimits } from './files.upload.ts';

/**
 * Files and exams of a patient (issue 6). An upload is stored first (streamed, all or nothing),
 * then recorded with one audit event per file in one transaction; a failed transaction removes
 * what was stored. Edits change the type, note or date (with the version); delete is soft and
 * keeps the bytes.
 */

export function toPatientFile(row: repository.PatientFileRowWithNames): PatientFile {
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

const editable = (row: Pick<repository.PatientFileRow, 'fileType' | 'note' | 'takenOn'>) => ({
  fileType: row.fileType,
  note: row.note,
  takenOn: row.takenOn,
});

export function createFilesService({
  db,
  storage,
  limits,
}: {
  db: Database;
  storage: FileStorage;
  limits: UploadLimits;
}) {
  async function getFile(tx: TenantTx, accountId: string, patientId: string, id: string) {
    const row = await repository.findFile(tx, accountId, patientId, id);
    if (!row) throw new AppError('file_not_found');
    return row;
  }

  return {
    async list(session: AuthSession, patientId: string, query: PatientFilesQuery) {
      return db.withTenant(session.accountId, async (tx) => {
        await requirePatient({ tx: tx, accountId: session.accountId }, patientId);
        const { rows, total } = await repository.listFiles(tx, session.accountId, patientId, query);
        return { data: rows.map(toPatientFile), total, page: query.page, pageSize: query.pageSize };
      });
    },

    async get(session: AuthSession, patientId: string, id: string): Promise<PatientFile> {
      return db.withTenant(session.accountId, async (tx) => {
        await requirePatient({ tx: tx, accountId: session.accountId }, patientId);
        return toPatientFile(await getFile(tx, session.accountId, patientId, id));
      });
    },

    /** Streams the multipart request into the storage, then records every file at once. */
    async upload(
      session: AuthSession,
      patientId: string,
      parts: () => AsyncIterableIterator<Multipart>,
      ip: string,
    ): Promise<PatientFile[]> {
      // Before reading a byte: an unknown patient is refused without storing anything.
      await db.withTenant(session.accountId, (tx) =>
        requirePatient({ tx: tx, accountId: session.accountId }, patientId),
      );
      const received = await receiveUpload(parts(), storage, limits);
      try {
        return await db.withTenant(session.accountId, async (tx) => {
          await requirePatient({ tx: tx, accountId: session.accountId }, patientId, { lock: true });
          const attendanceIds = [...new Set(received.flatMap((file) => file.entry.attendanceId ?? []))];
          const known = await repository.attendancesOfPatient(tx, session.accountId, patientId, attendanceIds);
          const unknown = received.flatMap((file, index) =>
            file.entry.attendanceId && !known.has(file.entry.attendanceId)
              ? [{ path: `metadata.${index}.attendanceId`, code: 'invalid_value' as const }]
              : [],
          );
          if (unknown.length > 0) throw invalidFields(unknown);
          const rows = received.map((file) => ({
            accountId: session.accountId,
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
            createdBy: session.userId,
            updatedBy: session.userId,
          }));
          await repository.insertFiles(tx, rows);
          for (const row of rows) {
            await recordAuditEvent(tx, {
              accountId: session.accountId,
              userId: session.userId,
              patientId,
              action: 'file_uploaded',
              entity: 'file',
              entityId: row.id,
              ip,
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
          for (const row of rows) files.push(toPatientFile(await getFile(tx, session.accountId, patientId, row.id)));
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

    async update(
      session: AuthSession,
      patientId: string,
      id: string,
      input: UpdatePatientFileInput,
      ip: string,
    ): Promise<PatientFile> {
      return db.withTenant(session.accountId, async (tx) => {
        await requirePatient({ tx: tx, accountId: session.accountId }, patientId, { lock: true });
        const current = await repository.findFileForUpdate(tx, session.accountId, patientId, id);
        if (!current) throw new AppError('file_not_found');
        if (current.version !== input.version) {
          throw new AppError('version_conflict', {
            current: toPatientFile(await getFile(tx, session.accountId, patientId, id)),
          });
        }
        const next = {
          fileType: input.fileType ?? current.fileType,
          note: input.note === undefined ? current.note : input.note,
          takenOn: input.takenOn === undefined ? current.takenOn : input.takenOn,
        };
        const { before, after } = changedFields(editable(current), next);
        await repository.updateFile(tx, session.accountId, id, { ...next, updatedBy: session.userId });
        await recordAuditEvent(tx, {
          accountId: session.accountId,
          userId: session.userId,
          patientId,
          action: 'file_updated',
          entity: 'file',
          entityId: id,
          ip,
          before,
          after,
        });
        return toPatientFile(await getFile(tx, session.accountId, patientId, id));
      });
    },

    async remove(session: AuthSession, patientId: string, id: string, ip: string): Promise<void> {
      await db.withTenant(session.accountId, async (tx) => {
        await requirePatient({ tx: tx, accountId: session.accountId }, patientId, { lock: true });
        const current = await repository.findFileForUpdate(tx, session.accountId, patientId, id);
        if (!current) throw new AppError('file_not_found');
        await repository.softDeleteFile(tx, session.accountId, id, session.userId);
        await recordAuditEvent(tx, {
          accountId: session.accountId,
          userId: session.userId,
          patientId,
          action: 'file_deleted',
          entity: 'file',
          entityId: id,
          ip,
          before: { ...editable(current), originalName: current.originalName, version: current.version },
          after: { deleted: true },
        });
      });
    },

    /** The file's bytes (or its thumbnail) with what the answer's headers need. */
    async content(
      session: AuthSession,
      patientId: string,
      id: string,
      which: 'original' | 'thumbnail',
    ): Promise<{ stream: Readable; mimeType: string; sizeBytes: number | null; originalName: string }> {
      const row = await db.withTenant(session.accountId, async (tx) => {
        await requirePatient({ tx: tx, accountId: session.accountId }, patientId);
        return getFile(tx, session.accountId, patientId, id);
      });
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

    async changes(session: AuthSession, patientId: string, id: string, page: PageQuery) {
      return db.withTenant(session.accountId, async (tx) => {
        await requirePatient({ tx: tx, accountId: session.accountId }, patientId);
        await getFile(tx, session.accountId, patientId, id);
        return listRecordChanges(tx, session.accountId, { entity: 'file', entityId: id }, page);
      });
    },
  };
}

export type FilesService = ReturnType<typeof createFilesService>;
