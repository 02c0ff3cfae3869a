import { and, count, eq, getTableColumns, isNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { accounts, laboratories, patients, users } from '../../db/schema/index.ts';
import type { TenantTx } from '../../db/tenancy.ts';
import { newestFirst } from '../clinical/clinical.repository.ts';

/** A patient's laboratory orders (tenant context). Deleted ones never come out. */

export type LaboratoryInsert = typeof laboratories.$inferInsert;
export type LaboratoryRow = typeof laboratories.$inferSelect;
export type LaboratoryRowWithNames = LaboratoryRow & {
  professionalName: string;
  createdByName: string | null;
  updatedByName: string | null;
};

const professional = alias(users, 'professional');
const creator = alias(users, 'creator');
const updater = alias(users, 'updater');

const live = (accountId: string, patientId: string) =>
  and(eq(laboratories.accountId, accountId), eq(laboratories.patientId, patientId), isNull(laboratories.deletedAt));

function selectWithNames(tx: TenantTx) {
  return tx
    .select({
      ...getTableColumns(laboratories),
      professionalName: professional.completeName,
      createdByName: creator.completeName,
      updatedByName: updater.completeName,
    })
    .from(laboratories)
    .innerJoin(
      professional,
      and(eq(professional.accountId, laboratories.accountId), eq(professional.id, laboratories.professionalId)),
    )
    .leftJoin(creator, and(eq(creator.accountId, laboratories.accountId), eq(creator.id, laboratories.createdBy)))
    .leftJoin(updater, and(eq(updater.accountId, laboratories.accountId), eq(updater.id, laboratories.updatedBy)));
}

/** One page, newest first (the patient index: order date desc, id desc), and the count. */
export async function listLaboratories(
  tx: TenantTx,
  accountId: string,
  patientId: string,
  page: { page: number; pageSize: number },
): Promise<{ rows: LaboratoryRowWithNames[]; total: number }> {
  const where = live(accountId, patientId);
  const rows = await selectWithNames(tx)
    .where(where)
    .orderBy(...newestFirst(laboratories.orderDate, laboratories.id))
    .limit(page.pageSize)
    .offset((page.page - 1) * page.pageSize);
  const [total] = await tx.select({ n: count() }).from(laboratories).where(where);
  return { rows, total: total?.n ?? 0 };
}

export async function findLaboratory(
  tx: TenantTx,
  accountId: string,
  patientId: string,
  id: string,
): Promise<LaboratoryRowWithNames | undefined> {
  const [row] = await selectWithNames(tx).where(and(live(accountId, patientId), eq(laboratories.id, id)));
  return row;
}

/** The laboratory (not deleted), locked for the rest of the transaction. */
export async function findLaboratoryForUpdate(
  tx: TenantTx,
  accountId: string,
  patientId: string,
  id: string,
): Promise<LaboratoryRow | undefined> {
  const [row] = await tx
    .select()
    .from(laboratories)
    .where(and(live(accountId, patientId), eq(laboratories.id, id)))
    .for('update');
  return row;
}

export async function insertLaboratory(tx: TenantTx, row: LaboratoryInsert): Promise<void> {
  await tx.insert(laboratories).values(row);
}

export async function updateLaboratory(
  tx: TenantTx,
  accountId: string,
  id: string,
  change: Partial<LaboratoryInsert>,
): Promise<void> {
  await tx
    .update(laboratories)
    .set({ ...change, updatedAt: new Date(), version: sql`${laboratories.version} + 1` })
    .where(and(eq(laboratories.accountId, accountId), eq(laboratories.id, id)));
}

/** Soft delete: hidden everywhere from now on; the row and its audit stay. */
export async function softDeleteLaboratory(tx: TenantTx, accountId: string, id: string, userId: string): Promise<void> {
  const now = new Date();
  await tx
    .update(laboratories)
    .set({
      deletedAt: now,
      deletedBy: userId,
      updatedAt: now,
      updatedBy: userId,
      version: sql`${laboratories.version} + 1`,
    })
    .where(and(eq(laboratories.accountId, accountId), eq(laboratories.id, id)));
}

/** What the printed order needs besides the order: the clinic, the patient (age in the clinic's time zone) and the reader's language. */
export async function findOrderHeader(
  tx: TenantTx,
  accountId: string,
  patientId: string,
  userId: string,
): Promise<
  | {
      clinicName: string;
      clinicContact: string;
      firstName: string;
      lastName: string;
      ssn: string | null;
      birthdate: string;
      language: string | null;
    }
  | undefined
> {
  const [row] = await tx
    .select({
      clinicName: accounts.clinicName,
      clinicContact: accounts.contact,
      firstName: patients.firstName,
      lastName: patients.lastName,
      ssn: patients.ssn,
      birthdate: patients.birthdate,
      language: sql<
        string | null
      >`(select ${users.systemLanguage} from ${users} where ${users.accountId} = ${accountId} and ${users.id} = ${userId})`,
    })
    .from(patients)
    .innerJoin(accounts, eq(accounts.id, patients.accountId))
    .where(and(eq(patients.accountId, accountId), eq(patients.id, patientId), isNull(patients.deletedAt)));
  return row;
}
