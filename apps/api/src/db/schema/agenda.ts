import type { AppointmentStatus } from '@odontia/shared/enums';
import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { spanishKey } from '../spanish-order.ts';
import { clinicRowColumns } from './columns.ts';
import { patientRecordKeys } from './patients.ts';
import { clinicKeys, clinicRef, clinicSearchIndex, recordKeys, recordStamps, userRefs } from './records.ts';

/**
 * The agenda (issue 16): the clinic's treatments with their usual duration, its chairs (boxes),
 * opening hours and professionals' schedules with dated exceptions, and the appointments.
 * Appointments are never physically deleted; two active ones of the same professional or the
 * same chair never overlap — PostgreSQL's exclusion constraints (hand-written in the migration,
 * drizzle-kit has no EXCLUDE) refuse it, whatever the application does.
 */

/**
 * What the clinic does, how long it takes and what it costs: the appointment's reason (issue 16)
 * and the clinic's price list (issue 18) — budgets, attendances' billing lines and invoices pick
 * from it. `price` is net of VAT, in the clinic's currency; `vat_rate` a percent.
 */
export const treatments = pgTable(
  'treatments',
  {
    ...clinicRowColumns,
    code: text('code'),
    name: text('name').notNull(),
    /** The price list's group (Prevención, Endodoncia, Implantes…), free text the clinic chooses. */
    groupName: text('group_name'),
    price: numeric('price', { precision: 14, scale: 2 }).notNull().default('0'),
    vatRate: numeric('vat_rate', { precision: 5, scale: 2 }).notNull().default('0'),
    /** Issue 40: what the laboratory charges per unit of it (a crown, a prosthesis), deducted from a professional's settlement when the rule says so. */
    labCost: numeric('lab_cost', { precision: 14, scale: 2 }).notNull().default('0'),
    durationMinutes: integer('duration_minutes').notNull(),
    /** A calendar colour ('#0ea5e9'), or null for the status colour alone. */
    color: text('color'),
    active: boolean('active').notNull().default(true),
    /** Patients may book it online (issue 37), for `duration_minutes`. */
    bookableOnline: boolean('bookable_online').notNull().default(false),
    /** Recall rule (issue 38): "recall after" N days, weeks or months (both null: none), and its reason. */
    recallInterval: integer('recall_interval'),
    recallUnit: text('recall_unit'),
    recallReason: text('recall_reason'),
    searchText: text('search_text').generatedAlwaysAs(sql`odontia_search_text(code, name, group_name)`),
    ...recordStamps,
  },
  (table) => [
    ...recordKeys(table),
    // Spanish order (migration 0027): the price list sorted by name walks it.
    index('treatments_name_idx')
      .on(table.accountId, spanishKey(table.name), table.id)
      .where(sql`${table.deletedAt} is null`),
    uniqueIndex('treatments_code_unique')
      .on(table.accountId, sql`lower(${table.code})`)
      .where(sql`${table.deletedAt} is null and ${table.code} is not null`),
    clinicSearchIndex('treatments_search_idx', table),
    check('treatments_duration', sql`${table.durationMinutes} between 5 and 720`),
    check('treatments_price', sql`${table.price} >= 0 and ${table.vatRate} between 0 and 100`),
    check('treatments_lab_cost', sql`${table.labCost} >= 0`),
    // The bounds of packages/shared/src/recalls.ts (recallIntervalBounds): both or neither, up to five years.
    check(
      'treatments_recall_rule',
      sql`(${table.recallInterval} is null and ${table.recallUnit} is null) or (${table.recallUnit} = 'days' and ${table.recallInterval} between 1 and 1825) or (${table.recallUnit} = 'weeks' and ${table.recallInterval} between 1 and 260) or (${table.recallUnit} = 'months' and ${table.recallInterval} between 1 and 60)`,
    ),
    check('treatments_recall_reason', sql`char_length(${table.recallReason}) <= 200`),
  ],
);

/** A chair (sillón) or box: a column of the calendar when the clinic defines them. */
export const chairs = pgTable(
  'chairs',
  {
    ...clinicRowColumns,
    name: text('name').notNull(),
    sortOrder: integer('sort_order').notNull().default(0),
    active: boolean('active').notNull().default(true),
    ...recordStamps,
  },
  (table) => [
    ...recordKeys(table),
    index('chairs_order_idx').on(table.accountId, table.sortOrder, table.name).where(sql`${table.deletedAt} is null`),
  ],
);

/**
 * A week of hours: the clinic's opening hours (`professional_id` null) or one professional's
 * attendance schedule. `ranges` holds spec §3 "Schedule" rows —
 * `{ weekday, opening, closing, recessStart, recessEnd }`, wall-clock 'HH:MM' in the clinic's
 * zone, several per weekday where needed — so a week is saved (and versioned, audited) as one.
 */
export const schedules = pgTable(
  'schedules',
  {
    ...clinicRowColumns,
    professionalId: uuid('professional_id'),
    ranges: jsonb('ranges').notNull().default(sql`'[]'::jsonb`),
    ...recordStamps,
  },
  (table) => [
    ...recordKeys(table),
    ...userRefs(table, table.professionalId),
    uniqueIndex('schedules_owner_unique')
      .on(table.accountId, sql`coalesce(${table.professionalId}, '00000000-0000-0000-0000-000000000000'::uuid)`)
      .where(sql`${table.deletedAt} is null`),
  ],
);

/** A holiday, a vacation or a block: for the whole clinic (`professional_id` null) or one professional. */
export const scheduleExceptions = pgTable(
  'schedule_exceptions',
  {
    ...clinicRowColumns,
    professionalId: uuid('professional_id'),
    kind: text('kind').notNull(),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
    /** Whole clinic days (a holiday): `starts_at`/`ends_at` are the days' starts in the clinic's zone. */
    allDay: boolean('all_day').notNull().default(false),
    reason: text('reason'),
    ...recordStamps,
  },
  (table) => [
    ...recordKeys(table),
    ...userRefs(table, table.professionalId),
    index('schedule_exceptions_range_idx').on(table.accountId, table.startsAt).where(sql`${table.deletedAt} is null`),
    check('schedule_exceptions_kind', sql`${table.kind} in ('holiday', 'vacation', 'block')`),
    check('schedule_exceptions_range', sql`${table.endsAt} > ${table.startsAt}`),
  ],
);

export const appointments = pgTable(
  'appointments',
  {
    ...clinicRowColumns,
    patientId: uuid('patient_id').notNull(),
    professionalId: uuid('professional_id').notNull(),
    chairId: uuid('chair_id'),
    treatmentId: uuid('treatment_id'),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
    /** The clinic's IANA zone when it was booked: the wall-clock time the patient was told. */
    timeZone: text('time_zone').notNull(),
    reason: text('reason'),
    notes: text('notes'),
    status: text('status').$type<AppointmentStatus>().notNull().default('scheduled'),
    /** Booked on purpose outside the professional's hours or inside a block (the warning was confirmed). */
    outsideSchedule: boolean('outside_schedule').notNull().default(false),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    confirmationChannel: text('confirmation_channel'),
    /** The user who recorded the confirmation; null when the patient confirmed through the link. */
    confirmedBy: uuid('confirmed_by'),
    arrivedAt: timestamp('arrived_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    cancelReason: text('cancel_reason'),
    cancelNote: text('cancel_note'),
    /** Null when the patient cancelled through the link. */
    cancelledBy: uuid('cancelled_by'),
    /** A moved appointment: the old row is `rescheduled` and points at the new one, which points back. */
    rescheduledTo: uuid('rescheduled_to'),
    rescheduledFrom: uuid('rescheduled_from'),
    /** The attendance that completed it ("start attendance"). */
    attendanceId: uuid('attendance_id'),
    reminderState: text('reminder_state').notNull().default('none'),
    reminderSentAt: timestamp('reminder_sent_at', { withTimezone: true }),
    reminderError: text('reminder_error'),
    /** Who booked it: the staff in the agenda, or the patient online (portal or public page, issue 37). */
    origin: text('origin').notNull().default('staff'),
    ...recordStamps,
  },
  (table) => [
    ...patientRecordKeys(table, table.professionalId, table.confirmedBy, table.cancelledBy),
    clinicRef(table, table.chairId, chairs),
    clinicRef(table, table.treatmentId, treatments),
    /** The calendar's range read: starts within [from - 12 h, to) (an appointment lasts 12 h at most). */
    index('appointments_starts_idx')
      .on(table.accountId, table.startsAt, table.professionalId)
      .where(sql`${table.deletedAt} is null`),
    index('appointments_patient_idx')
      .on(table.accountId, table.patientId, table.startsAt.desc())
      .where(sql`${table.deletedAt} is null`),
    check('appointments_status', sql`${table.status} in ('scheduled', 'completed', 'cancelled', 'rescheduled')`),
    check(
      'appointments_range',
      sql`${table.endsAt} > ${table.startsAt} and ${table.endsAt} - ${table.startsAt} <= interval '12 hours'`,
    ),
    check(
      'appointments_cancel_reason',
      sql`${table.cancelReason} is null or ${table.cancelReason} in ('patient_request', 'no_show', 'professional_unavailable', 'clinic_closed', 'other')`,
    ),
    check(
      'appointments_confirmation_channel',
      sql`${table.confirmationChannel} is null or ${table.confirmationChannel} in ('phone', 'in_person', 'whatsapp', 'sms', 'email', 'reminder_link', 'online')`,
    ),
    check('appointments_origin', sql`${table.origin} in ('staff', 'online')`),
    check(
      'appointments_reminder_state',
      sql`${table.reminderState} in ('none', 'planned', 'sent', 'failed', 'confirmed', 'cancelled_by_patient')`,
    ),
  ],
);

/** The confirm and cancel links of a reminder: single-purpose, stored as a SHA-256 of the token. */
export const appointmentLinks = pgTable(
  'appointment_links',
  {
    ...clinicRowColumns,
    appointmentId: uuid('appointment_id').notNull(),
    purpose: text('purpose').notNull(),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    ...clinicKeys(table),
    clinicRef(table, table.appointmentId, appointments),
    uniqueIndex('appointment_links_token_hash_unique').on(table.tokenHash),
    index('appointment_links_appointment_idx').on(table.accountId, table.appointmentId),
    check('appointment_links_purpose', sql`${table.purpose} in ('confirm', 'cancel')`),
  ],
);

/**
 * A public online booking waiting for its e-mail to be confirmed (issue 37): it holds the slot
 * (an exclusion constraint among pending holds, hand-written in the migration) until
 * `expires_at`; the link (SHA-256 of the token) confirms it once, creating or matching the patient
 * and booking the appointment through the agenda. Expired holds are marked when the next hold of
 * the professional is written and never count as busy past `expires_at`.
 */
export const onlineBookingHolds = pgTable(
  'online_booking_holds',
  {
    ...clinicRowColumns,
    email: text('email').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    phone: text('phone').notNull(),
    idNumber: text('id_number').notNull(),
    sex: text('sex').notNull(),
    birthdate: date('birthdate', { mode: 'string' }).notNull(),
    language: text('language').notNull(),
    treatmentId: uuid('treatment_id').notNull(),
    professionalId: uuid('professional_id').notNull(),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
    status: text('status').notNull().default('pending'),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    appointmentId: uuid('appointment_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    ...clinicKeys(table),
    ...userRefs(table, table.professionalId),
    clinicRef(table, table.treatmentId, treatments),
    clinicRef(table, table.appointmentId, appointments),
    uniqueIndex('online_booking_holds_token_hash_unique').on(table.tokenHash),
    // One pending booking per e-mail and clinic.
    uniqueIndex('online_booking_holds_email_unique')
      .on(table.accountId, table.email)
      .where(sql`${table.status} = 'pending'`),
    index('online_booking_holds_starts_idx')
      .on(table.accountId, table.startsAt)
      .where(sql`${table.status} = 'pending'`),
    check('online_booking_holds_status', sql`${table.status} in ('pending', 'confirmed', 'expired')`),
    check('online_booking_holds_range', sql`${table.endsAt} > ${table.startsAt}`),
  ],
);

/**
 * The job queue (ARCHITECTURE §8: nothing another process needs lives in memory). A worker of
 * any instance claims due rows with `FOR UPDATE SKIP LOCKED`, so each job runs once; a failure
 * waits with backoff and, after `max_attempts`, stays `failed` for the screen to show. `key`
 * names what the job is about (an appointment's id), so a move or a cancel finds and drops it.
 */
export const jobs = pgTable(
  'jobs',
  {
    ...clinicRowColumns,
    kind: text('kind').notNull(),
    key: text('key').notNull(),
    payload: jsonb('payload').notNull().default(sql`'{}'::jsonb`),
    state: text('state').notNull().default('queued'),
    runAt: timestamp('run_at', { withTimezone: true }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(5),
    lockedBy: text('locked_by'),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    lastError: text('last_error'),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    ...clinicKeys(table),
    /** The workers' look-up across clinics: due work, oldest first (declared in db/clinic-indexes.ts). */
    index('jobs_due_idx').on(table.runAt).where(sql`${table.state} in ('queued', 'running')`),
    index('jobs_key_idx').on(table.accountId, table.kind, table.key),
    /** A clinic's due work, oldest first: the workers take a clinic's jobs in chunks (issue 38). */
    index('jobs_clinic_due_idx').on(table.accountId, table.runAt).where(sql`${table.state} in ('queued', 'running')`),
    check('jobs_state', sql`${table.state} in ('queued', 'running', 'done', 'failed', 'cancelled')`),
  ],
);
