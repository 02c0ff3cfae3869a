import type { AppointmentStatus } from '@odontia/shared/enums';
import { and, asc, count, desc, eq, gt, gte, inArray, isNull, lt, ne, notInArray, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { searchCondition } from '../../db/indexed-search.ts';
import { preparedQuery } from '../../db/prepared.ts';
import { type RecordScope, recordRepository, sameClinicRow } from '../../db/records.ts';
import { appointments, chairs, patients, treatments, users } from '../../db/schema/index.ts';
import { spanishKey } from '../../db/spanish-order.ts';
import type { TenantTx } from '../../db/tenancy.ts';
import { appointmentLabWarningSql } from '../lab-cases/lab-cases.repository.ts';
import { patientContactColumns } from '../patients/patient-contact.ts';

/**
 * The clinic's appointments (issue 16). Writes go through `recordRepository` (the clinic, the
 * author, the version); reads are one query per page joining everything the calendar shows — the
 * patient's name and phone, the professional, the chair, the treatment, who confirmed and who
 * cancelled — never a query per row.
 */

export const appointmentsRepository = recordRepository({
  table: appointments,
  scope: [],
  people: { professionalName: appointments.professionalId },
  order: [asc(appointments.startsAt), asc(appointments.id)],
});

export type AppointmentRow = typeof appointments.$inferSelect;

/** The longest appointment (the database checks it): a range read looks this far back for starts. */
const longestMs = 12 * 3_600_000;

const professional = alias(users, 'appointment_professional');
const confirmer = alias(users, 'appointment_confirmer');
const canceller = alias(users, 'appointment_canceller');
const creator = alias(users, 'appointment_creator');
const updater = alias(users, 'appointment_updater');

function selectNamed(tx: TenantTx) {
  return tx
    .select({
      row: appointments,
      ...patientContactColumns,
      professionalName: professional.completeName,
      chairName: chairs.name,
      treatmentName: treatments.name,
      treatmentColor: treatments.color,
      confirmedByName: confirmer.completeName,
      cancelledByName: canceller.completeName,
      createdByName: creator.completeName,
      updatedByName: updater.completeName,
    })
    .from(appointments)
    .innerJoin(patients, sameClinicRow(patients, appointments, appointments.patientId))
    .innerJoin(professional, sameClinicRow(professional, appointments, appointments.professionalId))
    .leftJoin(chairs, sameClinicRow(chairs, appointments, appointments.chairId))
    .leftJoin(treatments, sameClinicRow(treatments, appointments, appointments.treatmentId))
    .leftJoin(confirmer, sameClinicRow(confirmer, appointments, appointments.confirmedBy))
    .leftJoin(canceller, sameClinicRow(canceller, appointments, appointments.cancelledBy))
    .leftJoin(creator, sameClinicRow(creator, appointments, appointments.createdBy))
    .leftJoin(updater, sameClinicRow(updater, appointments, appointments.updatedBy))
    .$dynamic();
}

export type NamedAppointmentRow = Awaited<ReturnType<ReturnType<typeof selectNamed>['execute']>>[number];

const live = (accountId: string) => and(eq(appointments.accountId, accountId), isNull(appointments.deletedAt));
const active = inArray(appointments.status, ['scheduled', 'completed']);

/**
 * One appointment with its names, prepared (db/prepared.ts): every agenda write answers with it,
 * and planning its eight joins under row-level security took ~10 ms, ten times running them.
 */
const namedQuery = preparedQuery('appointments_named', (db) =>
  selectNamed(db as TenantTx).where(
    and(
      eq(appointments.accountId, sql.placeholder('accountId')),
      isNull(appointments.deletedAt),
      eq(appointments.id, sql.placeholder('id')),
    ),
  ),
);

export async function findNamed(ctx: RecordScope, id: string): Promise<NamedAppointmentRow | undefined> {
  const [row] = await namedQuery(ctx.tx, { accountId: ctx.accountId, id });
  return row;
}

/** The live row locked for a write. */
export async function findForUpdate(ctx: RecordScope, id: string): Promise<AppointmentRow | undefined> {
  return appointmentsRepository.findForUpdate(ctx, {}, id);
}

/** Overlaps [from, to): starts within [from - 12 h, to) (the starts index), ends after from. */
function overlapping(from: Date, to: Date): SQL {
  return and(
    gte(appointments.startsAt, new Date(from.getTime() - longestMs)),
    lt(appointments.startsAt, to),
    gt(appointments.endsAt, from),
  ) as SQL;
}

export interface CalendarFilter {
  from: Date;
  to: Date;
  professionalIds?: string[] | undefined;
  chairIds?: string[] | undefined;
  inactive: boolean;
  /** The clinic's today and time zone (the lab cases' seating warning). */
  today: string;
  timeZone: string;
}

/**
 * The calendar's read, built once and prepared (db/prepared.ts): every screen of the agenda asks
 * it, and planning the joins costs as much as running them. The filters are parameters (a list
 * as one array, null for "all"), so the text never changes. Only what a calendar block needs
 * (`calendarAppointmentSchema`): a week of ten professionals is about 1,250 rows.
 */
const calendarQuery = preparedQuery('appointments_calendar', (db) =>
  (db as TenantTx)
    .select({
      id: appointments.id,
      patientId: appointments.patientId,
      patientName: patientContactColumns.patientName,
      patientPhone: patientContactColumns.patientPhone,
      professionalId: appointments.professionalId,
      professionalName: professional.completeName,
      chairId: appointments.chairId,
      chairName: chairs.name,
      treatmentId: appointments.treatmentId,
      treatmentName: treatments.name,
      treatmentColor: treatments.color,
      startsAt: appointments.startsAt,
      endsAt: appointments.endsAt,
      reason: appointments.reason,
      notes: appointments.notes,
      status: appointments.status,
      outsideSchedule: appointments.outsideSchedule,
      confirmedAt: appointments.confirmedAt,
      arrivedAt: appointments.arrivedAt,
      cancelReason: appointments.cancelReason,
      reminderState: appointments.reminderState,
      origin: appointments.origin,
      version: appointments.version,
      // Issue 41: a lab case to seat here is not back by the day before (the clinic's today and zone).
      labCaseWarning: appointmentLabWarningSql(
        sql`${sql.placeholder('today')}`,
        sql`${sql.placeholder('timeZone')}::text`,
      ),
    })
    .from(appointments)
    .innerJoin(patients, sameClinicRow(patients, appointments, appointments.patientId))
    .innerJoin(professional, sameClinicRow(professional, appointments, appointments.professionalId))
    .leftJoin(chairs, sameClinicRow(chairs, appointments, appointments.chairId))
    .leftJoin(treatments, sameClinicRow(treatments, appointments, appointments.treatmentId))
    .where(
      and(
        eq(appointments.accountId, sql.placeholder('accountId')),
        isNull(appointments.deletedAt),
        sql`${appointments.startsAt} >= ${sql.placeholder('lookback')}::timestamptz`,
        sql`${appointments.startsAt} < ${sql.placeholder('to')}::timestamptz`,
        sql`${appointments.endsAt} > ${sql.placeholder('from')}::timestamptz`,
        sql`(${sql.placeholder('inactive')}::boolean or ${appointments.status} in ('scheduled', 'completed'))`,
        sql`((${sql.placeholder('professionalIds')}::uuid[] is null and ${sql.placeholder('chairIds')}::uuid[] is null)
          or ${appointments.professionalId} = any(${sql.placeholder('professionalIds')}::uuid[])
          or ${appointments.chairId} = any(${sql.placeholder('chairIds')}::uuid[]))`,
      ),
    )
    .orderBy(asc(appointments.startsAt), asc(appointments.id)),
);

/** A row of `calendarQuery`. */
export interface CalendarRow {
  id: string;
  patientId: string;
  patientName: string;
  patientPhone: string | null;
  professionalId: string;
  professionalName: string;
  chairId: string | null;
  chairName: string | null;
  treatmentId: string | null;
  treatmentName: string | null;
  treatmentColor: string | null;
  startsAt: Date;
  endsAt: Date;
  reason: string | null;
  notes: string | null;
  status: AppointmentStatus;
  outsideSchedule: boolean;
  confirmedAt: Date | null;
  arrivedAt: Date | null;
  cancelReason: string | null;
  reminderState: string;
  origin: string;
  version: number;
  labCaseWarning: boolean;
}

/** A list of ids as one array parameter ('{a,b}'), or null when there is none. */
const idArray = (ids: string[] | undefined) => (ids?.length ? `{${ids.join(',')}}` : null);

/** The calendar's range: every appointment overlapping [from, to), in start order. */
export function calendar(ctx: RecordScope, filter: CalendarFilter): Promise<CalendarRow[]> {
  return calendarQuery(ctx.tx, {
    accountId: ctx.accountId,
    lookback: new Date(filter.from.getTime() - longestMs).toISOString(),
    from: filter.from.toISOString(),
    to: filter.to.toISOString(),
    inactive: filter.inactive,
    professionalIds: idArray(filter.professionalIds),
    chairIds: idArray(filter.chairIds),
    today: filter.today,
    timeZone: filter.timeZone,
  }) as Promise<CalendarRow[]>;
}

export interface ListFilter {
  q?: string | undefined;
  status?: AppointmentStatus | undefined;
  professionalId?: string | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
  sort?: 'startsAt' | '-startsAt' | undefined;
  page: number;
  pageSize: number;
}

/** The searchable list: one query for the page (the patient's search key joined), one to count. */
export async function list(ctx: RecordScope, filter: ListFilter) {
  const where = and(
    live(ctx.accountId),
    searchCondition(patients.searchText, filter.q),
    filter.status ? eq(appointments.status, filter.status) : undefined,
    filter.professionalId ? eq(appointments.professionalId, filter.professionalId) : undefined,
    filter.from ? gte(appointments.startsAt, filter.from) : undefined,
    filter.to ? lt(appointments.startsAt, filter.to) : undefined,
  );
  const order =
    filter.sort === '-startsAt'
      ? [desc(appointments.startsAt), desc(appointments.id)]
      : [asc(appointments.startsAt), asc(appointments.id)];
  const rows = await selectNamed(ctx.tx)
    .where(where)
    .orderBy(...order)
    .limit(filter.pageSize)
    .offset((filter.page - 1) * filter.pageSize);
  const [total] = await ctx.tx
    .select({ n: count() })
    .from(appointments)
    .innerJoin(patients, sameClinicRow(patients, appointments, appointments.patientId))
    .where(where);
  return { rows, total: total?.n ?? 0 };
}

/** A patient's appointments: the next ones soonest first, then the past ones newest first. */
export async function ofPatient(
  ctx: RecordScope,
  patientId: string,
  page: { page: number; pageSize: number },
  now: Date,
) {
  // One row per appointment: a move's old link (rescheduled) is the same appointment as its current one.
  const where = and(live(ctx.accountId), eq(appointments.patientId, patientId), ne(appointments.status, 'rescheduled'));
  const upcoming = gte(appointments.startsAt, now);
  const rows = await selectNamed(ctx.tx)
    .where(where)
    .orderBy(
      sql`case when ${upcoming} then 0 else 1 end`,
      sql`case when ${upcoming} then ${appointments.startsAt} end asc`,
      desc(appointments.startsAt),
      asc(appointments.id),
    )
    .limit(page.pageSize)
    .offset((page.page - 1) * page.pageSize);
  const [total] = await ctx.tx.select({ n: count() }).from(appointments).where(where);
  return { rows, total: total?.n ?? 0 };
}

/**
 * The active appointment of the professional (or of the chair) that overlaps [start, end), but
 * `except`: who holds the time when the exclusion constraint refused a write.
 */
export async function findOverlapping(
  ctx: RecordScope,
  slot: { start: Date; end: Date; professionalId: string; chairId: string | null; except: string[] },
): Promise<{ resource: 'professional' | 'chair'; row: NamedAppointmentRow } | undefined> {
  const base = and(
    live(ctx.accountId),
    active,
    overlapping(slot.start, slot.end),
    lt(appointments.startsAt, slot.end),
    slot.except.length ? notInArray(appointments.id, slot.except) : undefined,
  );
  const [byProfessional] = await selectNamed(ctx.tx)
    .where(and(base, eq(appointments.professionalId, slot.professionalId)))
    .orderBy(asc(appointments.startsAt))
    .limit(1);
  if (byProfessional) return { resource: 'professional', row: byProfessional };
  if (!slot.chairId) return undefined;
  const [byChair] = await selectNamed(ctx.tx)
    .where(and(base, eq(appointments.chairId, slot.chairId)))
    .orderBy(asc(appointments.startsAt))
    .limit(1);
  return byChair ? { resource: 'chair', row: byChair } : undefined;
}

/** Whether the chair (or treatment) is the clinic's, live and active. */
export async function chairExists(tx: TenantTx, accountId: string, id: string): Promise<boolean> {
  const rows = await tx
    .select({ id: chairs.id })
    .from(chairs)
    .where(and(eq(chairs.accountId, accountId), eq(chairs.id, id), isNull(chairs.deletedAt), eq(chairs.active, true)));
  return rows.length > 0;
}

export async function treatmentExists(tx: TenantTx, accountId: string, id: string): Promise<boolean> {
  const rows = await tx
    .select({ id: treatments.id })
    .from(treatments)
    .where(
      and(
        eq(treatments.accountId, accountId),
        eq(treatments.id, id),
        isNull(treatments.deletedAt),
        eq(treatments.active, true),
      ),
    );
  return rows.length > 0;
}

/** Whether the patient has an e-mail address (a reminder can go out). */
/**
 * The clinic's live patient a booking is for, share-locked until the transaction ends (never booked
 * while being deleted), with whether it has an e-mail (its reminder): one read for both.
 */
const patientForBookingQuery = preparedQuery('appointments_patient_for_booking', (db) =>
  (db as TenantTx)
    .select({ email: patients.email })
    .from(patients)
    .where(
      and(
        eq(patients.accountId, sql.placeholder('accountId')),
        eq(patients.id, sql.placeholder('patientId')),
        isNull(patients.deletedAt),
      ),
    )
    .for('share'),
);

export async function lockPatientForBooking(
  tx: TenantTx,
  accountId: string,
  patientId: string,
): Promise<{ hasEmail: boolean } | undefined> {
  const [row] = await patientForBookingQuery(tx, { accountId, patientId });
  return row && { hasEmail: Boolean(row.email) };
}

export async function patientHasEmail(tx: TenantTx, accountId: string, patientId: string): Promise<boolean> {
  const [row] = await tx
    .select({ email: patients.email })
    .from(patients)
    .where(and(eq(patients.accountId, accountId), eq(patients.id, patientId)));
  return Boolean(row?.email);
}

/** The next scheduled appointment of each patient of a page, in one query (appointments_patient_idx). */
export async function nextOfPatients(
  tx: TenantTx,
  accountId: string,
  patientIds: string[],
  now: Date,
): Promise<Map<string, { id: string; startsAt: string; professionalName: string }>> {
  const found = new Map<string, { id: string; startsAt: string; professionalName: string }>();
  if (patientIds.length === 0) return found;
  const rows = await tx
    .selectDistinctOn([appointments.patientId], {
      patientId: appointments.patientId,
      id: appointments.id,
      startsAt: appointments.startsAt,
      professionalName: users.completeName,
    })
    .from(appointments)
    .innerJoin(users, sameClinicRow(users, appointments, appointments.professionalId))
    .where(
      and(
        live(accountId),
        inArray(appointments.patientId, patientIds),
        eq(appointments.status, 'scheduled'),
        gte(appointments.startsAt, now),
      ),
    )
    .orderBy(appointments.patientId, asc(appointments.startsAt));
  for (const row of rows) {
    found.set(row.patientId, {
      id: row.id,
      startsAt: row.startsAt.toISOString(),
      professionalName: row.professionalName,
    });
  }
  return found;
}

/** The professionals free slots are searched for: the named one, or every active non-customer user. */
export async function activeProfessionals(tx: TenantTx, accountId: string, professionalId?: string) {
  return tx
    .select({ id: users.id, name: users.completeName })
    .from(users)
    .where(
      and(
        eq(users.accountId, accountId),
        eq(users.active, true),
        ne(users.level, 'customer'),
        professionalId ? eq(users.id, professionalId) : undefined,
      ),
    )
    .orderBy(asc(spanishKey(users.completeName)), asc(users.id))
    .limit(500);
}

/** The busy time of professionals (and a chair) within [from, to): active appointments. */
export async function busyBetween(
  tx: TenantTx,
  accountId: string,
  range: { from: Date; to: Date; professionalIds: string[]; chairId?: string | undefined },
): Promise<{ professionalId: string | null; start: number; end: number }[]> {
  // Merged in PostgreSQL (range_agg): a month of a busy agenda is thousands of appointments but
  // tens of busy stretches per professional, and each row the API receives costs it more than
  // PostgreSQL takes to merge it (issue 37's bench). Milliseconds since the epoch, as numbers.
  // A chair's own appointments come merged apart (professionalId null): busy for everyone.
  const stretches = (owner: SQL, who: SQL) => sql`
    select owner as "professionalId",
           (extract(epoch from lower(stretch)) * 1000)::float8 as "start",
           (extract(epoch from upper(stretch)) * 1000)::float8 as "end"
    from (
      select ${owner} as owner, unnest(range_agg(tstzrange(${appointments.startsAt}, ${appointments.endsAt}))) as stretch
      from ${appointments}
      where ${and(live(accountId), active, overlapping(range.from, range.to), who)}
      group by 1
    ) merged`;
  const ofProfessionals = stretches(
    sql`${appointments.professionalId}`,
    inArray(appointments.professionalId, range.professionalIds),
  );
  const query = range.chairId
    ? sql`${ofProfessionals} union all ${stretches(sql`null::uuid`, eq(appointments.chairId, range.chairId))}`
    : ofProfessionals;
  const result = await tx.execute<{ professionalId: string | null; start: number; end: number }>(query);
  return result.rows;
}
