import type { PatientFilesQuery, RecordKind } from '@odontia/shared/schemas/files';
import { and, desc, eq, isNotNull, isNull, type SQL } from 'drizzle-orm';
import { type RecordScope, recordRepository } from '../../db/records.ts';
import { patientFiles } from '../../db/schema/index.ts';

/** A patient's files and exams (tenant context), newest upload first. Deleted ones never come out. */
export const filesRepository = recordRepository({
  table: patientFiles,
  scope: ['patientId'],
  // The patient index: created_at desc, id desc.
  order: [desc(patientFiles.createdAt), desc(patientFiles.id)],
});

export type PatientFileRow = typeof patientFiles.$inferSelect;

/** The column that ties a file to a record of each kind (issue 24). */
const recordColumn = { diagnosis: patientFiles.diagnosisId, laboratory: patientFiles.laboratoryId } as const;
const belongsTo = { ...recordColumn, attendance: patientFiles.attendanceId } as const;

/** The list's filters: one type of file; the files of one kind of record, or of none. */
export function fileFilter({ fileType, record }: Pick<PatientFilesQuery, 'fileType' | 'record'>): SQL | undefined {
  const kind =
    record === 'none'
      ? and(isNull(patientFiles.attendanceId), isNull(patientFiles.diagnosisId), isNull(patientFiles.laboratoryId))
      : record
        ? isNotNull(belongsTo[record])
        : undefined;
  return and(fileType ? eq(patientFiles.fileType, fileType) : undefined, kind);
}

/** The files of one record. */
export const recordFilter = (kind: RecordKind, id: string): SQL => eq(recordColumn[kind], id);

/** An upload's files at once, created by the actor. */
export async function insertFiles(
  { tx, accountId, userId }: RecordScope,
  rows: Omit<typeof patientFiles.$inferInsert, 'accountId' | 'createdBy' | 'updatedBy'>[],
): Promise<void> {
  if (rows.length > 0) {
    await tx
      .insert(patientFiles)
      .values(rows.map((row) => ({ ...row, accountId, createdBy: userId, updatedBy: userId })));
  }
}
