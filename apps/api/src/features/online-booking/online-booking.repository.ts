import { and, asc, count, eq, inArray, isNull, lte, ne, type Placeholder, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { preparedQuery } from '../../db/prepared.ts';
import { accounts, appointments, onlineBookingHolds, treatments, users } from '../../db/schema/index.ts';
import { spanishKey } from '../../db/spanish-order.ts';
import type { SystemTx, TenantTx } from '../../db/tenancy.ts';

/** SQL of online booking (issue 37): the clinic's rules, bookable treatments, holds. Tenant context unless said. */

interface Scope {
  readonly tx: TenantTx;
  readonly accountId: string;
}

/** Locks the clinic's row for an edit of its rules (the version is checked after). */
export async function lockClinic({ tx, accountId }: Scope): Promise<void> {
  await tx.execute(sql`select 1 from accounts where id = ${accountId}::uuid for no key update`);
}

export async function updateRules(
  { tx, accountId }: Scope,
  values: {
    onlineBookingEnabled: boolean;
    onlineBookingProfessionalIds: string[];
    onlineBookingLeadHours: number;
    onlineBookingHorizonDays: number;
    onlineBookingMaxPending: number;
    onlineBookingNewPatients: boolean;
    onlineBookingChangeHours: number;
  },
): Promise<void> {
  await tx
    .update(accounts)
    .set({ ...values, updatedAt: new Date(), version: sql`${accounts.version} + 1` })
    .where(eq(accounts.id, accountId));
}

const liveTreatment = (accountId: string | Placeholder) =>
  and(eq(treatments.accountId, accountId), isNull(treatments.deletedAt), eq(treatments.active, true));

/** The clinic's active treatments (all, or the bookable ones), by name. */
export function treatmentOptions({ tx, accountId }: Scope, { bookableOnly }: { bookableOnly: boolean }) {
  return tx
    .select({
      id: treatments.id,
      name: treatments.name,
      durationMinutes: treatments.durationMinutes,
      bookable: treatments.bookableOnline,
    })
    .from(treatments)
    .where(and(liveTreatment(accountId), bookableOnly ? eq(treatments.bookableOnline, true) : undefined))
    .orderBy(asc(spanishKey(treatments.name)), asc(treatments.id))
    .limit(2000);
}

/** A bookable treatment: its name and duration (undefined when it is not offered online). */
// A booking's reads, on every booking and free-slot search: built once (db/prepared.ts).
const bookableTreatmentQuery = preparedQuery('online_booking_treatment', (db) =>
  (db as TenantTx)
    .select({ id: treatments.id, name: treatments.name, durationMinutes: treatments.durationMinutes })
    .from(treatments)
    .where(
      and(
        liveTreatment(sql.placeholder('accountId')),
        eq(treatments.id, sql.placeholder('id')),
        eq(treatments.bookableOnline, true),
      ),
    ),
);

export async function bookableTreatment({ tx, accountId }: Scope, id: string) {
  const [row] = await bookableTreatmentQuery(tx, { accountId, id });
  return row;
}

/** Which of `ids` are live treatments of the clinic. */
export async function existingTreatments({ tx, accountId }: Scope, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await tx
    .select({ id: treatments.id })
    .from(treatments)
    .where(and(eq(treatments.accountId, accountId), isNull(treatments.deletedAt), inArray(treatments.id, ids)));
  return rows.map((row) => row.id);
}

/** Flags exactly `ids` bookable; answers the ids whose flag changed. */
export async function setBookableTreatments({ tx, accountId }: Scope, ids: string[]): Promise<void> {
  const chosen = sql`${treatments.id} = any(${`{${ids.join(',')}}`}::uuid[])`;
  await tx
    .update(treatments)
    .set({ bookableOnline: sql`${chosen}` })
    .where(and(eq(treatments.accountId, accountId), sql`${treatments.bookableOnline} <> (${chosen})`));
}

/** The patient's upcoming scheduled appointments booked online. */
const upcomingOnlineQuery = preparedQuery('online_booking_upcoming', (db) =>
  (db as TenantTx)
    .select({ n: count() })
    .from(appointments)
    .where(
      and(
        eq(appointments.accountId, sql.placeholder('accountId')),
        eq(appointments.patientId, sql.placeholder('patientId')),
        isNull(appointments.deletedAt),
        eq(appointments.status, 'scheduled'),
        eq(appointments.origin, 'online'),
        sql`${appointments.startsAt} > ${sql.placeholder('now')}::timestamptz`,
      ),
    ),
);

export async function countUpcomingOnline({ tx, accountId }: Scope, patientId: string, now: Date): Promise<number> {
  const [row] = await upcomingOnlineQuery(tx, { accountId, patientId, now: now.toISOString() });
  return Number(row?.n ?? 0);
}

// ———————————————————————————————————————————— holds of the public page

/** Pending holds past their time become `expired`: they stop holding the slot and the e-mail. */
export async function expireHolds({ tx, accountId }: Scope, now: Date): Promise<void> {
  await tx
    .update(onlineBookingHolds)
    .set({ status: 'expired' })
    .where(
      and(
        eq(onlineBookingHolds.accountId, accountId),
        eq(onlineBookingHolds.status, 'pending'),
        lte(onlineBookingHolds.expiresAt, now),
      ),
    );
}

/** The pending, unexpired holds over [from, to): busy time of the free-slot search. */
const heldBetweenQuery = preparedQuery('online_booking_held', (db) =>
  (db as TenantTx)
    .select({
      professionalId: onlineBookingHolds.professionalId,
      startsAt: onlineBookingHolds.startsAt,
      endsAt: onlineBookingHolds.endsAt,
    })
    .from(onlineBookingHolds)
    .where(
      and(
        eq(onlineBookingHolds.accountId, sql.placeholder('accountId')),
        eq(onlineBookingHolds.status, 'pending'),
        sql`${onlineBookingHolds.expiresAt} > ${sql.placeholder('now')}::timestamptz`,
        // A hold lasts 12 h at most, like an appointment (treatments_duration).
        sql`${onlineBookingHolds.startsAt} > ${sql.placeholder('lookback')}::timestamptz`,
        sql`${onlineBookingHolds.startsAt} < ${sql.placeholder('to')}::timestamptz`,
        sql`${onlineBookingHolds.endsAt} > ${sql.placeholder('from')}::timestamptz`,
      ),
    ),
);

export function heldBetween({ tx, accountId }: Scope, range: { from: Date; to: Date; now: Date }) {
  return heldBetweenQuery(tx, {
    accountId,
    now: range.now.toISOString(),
    lookback: new Date(range.from.getTime() - 12 * 3_600_000).toISOString(),
    to: range.to.toISOString(),
    from: range.from.toISOString(),
  });
}

export async function insertHold(scope: Scope, row: Omit<typeof onlineBookingHolds.$inferInsert, 'accountId'>) {
  await scope.tx.insert(onlineBookingHolds).values({ ...row, accountId: scope.accountId });
}

/** The clinic of a hold's token: the one look-up across clinics (system context). */
export async function findHoldClinic(tx: SystemTx, tokenHash: string): Promise<string | undefined> {
  const [row] = await tx
    .select({ accountId: onlineBookingHolds.accountId })
    .from(onlineBookingHolds)
    .where(eq(onlineBookingHolds.tokenHash, tokenHash));
  return row?.accountId;
}

/** The hold of a token, locked (two clicks at once confirm once). */
export async function lockHold({ tx, accountId }: Scope, tokenHash: string) {
  const [row] = await tx
    .select()
    .from(onlineBookingHolds)
    .where(and(eq(onlineBookingHolds.accountId, accountId), eq(onlineBookingHolds.tokenHash, tokenHash)))
    .for('update');
  return row;
}

export async function markHoldConfirmed({ tx, accountId }: Scope, id: string, appointmentId: string) {
  await tx
    .update(onlineBookingHolds)
    .set({ status: 'confirmed', appointmentId })
    .where(and(eq(onlineBookingHolds.accountId, accountId), eq(onlineBookingHolds.id, id)));
}

export async function markHoldExpired({ tx, accountId }: Scope, id: string) {
  await tx
    .update(onlineBookingHolds)
    .set({ status: 'expired' })
    .where(and(eq(onlineBookingHolds.accountId, accountId), eq(onlineBookingHolds.id, id)));
}

const professional = alias(users, 'professional');

/** One appointment as its patient sees it (undefined: not theirs, or deleted). */
export async function findPatientAppointment({ tx, accountId }: Scope, patientId: string, id: string) {
  const [row] = await tx
    .select({
      id: appointments.id,
      startsAt: appointments.startsAt,
      endsAt: appointments.endsAt,
      timeZone: appointments.timeZone,
      status: appointments.status,
      treatmentId: appointments.treatmentId,
      treatmentName: treatments.name,
      professionalId: appointments.professionalId,
      professionalName: professional.completeName,
      confirmedAt: appointments.confirmedAt,
      origin: appointments.origin,
      chairId: appointments.chairId,
      reason: appointments.reason,
      notes: appointments.notes,
      version: appointments.version,
      patientId: appointments.patientId,
    })
    .from(appointments)
    .innerJoin(
      professional,
      and(eq(professional.accountId, appointments.accountId), eq(professional.id, appointments.professionalId)),
    )
    .leftJoin(
      treatments,
      and(eq(treatments.accountId, appointments.accountId), eq(treatments.id, appointments.treatmentId)),
    )
    .where(
      and(
        eq(appointments.accountId, accountId),
        eq(appointments.id, id),
        eq(appointments.patientId, patientId),
        isNull(appointments.deletedAt),
      ),
    );
  return row;
}
export type PatientAppointmentRow = NonNullable<Awaited<ReturnType<typeof findPatientAppointment>>>;

/** Whether `ids` are all active professionals (staff, not the portal's customer level) of the clinic. */
export async function activeStaff({ tx, accountId }: Scope, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await tx
    .select({ id: users.id })
    .from(users)
    .where(
      and(eq(users.accountId, accountId), eq(users.active, true), ne(users.level, 'customer'), inArray(users.id, ids)),
    );
  return rows.map((row) => row.id);
}
