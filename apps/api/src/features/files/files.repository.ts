import { desc, eq, type SQL } from 'drizzle-orm';
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

/** The list's filter: one type of file. */
export const fileTypeFilter = (fileType: string | undefined): SQL | undefined =>
  fileType ? eq(patientFiles.fileType, fileType) : undefined;

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
