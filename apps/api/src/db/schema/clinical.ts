import type { DiagnosisStatus, LaboratoryStatus } from '@odontia/shared/enums';
import type { PerioDentition, PerioExamStatus, PerioIndices, PerioTooth } from '@odontia/shared/perio';
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
  uuid,
} from 'drizzle-orm/pg-core';
import { treatments } from './agenda.ts';
import { clinicRowColumns } from './columns.ts';
import { inventoryItems } from './inventory.ts';
import { patientRecordKeys } from './patients.ts';
import { clinicRef, entryStamps, lineKeys, newestOfPatientIndex, recordStamps } from './records.ts';

/**
 * Clinical records of the medical history (issue 5): diagnoses, laboratory orders and
 * attendances with their billing lines, the supplies and medicines they used, and their addenda.
 * Never physically deleted (the app roles have no DELETE): "delete" sets `deleted_at`/`deleted_by`;
 * the lines and items an edit replaces are soft-deleted the same way, so nothing is lost, and
 * the audit keeps every version. Each list reads "a patient's records, newest first" from one
 * partial index.
 */

export const diagnoses = pgTable(
  'diagnoses',
  {
    ...clinicRowColumns,
    patientId: uuid('patient_id').notNull(),
    date: date('date', { mode: 'string' }).notNull(),
    professionalId: uuid('professional_id').notNull(),
    text: text('text').notNull(),
    icd10Code: text('icd10_code'),
    /** FDI numbers. */
    teeth: integer('teeth').array().notNull().default(sql`'{}'::integer[]`),
    status: text('status').$type<DiagnosisStatus>().notNull(),
    notes: text('notes'),
    ...recordStamps,
  },
  (table) => [
    ...patientRecordKeys(table, table.professionalId),
    newestOfPatientIndex('diagnoses_patient_idx', table, table.date),
    check('diagnoses_status', sql`${table.status} in ('active', 'resolved')`),
  ],
);

export const laboratories = pgTable(
  'laboratories',
  {
    ...clinicRowColumns,
    patientId: uuid('patient_id').notNull(),
    orderDate: date('order_date', { mode: 'string' }).notNull(),
    professionalId: uuid('professional_id').notNull(),
    laboratoryName: text('laboratory_name').notNull(),
    studies: text('studies').array().notNull(),
    instructions: text('instructions'),
    notes: text('notes'),
    status: text('status').$type<LaboratoryStatus>().notNull(),
    resultDate: date('result_date', { mode: 'string' }),
    result: text('result'),
    ...recordStamps,
  },
  (table) => [
    ...patientRecordKeys(table, table.professionalId),
    newestOfPatientIndex('laboratories_patient_idx', table, table.orderDate),
    check('laboratories_status', sql`${table.status} in ('ordered', 'sample_taken', 'result_received')`),
    check('laboratories_result_date', sql`${table.resultDate} is null or ${table.resultDate} >= ${table.orderDate}`),
  ],
);

export const attendances = pgTable(
  'attendances',
  {
    ...clinicRowColumns,
    patientId: uuid('patient_id').notNull(),
    date: timestamp('date', { withTimezone: true }).notNull(),
    attendanceType: text('attendance_type').notNull(),
    attendanceGroup: text('attendance_group').notNull(),
    specialization: text('specialization'),
    professionalId: uuid('professional_id').notNull(),
    titleResume: text('title_resume').notNull(),
    resume: text('resume'),
    detail: text('detail'),
    nextAppointment: date('next_appointment', { mode: 'string' }),
    finished: boolean('finished').notNull().default(false),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    resultDate: date('result_date', { mode: 'string' }),
    result: text('result'),
    billable: boolean('billable').notNull().default(false),
    attendanceFee: numeric('attendance_fee', { precision: 14, scale: 2 }).notNull().default('0'),
    /** attendance_fee + Σ line totals, computed by the server on every save. */
    totalBillable: numeric('total_billable', { precision: 14, scale: 2 }).notNull().default('0'),
    ...recordStamps,
  },
  (table) => [
    ...patientRecordKeys(table, table.professionalId),
    newestOfPatientIndex('attendances_patient_idx', table, table.date),
    /**
     * The clinic's latest attendances across patients: the dashboard's "seen recently" (issue 16).
     * Migration 0023 adds INCLUDE (patient_id), which drizzle-kit cannot express: the dashboard
     * counts a period's patients from the index alone.
     */
    index('attendances_recent_idx')
      .on(table.accountId, table.date.desc(), table.id.desc())
      .where(sql`${table.deletedAt} is null`),
    check('attendances_money', sql`${table.attendanceFee} >= 0 and ${table.totalBillable} >= 0`),
  ],
);

/**
 * Billing lines of an attendance; an edit soft-deletes the lines it changes or drops and writes
 * the new ones, and keeps (same id) those it leaves alone — an invoiced line (billed_sources) is
 * never changed or dropped.
 */
export const attendanceLines = pgTable(
  'attendance_lines',
  {
    ...clinicRowColumns,
    attendanceId: uuid('attendance_id').notNull(),
    position: integer('position').notNull(),
    description: text('description').notNull(),
    itemId: uuid('item_id'),
    /** The price list's treatment (issue 18), optionally on one tooth (FDI). */
    treatmentId: uuid('treatment_id'),
    tooth: text('tooth'),
    /**
     * The budget line this attendance carries out (what is done of a treatment plan). A foreign
     * key to document_lines written in migration 0018 (the commercial schema imports this one).
     */
    budgetLineId: uuid('budget_line_id'),
    quantity: integer('quantity').notNull(),
    price: numeric('price', { precision: 14, scale: 2 }).notNull(),
    total: numeric('total', { precision: 14, scale: 2 }).notNull(),
    ...entryStamps,
  },
  (table) => [
    ...lineKeys(table, table.attendanceId, attendances),
    clinicRef(table, table.itemId, inventoryItems),
    clinicRef(table, table.treatmentId, treatments),
    index('attendance_lines_budget_line_idx')
      .on(table.accountId, table.budgetLineId)
      .where(sql`${table.budgetLineId} is not null and ${table.deletedAt} is null`),
    index('attendance_lines_attendance_idx')
      .on(table.accountId, table.attendanceId, table.position)
      .where(sql`${table.deletedAt} is null`),
    check('attendance_lines_amounts', sql`${table.quantity} > 0 and ${table.price} >= 0 and ${table.total} >= 0`),
  ],
);

/** Supplies and medicines an attendance used (kind 'supply' | 'medication'), with their quantity. */
export const attendanceItems = pgTable(
  'attendance_items',
  {
    ...clinicRowColumns,
    attendanceId: uuid('attendance_id').notNull(),
    itemId: uuid('item_id').notNull(),
    kind: text('kind').notNull(),
    quantity: integer('quantity').notNull(),
    ...entryStamps,
  },
  (table) => [
    ...lineKeys(table, table.attendanceId, attendances),
    clinicRef(table, table.itemId, inventoryItems),
    index('attendance_items_attendance_idx')
      .on(table.accountId, table.attendanceId)
      .where(sql`${table.deletedAt} is null`),
    check('attendance_items_kind', sql`${table.kind} in ('supply', 'medication')`),
    check('attendance_items_quantity', sql`${table.quantity} > 0`),
  ],
);

/** Dated corrections of a finished attendance; never changed once written. */
export const attendanceAddenda = pgTable(
  'attendance_addenda',
  {
    ...clinicRowColumns,
    attendanceId: uuid('attendance_id').notNull(),
    text: text('text').notNull(),
    ...entryStamps,
  },
  (table) => [
    ...lineKeys(table, table.attendanceId, attendances),
    index('attendance_addenda_attendance_idx').on(table.accountId, table.attendanceId, table.createdAt),
  ],
);

/**
 * Periodontal exams (issue 41): one row per exam, its teeth one JSON value (checked by the
 * contract and by the checks below with the same bounds) and its indices computed on every save,
 * so the patient's history of exams reads the summary columns only (docs/decisions.md).
 * A closed exam never changes; a draft may be discarded (soft delete).
 */
export const perioExams = pgTable(
  'perio_exams',
  {
    ...clinicRowColumns,
    patientId: uuid('patient_id').notNull(),
    date: date('date', { mode: 'string' }).notNull(),
    professionalId: uuid('professional_id').notNull(),
    dentition: text('dentition').$type<PerioDentition>().notNull(),
    status: text('status').$type<PerioExamStatus>().notNull().default('draft'),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    closedBy: uuid('closed_by'),
    notes: text('notes'),
    teeth: jsonb('teeth').$type<PerioTooth[]>().notNull(),
    indices: jsonb('indices').$type<PerioIndices>().notNull(),
    ...recordStamps,
  },
  (table) => [
    ...patientRecordKeys(table, table.professionalId, table.closedBy),
    newestOfPatientIndex('perio_exams_patient_idx', table, table.date),
    check('perio_exams_dentition', sql`${table.dentition} in ('adult', 'primary', 'mixed')`),
    check(
      'perio_exams_status',
      sql`(${table.status} = 'draft' and ${table.closedAt} is null) or (${table.status} = 'closed' and ${table.closedAt} is not null)`,
    ),
    check('perio_exams_closed_kept', sql`${table.status} = 'draft' or ${table.deletedAt} is null`),
    check(
      'perio_exams_teeth',
      sql`jsonb_typeof(${table.teeth}) = 'array' and not jsonb_path_exists(${table.teeth}, '$[*].sites.*.depth ? (@ < 0 || @ > 15)') and not jsonb_path_exists(${table.teeth}, '$[*].sites.*.margin ? (@ < -10 || @ > 10)') and not jsonb_path_exists(${table.teeth}, '$[*].mobility ? (@ < 0 || @ > 3)') and not jsonb_path_exists(${table.teeth}, '$[*].furcation ? (@ < 1 || @ > 3)')`,
    ),
  ],
);
