import { and, asc, count, eq, getTableColumns, inArray, isNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  attendanceAddenda,
  attendanceItems,
  attendanceLines,
  attendances,
  inventoryItems,
  users,
} from '../../db/schema/index.ts';
import type { TenantTx } from '../../db/tenancy.ts';
import { newestFirst } from '../clinical/clinical.repository.ts';

/**
 * A patient's attendances with their billing lines, supplies and medicines used, and addenda
 * (tenant context). Deleted rows never come out. The list reads only the attendance rows (the
 * total is stored), so its first page costs two queries whatever the history's length.
 */

export type AttendanceInsert = typeof attendances.$inferInsert;
export type AttendanceRow = typeof attendances.$inferSelect;
export type AttendanceRowWithNames = AttendanceRow & {
  professionalName: string;
  createdByName: string | null;
  updatedByName: string | null;
};
export type AttendanceLineRow = typeof attendanceLines.$inferSelect;
export type AttendanceItemRow = typeof attendanceItems.$inferSelect & { name: string };
export type AddendumRow = { id: string; text: string; createdAt: Date; userName: string | null };

const professional = alias(users, 'professional');
const creator = alias(users, 'creator');
const updater = alias(users, 'updater');

const live = (accountId: string, patientId: string) =>
  and(eq(attendances.accountId, accountId), eq(attendances.patientId, patientId), isNull(attendances.deletedAt));

function selectWithNames(tx: TenantTx) {
  return tx
    .select({
      ...getTableColumns(attendances),
      professionalName: professional.completeName,
      createdByName: creator.completeName,
      updatedByName: updater.completeName,
    })
    .from(attendances)
    .innerJoin(
      professional,
      and(eq(professional.accountId, attendances.accountId), eq(professional.id, attendances.professionalId)),
    )
    .leftJoin(creator, and(eq(creator.accountId, attendances.accountId), eq(creator.id, attendances.createdBy)))
    .leftJoin(updater, and(eq(updater.accountId, attendances.accountId), eq(updater.id, attendances.updatedBy)));
}

/** One page, newest first (the patient index: date desc, id desc), and the count. */
export async function listAttendances(
  tx: TenantTx,
  accountId: string,
  patientId: string,
  page: { page: number; pageSize: number },
): Promise<{ rows: AttendanceRowWithNames[]; total: number }> {
  const where = live(accountId, patientId);
  const rows = await selectWithNames(tx)
    .where(where)
    .orderBy(...newestFirst(attendances.date, attendances.id))
    .limit(page.pageSize)
    .offset((page.page - 1) * page.pageSize);
  const [total] = await tx.select({ n: count() }).from(attendances).where(where);
  return { rows, total: total?.n ?? 0 };
}

export async function findAttendance(
  tx: TenantTx,
  accountId: string,
  patientId: string,
  id: string,
): Promise<AttendanceRowWithNames | undefined> {
  const [row] = await selectWithNames(tx).where(and(live(accountId, patientId), eq(attendances.id, id)));
  return row;
}

/** The attendance (not deleted), locked for the rest of the transaction. */
export async function findAttendanceForUpdate(
  tx: TenantTx,
  accountId: string,
  patientId: string,
  id: string,
): Promise<AttendanceRow | undefined> {
  const [row] = await tx
    .select()
    .from(attendances)
    .where(and(live(accountId, patientId), eq(attendances.id, id)))
    .for('update');
  return row;
}

export async function listLines(tx: TenantTx, accountId: string, attendanceId: string): Promise<AttendanceLineRow[]> {
  return tx
    .select()
    .from(attendanceLines)
    .where(
      and(
        eq(attendanceLines.accountId, accountId),
        eq(attendanceLines.attendanceId, attendanceId),
        isNull(attendanceLines.deletedAt),
      ),
    )
    .orderBy(asc(attendanceLines.position));
}

/** The supplies and medicines the attendance used, with the item names. */
export async function listItems(tx: TenantTx, accountId: string, attendanceId: string): Promise<AttendanceItemRow[]> {
  return tx
    .select({ ...getTableColumns(attendanceItems), name: inventoryItems.name })
    .from(attendanceItems)
    .innerJoin(
      inventoryItems,
      and(eq(inventoryItems.accountId, attendanceItems.accountId), eq(inventoryItems.id, attendanceItems.itemId)),
    )
    .where(
      and(
        eq(attendanceItems.accountId, accountId),
        eq(attendanceItems.attendanceId, attendanceId),
        isNull(attendanceItems.deletedAt),
      ),
    )
    .orderBy(asc(attendanceItems.createdAt), asc(attendanceItems.id));
}

export async function listAddenda(tx: TenantTx, accountId: string, attendanceId: string): Promise<AddendumRow[]> {
  return tx
    .select({
      id: attendanceAddenda.id,
      text: attendanceAddenda.text,
      createdAt: attendanceAddenda.createdAt,
      userName: users.completeName,
    })
    .from(attendanceAddenda)
    .leftJoin(users, and(eq(users.accountId, attendanceAddenda.accountId), eq(users.id, attendanceAddenda.createdBy)))
    .where(
      and(
        eq(attendanceAddenda.accountId, accountId),
        eq(attendanceAddenda.attendanceId, attendanceId),
        isNull(attendanceAddenda.deletedAt),
      ),
    )
    .orderBy(asc(attendanceAddenda.createdAt), asc(attendanceAddenda.id));
}

export type CatalogueItem = {
  id: string;
  kind: 'medication' | 'supply';
  name: string;
  productStatus: string;
  approvalStatus: string | null;
};

/** The clinic's catalogue items among `ids` (one query). */
export async function findCatalogueItems(tx: TenantTx, accountId: string, ids: string[]): Promise<CatalogueItem[]> {
  if (ids.length === 0) return [];
  return tx
    .select({
      id: inventoryItems.id,
      kind: inventoryItems.kind,
      name: inventoryItems.name,
      productStatus: inventoryItems.productStatus,
      approvalStatus: inventoryItems.approvalStatus,
    })
    .from(inventoryItems)
    .where(and(eq(inventoryItems.accountId, accountId), inArray(inventoryItems.id, ids)));
}

export async function insertAttendance(tx: TenantTx, row: AttendanceInsert): Promise<void> {
  await tx.insert(attendances).values(row);
}

export async function updateAttendance(
  tx: TenantTx,
  accountId: string,
  id: string,
  change: Partial<AttendanceInsert>,
): Promise<void> {
  await tx
    .update(attendances)
    .set({ ...change, updatedAt: new Date(), version: sql`${attendances.version} + 1` })
    .where(and(eq(attendances.accountId, accountId), eq(attendances.id, id)));
}

/** Soft delete: hidden everywhere from now on; the row, its lines, items and audit stay. */
export async function softDeleteAttendance(tx: TenantTx, accountId: string, id: string, userId: string): Promise<void> {
  const now = new Date();
  await tx
    .update(attendances)
    .set({
      deletedAt: now,
      deletedBy: userId,
      updatedAt: now,
      updatedBy: userId,
      version: sql`${attendances.version} + 1`,
    })
    .where(and(eq(attendances.accountId, accountId), eq(attendances.id, id)));
}

export async function insertLines(tx: TenantTx, rows: (typeof attendanceLines.$inferInsert)[]): Promise<void> {
  if (rows.length > 0) await tx.insert(attendanceLines).values(rows);
}

export async function insertItems(tx: TenantTx, rows: (typeof attendanceItems.$inferInsert)[]): Promise<void> {
  if (rows.length > 0) await tx.insert(attendanceItems).values(rows);
}

/** An edit replaces the lines and items: the old set is soft-deleted (kept, hidden). */
export async function retireLinesAndItems(
  tx: TenantTx,
  accountId: string,
  attendanceId: string,
  userId: string,
): Promise<void> {
  const now = new Date();
  await tx
    .update(attendanceLines)
    .set({ deletedAt: now, deletedBy: userId })
    .where(
      and(
        eq(attendanceLines.accountId, accountId),
        eq(attendanceLines.attendanceId, attendanceId),
        isNull(attendanceLines.deletedAt),
      ),
    );
  await tx
    .update(attendanceItems)
    .set({ deletedAt: now, deletedBy: userId })
    .where(
      and(
        eq(attendanceItems.accountId, accountId),
        eq(attendanceItems.attendanceId, attendanceId),
        isNull(attendanceItems.deletedAt),
      ),
    );
}

export async function insertAddendum(tx: TenantTx, row: typeof attendanceAddenda.$inferInsert): Promise<void> {
  await tx.insert(attendanceAddenda).values(row);
}
