import { sql } from 'drizzle-orm';
import { boolean, check, date, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { appointments, treatments } from './agenda.ts';
import { attendanceLines, attendances } from './clinical.ts';
import { clinicRowColumns } from './columns.ts';
import { patientRecordKeys } from './patients.ts';
import { clinicRef, lineKeys, recordStamps } from './records.ts';

/**
 * Recalls (issue 38): a finished attendance line whose treatment has a rule leaves one recall (the
 * line is its unique key: finishing again or an addendum never makes a second), due that long after
 * the attendance's day in the clinic. The front desk logs attempts, books it (an appointment) or
 * closes it with a reason; a newer recall of the same patient and treatment closes an open one as
 * `superseded`. Never deleted; every change audited.
 */
export const recalls = pgTable(
  'recalls',
  {
    ...clinicRowColumns,
    patientId: uuid('patient_id').notNull(),
    treatmentId: uuid('treatment_id').notNull(),
    professionalId: uuid('professional_id').notNull(),
    attendanceId: uuid('attendance_id').notNull(),
    attendanceLineId: uuid('attendance_line_id').notNull(),
    dueOn: date('due_on', { mode: 'string' }).notNull(),
    reason: text('reason'),
    status: text('status').notNull().default('pending'),
    appointmentId: uuid('appointment_id'),
    bookedAt: timestamp('booked_at', { withTimezone: true }),
    closedReason: text('closed_reason'),
    closeNote: text('close_note'),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
    ...recordStamps,
  },
  (table) => [
    ...patientRecordKeys(table, table.professionalId),
    clinicRef(table, table.treatmentId, treatments),
    clinicRef(table, table.attendanceId, attendances),
    clinicRef(table, table.attendanceLineId, attendanceLines),
    clinicRef(table, table.appointmentId, appointments),
    uniqueIndex('recalls_line_unique').on(table.accountId, table.attendanceLineId),
    // The list: one state (or the open ones) by due date.
    index('recalls_status_due_idx').on(table.accountId, table.status, table.dueOn, table.id),
    // The patient's open recalls; supersession and automatic booking look up (patient, treatment).
    index('recalls_patient_open_idx')
      .on(table.accountId, table.patientId, table.treatmentId, table.dueOn)
      .where(sql`${table.status} in ('pending', 'contacted')`),
    // The dashboard: recalls due in a period, whatever their state.
    index('recalls_due_idx').on(table.accountId, table.dueOn),
    check('recalls_status', sql`${table.status} in ('pending', 'contacted', 'booked', 'closed')`),
    check(
      'recalls_closed_reason',
      sql`${table.closedReason} is null or ${table.closedReason} in ('declined', 'unreachable', 'treated_elsewhere', 'other', 'superseded')`,
    ),
    check('recalls_booked', sql`(${table.status} = 'booked') = (${table.appointmentId} is not null)`),
    check('recalls_closed', sql`(${table.status} = 'closed') = (${table.closedReason} is not null)`),
    check('recalls_texts', sql`char_length(${table.reason}) <= 200 and char_length(${table.closeNote}) <= 1000`),
  ],
);

/** What the clinic did to reach the patient about a recall; written once, never changed. */
export const recallAttempts = pgTable(
  'recall_attempts',
  {
    ...clinicRowColumns,
    recallId: uuid('recall_id').notNull(),
    channel: text('channel').notNull(),
    outcome: text('outcome').notNull(),
    note: text('note'),
    automatic: boolean('automatic').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    createdBy: uuid('created_by'),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    deletedBy: uuid('deleted_by'),
  },
  (table) => [
    ...lineKeys(table, table.recallId, recalls),
    index('recall_attempts_recall_idx').on(table.accountId, table.recallId, table.createdAt),
    check('recall_attempts_channel', sql`${table.channel} in ('phone', 'message', 'email')`),
    check(
      'recall_attempts_outcome',
      sql`${table.outcome} in ('reached', 'no_answer', 'left_message', 'wrong_number', 'sent')`,
    ),
    check('recall_attempts_note', sql`char_length(${table.note}) <= 1000`),
  ],
);
