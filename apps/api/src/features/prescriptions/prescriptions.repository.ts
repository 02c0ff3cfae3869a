import { asc } from 'drizzle-orm';
import { liveWhere, type RecordScope, recordRepository } from '../../db/records.ts';
import { prescriptionLines, prescriptions } from '../../db/schema/index.ts';
import { findPaperByCode, newestFirst, paperCodeTaken } from '../clinical/clinical.repository.ts';

/**
 * A patient's prescriptions (tenant context), newest first from the patient index, and their
 * lines. The professional's details are copied into the prescription: no name to join.
 */
export const prescriptionsRepository = recordRepository({
  table: prescriptions,
  scope: ['patientId'],
  order: newestFirst(prescriptions.date, prescriptions.id),
});

export type PrescriptionLineRow = typeof prescriptionLines.$inferSelect;
export type PrescriptionLineInsert = Omit<typeof prescriptionLines.$inferInsert, 'accountId' | 'createdBy'>;

/** The clinic's live prescription with this verification code, of a live patient, and who that is. */
export const findByCode = (scope: RecordScope, code: string) => findPaperByCode(scope, prescriptions, code);

/** The live lines of these prescriptions, in order. */
export async function listLines({ tx, accountId }: RecordScope, ids: string[]): Promise<PrescriptionLineRow[]> {
  if (ids.length === 0) return [];
  return tx
    .select()
    .from(prescriptionLines)
    .where(liveWhere(prescriptionLines, accountId, prescriptionLines.prescriptionId, ids))
    .orderBy(asc(prescriptionLines.prescriptionId), asc(prescriptionLines.position));
}

/** Whether any prescription of the clinic, deleted or not, has this code. */
export const codeTaken = (scope: RecordScope, code: string) => paperCodeTaken(scope, prescriptions, code);

export async function insertLines(ctx: RecordScope, rows: PrescriptionLineInsert[]): Promise<void> {
  if (rows.length === 0) return;
  await ctx.tx
    .insert(prescriptionLines)
    .values(rows.map((row) => ({ ...row, accountId: ctx.accountId, createdBy: ctx.userId })));
}

/** An edit replaces the set of lines: the old ones are soft-deleted (kept for the audit). */
export async function softDeleteLines(ctx: RecordScope, prescriptionId: string): Promise<void> {
  await ctx.tx
    .update(prescriptionLines)
    .set({ deletedAt: new Date(), deletedBy: ctx.userId })
    .where(liveWhere(prescriptionLines, ctx.accountId, prescriptionLines.prescriptionId, prescriptionId));
}
