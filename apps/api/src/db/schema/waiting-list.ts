import { sql } from 'drizzle-orm';
import { check, date, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { appointments, treatments } from './agenda.ts';
import { clinicRowColumns } from './columns.ts';
import { patientRecordKeys } from './patients.ts';
import { clinicKeys, clinicRef, recordStamps, userRefs } from './records.ts';

/**
 * The waiting list (issue 38): a patient waits for a treatment (its duration), with one
 * professional or any (`professional_id` null), on preferred weekdays and wall-clock time ranges
 * of the clinic's zone (empty: any), until an optional day. Removed entries are soft-deleted;
 * an entry that accepted an offer is `booked` with its appointment.
 */
export const waitingListEntries = pgTable(
  'waiting_list_entries',
  {
    ...clinicRowColumns,
    patientId: uuid('patient_id').notNull(),
    treatmentId: uuid('treatment_id').notNull(),
    professionalId: uuid('professional_id'),
    /** 'monday'… (enums.ts weekdays); empty: any day. */
    weekdays: text('weekdays').array().notNull().default(sql`'{}'::text[]`),
    /** [{ from: 'HH:MM', to: 'HH:MM' }]; empty: any time. */
    timeRanges: jsonb('time_ranges').notNull().default(sql`'[]'::jsonb`),
    until: date('until', { mode: 'string' }),
    /** 0 normal, 1 high: high first, then the order of arrival. */
    priority: integer('priority').notNull().default(0),
    notes: text('notes'),
    status: text('status').notNull().default('waiting'),
    appointmentId: uuid('appointment_id'),
    ...recordStamps,
  },
  (table) => [
    ...patientRecordKeys(table, table.professionalId),
    clinicRef(table, table.treatmentId, treatments),
    clinicRef(table, table.appointmentId, appointments),
    /** The list in its two orders: priority then arrival, and arrival alone. */
    index('waiting_list_entries_priority_idx')
      .on(table.accountId, table.status, table.priority.desc(), table.createdAt, table.id)
      .where(sql`${table.deletedAt} is null`),
    index('waiting_list_entries_arrival_idx')
      .on(table.accountId, table.status, table.createdAt, table.id)
      .where(sql`${table.deletedAt} is null`),
    index('waiting_list_entries_patient_idx')
      .on(table.accountId, table.patientId)
      .where(sql`${table.deletedAt} is null`),
    check('waiting_list_entries_status', sql`${table.status} in ('waiting', 'booked')`),
    check('waiting_list_entries_priority', sql`${table.priority} in (0, 1)`),
    check('waiting_list_entries_time_ranges', sql`jsonb_typeof(${table.timeRanges}) = 'array'`),
    check('waiting_list_entries_weekdays', sql`cardinality(${table.weekdays}) <= 7`),
    check('waiting_list_entries_notes', sql`char_length(${table.notes}) <= 1000`),
  ],
);

/**
 * A freed slot offered to an entry (issue 38): its hold lasts until `expires_at`; the e-mail
 * (jobs outbox, once) makes the link, whose SHA-256 is `token_hash`. The first acceptance books
 * the slot through the agenda's insert (its exclusion constraint decides); the others are `gone`.
 */
export const waitingListOffers = pgTable(
  'waiting_list_offers',
  {
    ...clinicRowColumns,
    entryId: uuid('entry_id').notNull(),
    professionalId: uuid('professional_id').notNull(),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
    status: text('status').notNull().default('offered'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    tokenHash: text('token_hash'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    answeredAt: timestamp('answered_at', { withTimezone: true }),
    appointmentId: uuid('appointment_id'),
    /** The staff who offered it by hand; null when it was offered as the slot freed. */
    createdBy: uuid('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    ...clinicKeys(table),
    clinicRef(table, table.entryId, waitingListEntries),
    clinicRef(table, table.appointmentId, appointments),
    ...userRefs(table, table.professionalId, table.createdBy),
    uniqueIndex('waiting_list_offers_token_hash_unique').on(table.tokenHash),
    index('waiting_list_offers_entry_idx').on(table.accountId, table.entryId, table.createdAt.desc()),
    /** Open offers over a range: busy time of online booking, the next freed slot's search. */
    index('waiting_list_offers_open_idx')
      .on(table.accountId, table.startsAt)
      .where(sql`${table.status} in ('offered', 'sent')`),
    check('waiting_list_offers_status', sql`${table.status} in ('offered', 'sent', 'accepted', 'expired', 'gone')`),
    check('waiting_list_offers_range', sql`${table.endsAt} > ${table.startsAt}`),
  ],
);
