import { sql } from 'drizzle-orm';
import { check, date, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { appointments } from './agenda.ts';
import { clinicRowColumns } from './columns.ts';
import { commercialDocuments, providers } from './commercial.ts';
import { patientRecordKeys } from './patients.ts';
import { clinicKeys, clinicRef, recordStamps, userRefs } from './records.ts';
import { treatmentPlanItems } from './treatment-plans.ts';

/**
 * Dental lab cases (issue 41): a crown, bridge, denture… a dental laboratory (a provider) makes
 * for a patient, its state (draft → sent → received → checked → seated; returned for a remake →
 * sent again; cancelled) and its dates. Clinical rows: never deleted (the migration revokes
 * DELETE); a case is cancelled instead. Each step is also a row of `lab_case_events`.
 */
export const labCases = pgTable(
  'lab_cases',
  {
    ...clinicRowColumns,
    patientId: uuid('patient_id').notNull(),
    providerId: uuid('provider_id').notNull(),
    workType: text('work_type').notNull(),
    teeth: integer('teeth').array().notNull().default(sql`'{}'::integer[]`),
    shade: text('shade'),
    material: text('material'),
    instructions: text('instructions'),
    notes: text('notes'),
    status: text('status').notNull().default('draft'),
    sentOn: date('sent_on', { mode: 'string' }),
    dueOn: date('due_on', { mode: 'string' }),
    receivedOn: date('received_on', { mode: 'string' }),
    checkedOn: date('checked_on', { mode: 'string' }),
    seatedOn: date('seated_on', { mode: 'string' }),
    remakeCount: integer('remake_count').notNull().default(0),
    returnReason: text('return_reason'),
    cancelReason: text('cancel_reason'),
    /** The appointment where it is (to be) seated: the patient's. */
    appointmentId: uuid('appointment_id'),
    /** The lab's invoice: a purchase of the same provider. */
    purchaseId: uuid('purchase_id'),
    /** The item of the patient's accepted treatment plan the work is for (a crown on 36…). */
    treatmentPlanItemId: uuid('treatment_plan_item_id'),
    ...recordStamps,
  },
  (table) => [
    ...patientRecordKeys(table),
    clinicRef(table, table.providerId, providers),
    clinicRef(table, table.appointmentId, appointments),
    clinicRef(table, table.purchaseId, commercialDocuments),
    clinicRef(table, table.treatmentPlanItemId, treatmentPlanItems),
    // The open list, soonest due first (the clinic's screen and its filters by state and lab).
    index('lab_cases_open_idx')
      .on(table.accountId, table.dueOn, table.id)
      .where(sql`${table.deletedAt} is null and ${table.status} not in ('seated', 'cancelled')`),
    index('lab_cases_provider_idx').on(table.accountId, table.providerId, table.dueOn, table.id),
    index('lab_cases_patient_idx').on(table.accountId, table.patientId, table.createdAt.desc(), table.id.desc()),
    // The agenda's warning reads the cases of the appointments it shows.
    index('lab_cases_appointment_idx')
      .on(table.accountId, table.appointmentId)
      .where(sql`${table.appointmentId} is not null`),
    index('lab_cases_purchase_idx').on(table.accountId, table.purchaseId).where(sql`${table.purchaseId} is not null`),
    // The plan shows each item's cases.
    index('lab_cases_plan_item_idx')
      .on(table.accountId, table.treatmentPlanItemId)
      .where(sql`${table.treatmentPlanItemId} is not null`),
    check(
      'lab_cases_status',
      sql`${table.status} in ('draft', 'sent', 'received', 'checked', 'returned', 'seated', 'cancelled')`,
    ),
    check(
      'lab_cases_work_type',
      sql`${table.workType} in ('crown', 'bridge', 'veneer', 'inlay_onlay', 'implant_crown', 'complete_denture', 'partial_denture', 'night_guard', 'aligners', 'retainer', 'other')`,
    ),
    check(
      'lab_cases_texts',
      sql`char_length(${table.shade}) <= 40 and char_length(${table.material}) <= 120 and char_length(${table.instructions}) <= 2000 and char_length(${table.notes}) <= 2000 and char_length(${table.returnReason}) <= 500 and char_length(${table.cancelReason}) <= 500`,
    ),
    check('lab_cases_teeth', sql`cardinality(${table.teeth}) <= 52`),
    check('lab_cases_sent', sql`${table.status} in ('draft', 'cancelled') or ${table.sentOn} is not null`),
    check('lab_cases_due', sql`${table.dueOn} is null or ${table.sentOn} is null or ${table.dueOn} >= ${table.sentOn}`),
    check(
      'lab_cases_received',
      sql`${table.status} not in ('received', 'checked', 'seated') or ${table.receivedOn} is not null`,
    ),
    check('lab_cases_seated', sql`${table.status} <> 'seated' or ${table.seatedOn} is not null`),
    check('lab_cases_cancelled', sql`${table.status} <> 'cancelled' or ${table.cancelReason} is not null`),
    check('lab_cases_remakes', sql`${table.remakeCount} between 0 and 1000`),
  ],
);

/** A step of a case (created, sent, received…): who and when, the step's date and reason. Never changed. */
export const labCaseEvents = pgTable(
  'lab_case_events',
  {
    ...clinicRowColumns,
    caseId: uuid('case_id').notNull(),
    action: text('action').notNull(),
    fromStatus: text('from_status'),
    toStatus: text('to_status').notNull(),
    onDate: date('on_date', { mode: 'string' }),
    dueOn: date('due_on', { mode: 'string' }),
    reason: text('reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    createdBy: uuid('created_by'),
  },
  (table) => [
    ...clinicKeys(table),
    clinicRef(table, table.caseId, labCases),
    ...userRefs(table, table.createdBy),
    index('lab_case_events_case_idx').on(table.accountId, table.caseId, table.createdAt, table.id),
    check(
      'lab_case_events_action',
      sql`${table.action} in ('created', 'sent', 'received', 'checked', 'returned', 'seated', 'cancelled')`,
    ),
    check('lab_case_events_reason', sql`char_length(${table.reason}) <= 500`),
  ],
);
