import { and, asc, eq, getTableColumns, inArray, isNull, sql } from 'drizzle-orm';
import { liveWhere, type RecordScope, recordRepository, sameClinicRow } from '../../db/records.ts';
import {
  attendanceAddenda,
  attendanceItems,
  attendanceLines,
  attendances,
  billedSources,
  inventoryItems,
  patients,
  treatments,
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

/** The live lines, with the price list's code and name of their treatment. */
export async function listLines({ tx, accountId }: RecordScope, attendanceId: string) {
  return tx
    .select({
      ...getTableColumns(attendanceLines),
      treatmentCode: treatments.code,
      treatmentName: treatments.name,
    })
    .from(attendanceLines)
    .leftJoin(treatments, sameClinicRow(treatments, attendanceLines, attendanceLines.treatmentId))
    .where(liveWhere(attendanceLines, accountId, attendanceLines.attendanceId, attendanceId))
    .orderBy(asc(attendanceLines.position));
}

/** What an issued invoice bills of the attendance: its fee, and which of these lines. */
export async function billedOf(
  { tx, accountId }: RecordScope,
  attendanceId: string,
  lineIds: string[],
): Promise<{ fee: boolean; lineIds: Set<string> }> {
  const rows = await tx
    .select({ sourceKind: billedSources.sourceKind, sourceId: billedSources.sourceId })
    .from(billedSources)
    .where(
      and(
        eq(billedSources.accountId, accountId),
        sql`(${billedSources.sourceKind} = 'attendance_fee' and ${billedSources.sourceId} = ${attendanceId})
          or (${billedSources.sourceKind} = 'attendance_line' and ${billedSources.sourceId} in (${sql.join(
            [sql`null::uuid`, ...lineIds.map((id) => sql`${id}::uuid`)],
            sql`, `,
          )}))`,
      ),
    );
  return {
    fee: rows.some((row) => row.sourceKind === 'attendance_fee'),
    lineIds: new Set(rows.filter((row) => row.sourceKind === 'attendance_line').map((row) => row.sourceId)),
  };
}

/** Which of these ids are live treatments of the price list. */
export async function existingTreatments({ tx, accountId }: RecordScope, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await tx
    .select({ id: treatments.id })
    .from(treatments)
    .where(and(eq(treatments.accountId, accountId), inArray(treatments.id, ids), isNull(treatments.deletedAt)));
  return new Set(rows.map((row) => row.id));
}

/** The patient's accepted budgets: issued sales of type budget with an 'accepted' decision. */
const acceptedBudgetLines = (accountId: string, patientId: string) => sql`
  document_lines l
  join commercial_documents d on d.account_id = l.account_id and d.id = l.document_id
  where l.account_id = ${accountId}::uuid
    and d.side = 'sale' and d.document_type = 'budget' and d.status = 'issued' and d.deleted_at is null
    and d.patient_id = ${patientId}::uuid
    and exists (
      select 1 from budget_decisions b
      where b.account_id = d.account_id and b.document_id = d.id and b.decision = 'accepted'
    )`;

/** Which of these ids are lines of the patient's accepted budgets. */
export async function acceptedBudgetLineIds(
  { tx, accountId }: RecordScope,
  patientId: string,
  ids: string[],
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const { rows } = await tx.execute<{ id: string }>(sql`
    select l.id from ${acceptedBudgetLines(accountId, patientId)}
      and l.id in (${sql.join(
        ids.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})`);
  return new Set(rows.map((row) => row.id));
}

export type PendingBudgetLineRow = {
  id: string;
  budget_id: string;
  point_of_service: string | null;
  sequence_number: number | null;
  budget_date: string;
  description: string;
  treatment_id: string | null;
  treatment_code: string | null;
  tooth: string | null;
  quantity: string;
  done: string;
  unit_price: string;
  linked: boolean;
};

/**
 * The lines of the patient's accepted budgets with what live attendances did of them (without
 * `exceptAttendanceId`'s lines), not invoiced, and either pending or linked by that attendance.
 */
export async function pendingBudgetLines(
  { tx, accountId }: RecordScope,
  patientId: string,
  exceptAttendanceId: string | null,
): Promise<PendingBudgetLineRow[]> {
  const except = exceptAttendanceId ? sql`${exceptAttendanceId}::uuid` : sql`null::uuid`;
  const { rows } = await tx.execute<PendingBudgetLineRow>(sql`
    select * from (
      select l.id, d.id as budget_id, d.point_of_service, d.sequence_number, d.date::text as budget_date,
        l.description, l.treatment_id,
        (select t.code from treatments t where t.account_id = l.account_id and t.id = l.treatment_id) as treatment_code, l.tooth, l.quantity::text as quantity,
        l.unit_price::text as unit_price, l.position, d.date,
        coalesce((
          select sum(al.quantity) from attendance_lines al
          join attendances a on a.account_id = al.account_id and a.id = al.attendance_id and a.deleted_at is null
          where al.account_id = l.account_id and al.budget_line_id = l.id and al.deleted_at is null
            and al.attendance_id is distinct from ${except}
        ), 0)::text as done,
        exists (
          select 1 from attendance_lines al
          where al.account_id = l.account_id and al.budget_line_id = l.id and al.deleted_at is null
            and al.attendance_id = ${except}
        ) as linked,
        exists (
          select 1 from billed_sources bs
          where bs.account_id = l.account_id and bs.source_kind = 'budget_line' and bs.source_id = l.id
        ) as billed
      from ${acceptedBudgetLines(accountId, patientId)}
    ) x
    where x.linked or (not x.billed and x.done::numeric < x.quantity::numeric)
    order by x.date, x.budget_id, x.position`);
  return rows;
}

/** The supplies and medicines the attendance used, with the item names. */
export async function listItems({ tx, accountId }: RecordScope, attendanceId: string) {
  return tx
    .select({ ...getTableColumns(attendanceItems), name: inventoryItems.name })
    .from(attendanceItems)
    .innerJoin(inventoryItems, sameClinicRow(inventoryItems, attendanceItems, attendanceItems.itemId))
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
    .leftJoin(users, sameClinicRow(users, attendanceAddenda, attendanceAddenda.createdBy))
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

/**
 * An edit retires the lines it changed or dropped (soft-deleted: kept, hidden) and every item
 * used (the new set is written again).
 */
export async function retireLinesAndItems(ctx: RecordScope, attendanceId: string, lineIds: string[]): Promise<void> {
  const retired = { deletedAt: new Date(), deletedBy: ctx.userId };
  if (lineIds.length > 0) {
    await ctx.tx
      .update(attendanceLines)
      .set(retired)
      .where(
        and(
          liveWhere(attendanceLines, ctx.accountId, attendanceLines.attendanceId, attendanceId),
          inArray(attendanceLines.id, lineIds),
        ),
      );
  }
  await ctx.tx
    .update(attendanceItems)
    .set(retired)
    .where(liveWhere(attendanceItems, ctx.accountId, attendanceItems.attendanceId, attendanceId));
}

/** A kept line moved in the list. */
export async function moveLine(ctx: RecordScope, lineId: string, position: number): Promise<void> {
  await ctx.tx
    .update(attendanceLines)
    .set({ position })
    .where(and(eq(attendanceLines.accountId, ctx.accountId), eq(attendanceLines.id, lineId)));
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
    .innerJoin(patients, and(sameClinicRow(patients, attendances, attendances.patientId), isNull(patients.deletedAt)))
    .innerJoin(users, sameClinicRow(users, attendances, attendances.professionalId))
    .where(and(eq(attendances.accountId, accountId), isNull(attendances.deletedAt)))
    .orderBy(...newestFirst(attendances.date, attendances.id))
    .limit(limit);
}
