import { and, count, eq, getTableColumns, isNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { diagnoses, users } from '../../db/schema/index.ts';
import type { TenantTx } from '../../db/tenancy.ts';
import { newestFirst } from '../clinical/clinical.repository.ts';

/** A patient's diagnoses (tenant context). Deleted ones never come out. */

export type DiagnosisInsert = typeof diagnoses.$inferInsert;
export type DiagnosisRow = typeof diagnoses.$inferSelect;
export type DiagnosisRowWithNames = DiagnosisRow & {
  professionalName: string;
  createdByName: string | null;
  updatedByName: string | null;
};

const professional = alias(users, 'professional');
const creator = alias(users, 'creator');
const updater = alias(users, 'updater');

const live = (accountId: string, patientId: string) =>
  and(eq(diagnoses.accountId, accountId), eq(diagnoses.patientId, patientId), isNull(diagnoses.deletedAt));

function selectWithNames(tx: TenantTx) {
  return tx
    .select({
      ...getTableColumns(diagnoses),
      professionalName: professional.completeName,
      createdByName: creator.completeName,
      updatedByName: updater.completeName,
    })
    .from(diagnoses)
    .innerJoin(
      professional,
      and(eq(professional.accountId, diagnoses.accountId), eq(professional.id, diagnoses.professionalId)),
    )
    .leftJoin(creator, and(eq(creator.accountId, diagnoses.accountId), eq(creator.id, diagnoses.createdBy)))
    .leftJoin(updater, and(eq(updater.accountId, diagnoses.accountId), eq(updater.id, diagnoses.updatedBy)));
}

/** One page, newest first (the patient index: date desc, id desc), and the count. */
export async function listDiagnoses(
  tx: TenantTx,
  accountId: string,
  patientId: string,
  page: { page: number; pageSize: number },
): Promise<{ rows: DiagnosisRowWithNames[]; total: number }> {
  const where = live(accountId, patientId);
  const rows = await selectWithNames(tx)
    .where(where)
    .orderBy(...newestFirst(diagnoses.date, diagnoses.id))
    .limit(page.pageSize)
    .offset((page.page - 1) * page.pageSize);
  const [total] = await tx.select({ n: count() }).from(diagnoses).where(where);
  return { rows, total: total?.n ?? 0 };
}

export async function findDiagnosis(
  tx: TenantTx,
  accountId: string,
  patientId: string,
  id: string,
): Promise<DiagnosisRowWithNames | undefined> {
  const [row] = await selectWithNames(tx).where(and(live(accountId, patientId), eq(diagnoses.id, id)));
  return row;
}

/** The diagnosis (not deleted), locked for the rest of the transaction. */
export async function findDiagnosisForUpdate(
  tx: TenantTx,
  accountId: string,
  patientId: string,
  id: string,
): Promise<DiagnosisRow | undefined> {
  const [row] = await tx
    .select()
    .from(diagnoses)
    .where(and(live(accountId, patientId), eq(diagnoses.id, id)))
    .for('update');
  return row;
}

export async function insertDiagnosis(tx: TenantTx, row: DiagnosisInsert): Promise<void> {
  await tx.insert(diagnoses).values(row);
}

export async function updateDiagnosis(
  tx: TenantTx,
  accountId: string,
  id: string,
  change: Partial<DiagnosisInsert>,
): Promise<void> {
  await tx
    .update(diagnoses)
    .set({ ...change, updatedAt: new Date(), version: sql`${diagnoses.version} + 1` })
    .where(and(eq(diagnoses.accountId, accountId), eq(diagnoses.id, id)));
}

/** Soft delete: hidden everywhere from now on; the row and its audit stay. */
export async function softDeleteDiagnosis(tx: TenantTx, accountId: string, id: string, userId: string): Promise<void> {
  const now = new Date();
  await tx
    .update(diagnoses)
    .set({
      deletedAt: now,
      deletedBy: userId,
      updatedAt: now,
      updatedBy: userId,
      version: sql`${diagnoses.version} + 1`,
    })
    .where(and(eq(diagnoses.accountId, accountId), eq(diagnoses.id, id)));
}
