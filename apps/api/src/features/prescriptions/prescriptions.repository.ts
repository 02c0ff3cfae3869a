import { and, asc, eq } from 'drizzle-orm';
import { liveWhere, type RecordScope, recordRepository } from '../../db/records.ts';
import { patients, prescriptionLines, prescriptions } from '../../db/schema/index.ts';
import { newestFirst } from '../clinical/clinical.repository.ts';

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
export async function findByCode({ tx, accountId }: RecordScope, code: string) {
  const [row] = await tx
    .select({
      id: prescriptions.id,
      patientId: prescriptions.patientId,
      firstName: patients.firstName,
      lastName: patients.lastName,
      ssn: patients.ssn,
    })
    .from(prescriptions)
    .innerJoin(patients, liveWhere(patients, prescriptions.accountId, patients.id, prescriptions.patientId))
    .where(liveWhere(prescriptions, accountId, prescriptions.verificationCode, code));
  return row;
}

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
export async function codeTaken({ tx, accountId }: RecordScope, code: string): Promise<boolean> {
  const rows = await tx
    .select({ id: prescriptions.id })
    .from(prescriptions)
    .where(and(eq(prescriptions.accountId, accountId), eq(prescriptions.verificationCode, code)));
  return rows.length > 0;
}

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
