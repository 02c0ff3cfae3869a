import { and, count, desc, eq, getTableColumns, inArray, isNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { attendances, patientFiles, users } from '../../db/schema/index.ts';
import type { TenantTx } from '../../db/tenancy.ts';

/** A patient's files and exams (tenant context). Deleted ones never come out. */

export type PatientFileInsert = typeof patientFiles.$inferInsert;
export type PatientFileRow = typeof patientFiles.$inferSelect;
export type PatientFileRowWithNames = PatientFileRow & { createdByName: string | null; updatedByName: string | null };

const creator = alias(users, 'creator');
const updater = alias(users, 'updater');

const live = (accountId: string, patientId: string) =>
  and(eq(patientFiles.accountId, accountId), eq(patientFiles.patientId, patientId), isNull(patientFiles.deletedAt));

function selectWithNames(tx: TenantTx) {
  return tx
    .select({
      ...getTableColumns(patientFiles),
      createdByName: creator.completeName,
      updatedByName: updater.completeName,
    })
    .from(patientFiles)
    .leftJoin(creator, and(eq(creator.accountId, patientFiles.accountId), eq(creator.id, patientFiles.createdBy)))
    .leftJoin(updater, and(eq(updater.accountId, patientFiles.accountId), eq(updater.id, patientFiles.updatedBy)));
}

/** One page, newest upload first (the patient index: created_at desc, id desc), and the count. */
export async function listFiles(
  tx: TenantTx,
  accountId: string,
  patientId: string,
  query: { page: number; pageSize: number; fileType?: string | undefined },
): Promise<{ rows: PatientFileRowWithNames[]; total: number }> {
  const where = and(live(accountId, patientId), query.fileType ? eq(patientFiles.fileType, query.fileType) : undefined);
  const rows = await selectWithNames(tx)
    .where(where)
    .orderBy(desc(patientFiles.createdAt), desc(patientFiles.id))
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize);
  const [total] = await tx.select({ n: count() }).from(patientFiles).where(where);
  return { rows, total: total?.n ?? 0 };
}

export async function findFile(
  tx: TenantTx,
  accountId: string,
  patientId: string,
  id: string,
): Promise<PatientFileRowWithNames | undefined> {
  const [row] = await selectWithNames(tx).where(and(live(accountId, patientId), eq(patientFiles.id, id)));
  return row;
}

/** The file (not deleted), locked for the rest of the transaction. */
export async function findFileForUpdate(
  tx: TenantTx,
  accountId: string,
  patientId: string,
  id: string,
): Promise<PatientFileRow | undefined> {
  const [row] = await tx
    .select()
    .from(patientFiles)
    .where(and(live(accountId, patientId), eq(patientFiles.id, id)))
    .for('update');
  return row;
}

export async function insertFiles(tx: TenantTx, rows: PatientFileInsert[]): Promise<void> {
  if (rows.length > 0) await tx.insert(patientFiles).values(rows);
}

export async function updateFile(
  tx: TenantTx,
  accountId: string,
  id: string,
  change: Partial<PatientFileInsert>,
): Promise<void> {
  await tx
    .update(patientFiles)
    .set({ ...change, updatedAt: new Date(), version: sql`${patientFiles.version} + 1` })
    .where(and(eq(patientFiles.accountId, accountId), eq(patientFiles.id, id)));
}

/** Soft delete: hidden everywhere from now on; the row, its bytes and its audit stay. */
export async function softDeleteFile(tx: TenantTx, accountId: string, id: string, userId: string): Promise<void> {
  const now = new Date();
  await tx
    .update(patientFiles)
    .set({
      deletedAt: now,
      deletedBy: userId,
      updatedAt: now,
      updatedBy: userId,
      version: sql`${patientFiles.version} + 1`,
    })
    .where(and(eq(patientFiles.accountId, accountId), eq(patientFiles.id, id)));
}

/** The ids among `ids` that are attendances of this patient (not deleted). */
export async function attendancesOfPatient(
  tx: TenantTx,
  accountId: string,
  patientId: string,
  ids: string[],
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await tx
    .select({ id: attendances.id })
    .from(attendances)
    .where(
      and(
        eq(attendances.accountId, accountId),
        eq(attendances.patientId, patientId),
        isNull(attendances.deletedAt),
        inArray(attendances.id, ids),
      ),
    );
  return new Set(rows.map((row) => row.id));
}
