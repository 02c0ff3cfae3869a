import { and, asc, eq, getTableColumns, isNull, sql } from 'drizzle-orm';
import { liveWhere, type RecordScope, recordRepository } from '../../db/records.ts';
import {
  attendanceAddenda,
  attendanceItems,
  attendanceLines,
  attendances,
  inventoryItems,
  patients,
  users,
} from '../../db/schema/index.ts';
import { newestFirst } from '../clinical/clinical.repository.ts';

/**
 * A patient's attendances (tenant context), newest first from the patient index, with their
 * billing lines, supplies and medicines used, and addenda. The list reads only the attendance
 * rows (the total is stored), so its first page costs two queries whatever the history's length.
 */
export const attendancesRepository = recordRepository({
  table: attendances,
  scope: ['patientId'],
  people: { professionalName: attendances.professionalId },
  order: newestFirst(attendances.date, attendances.id),
});

export type AttendanceLineInsert = Omit<typeof attendanceLines.$inferInsert, 'accountId' | 'createdBy'>;
export type AttendanceItemInsert = Omit<typeof attendanceItems.$inferInsert, 'accountId' | 'createdBy'>;

export async function listLines({ tx, accountId }: RecordScope, attendanceId: string) {
  return tx
    .select()
    .from(attendanceLines)
    .where(liveWhere(attendanceLines, accountId, attendanceLines.attendanceId, attendanceId))
    .orderBy(asc(attendanceLines.position));
}

/** The supplies and medicines the attendance used, with the item names. */
export async function listItems({ tx, accountId }: RecordScope, attendanceId: string) {
  return tx
    .select({ ...getTableColumns(attendanceItems), name: inventoryItems.name })
    .from(attendanceItems)
    .innerJoin(
      inventoryItems,
      and(eq(inventoryItems.accountId, attendanceItems.accountId), eq(inventoryItems.id, attendanceItems.itemId)),
    )
    .where(liveWhere(attendanceItems, accountId, attendanceItems.attendanceId, attendanceId))
    .orderBy(asc(attendanceItems.createdAt), asc(attendanceItems.id));
}

export async function listAddenda({ tx, accountId }: RecordScope, attendanceId: string) {
  return tx
    .select({
      id: attendanceAddenda.id,
      text: attendanceAddenda.text,
      createdAt: attendanceAddenda.createdAt,
      userName: users.completeName,
    })
    .from(attendanceAddenda)
    .leftJoin(users, and(eq(users.accountId, attendanceAddenda.accountId), eq(users.id, attendanceAddenda.createdBy)))
    .where(liveWhere(attendanceAddenda, accountId, attendanceAddenda.attendanceId, attendanceId))
    .orderBy(asc(attendanceAddenda.createdAt), asc(attendanceAddenda.id));
}

/** The attendance's billing lines and items used, written by the actor. */
export async function insertLinesAndItems(
  ctx: RecordScope,
  lines: AttendanceLineInsert[],
  items: AttendanceItemInsert[],
): Promise<void> {
  const stamps = { accountId: ctx.accountId, createdBy: ctx.userId };
  if (lines.length > 0) await ctx.tx.insert(attendanceLines).values(lines.map((line) => ({ ...line, ...stamps })));
  if (items.length > 0) await ctx.tx.insert(attendanceItems).values(items.map((item) => ({ ...item, ...stamps })));
}

/** An edit replaces the lines and items: the old set is soft-deleted (kept, hidden). */
export async function retireLinesAndItems(ctx: RecordScope, attendanceId: string): Promise<void> {
  const retired = { deletedAt: new Date(), deletedBy: ctx.userId };
  await ctx.tx
    .update(attendanceLines)
    .set(retired)
    .where(liveWhere(attendanceLines, ctx.accountId, attendanceLines.attendanceId, attendanceId));
  await ctx.tx
    .update(attendanceItems)
    .set(retired)
    .where(liveWhere(attendanceItems, ctx.accountId, attendanceItems.attendanceId, attendanceId));
}

export async function insertAddendum(ctx: RecordScope, addendum: { id: string; attendanceId: string; text: string }) {
  await ctx.tx.insert(attendanceAddenda).values({ ...addendum, accountId: ctx.accountId, createdBy: ctx.userId });
}

/**
 * The clinic's latest attendances across patients (the dashboard), newest first, with the
 * patient's and the professional's names; deleted attendances and deleted patients left out.
 * One query. No index leads with (account_id, date): the planner walks the clinic's rows of the
 * primary key (account_id, id) and sorts the top N (docs/decisions.md: an index
 * `attendances (account_id, date desc, id desc) where deleted_at is null` is asked for).
 */
export async function listRecent({ tx, accountId }: RecordScope, limit: number) {
  return tx
    .select({
      id: attendances.id,
      patientId: attendances.patientId,
      patientName: sql<string>`${patients.firstName} || ' ' || ${patients.lastName}`,
      date: attendances.date,
      attendanceType: attendances.attendanceType,
      professionalId: attendances.professionalId,
      professionalName: users.completeName,
      titleResume: attendances.titleResume,
    })
    .from(attendances)
    .innerJoin(
      patients,
      and(
        eq(patients.accountId, attendances.accountId),
        eq(patients.id, attendances.patientId),
        isNull(patients.deletedAt),
      ),
    )
    .innerJoin(users, and(eq(users.accountId, attendances.accountId), eq(users.id, attendances.professionalId)))
    .where(and(eq(attendances.accountId, accountId), isNull(attendances.deletedAt)))
    .orderBy(...newestFirst(attendances.date, attendances.id))
    .limit(limit);
}
