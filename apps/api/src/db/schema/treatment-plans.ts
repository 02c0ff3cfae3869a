import { sql } from 'drizzle-orm';
import { check, index, integer, numeric, pgTable, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { appointments, treatments } from './agenda.ts';
import { clinicRowColumns } from './columns.ts';
import { commercialDocuments, documentLines } from './commercial.ts';
import { patientRef } from './patients.ts';
import { clinicKeys, clinicRef, recordKeys, recordStamps, userRefs } from './records.ts';

/**
 * Treatment plans (issue 41): a patient's case with its alternatives (plan A / plan B), each in
 * ordered phases of items per tooth or zone, each item carried out in one or more sessions that
 * split its amount. While the plan is a draft or presented, an edit retires the alternatives it
 * replaces (`retired_at`) and writes the new content; accepting one alternative makes the budget
 * (one budget line per session) and the plan's content is final from then on. Whether a session
 * is done or scheduled is derived (an attendance line carrying out its budget line; its appointment
 * still scheduled), never stored: docs/decisions.md "Treatment plans (issue 41)".
 * Clinical rows: never deleted (the migration revokes DELETE).
 */
const money = (name: string) => numeric(name, { precision: 14, scale: 2 });

export const treatmentPlans = pgTable(
  'treatment_plans',
  {
    ...clinicRowColumns,
    patientId: uuid('patient_id').notNull(),
    professionalId: uuid('professional_id').notNull(),
    title: text('title').notNull(),
    /** draft → presented → accepted | rejected; draft or presented → cancelled. 'completed' is derived. */
    status: text('status').notNull().default('draft'),
    notes: text('notes'),
    presentedAt: timestamp('presented_at', { withTimezone: true }),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    acceptedAlternativeId: uuid('accepted_alternative_id'),
    /** The budget (a sale of type budget) made when it was accepted. */
    budgetId: uuid('budget_id'),
    ...recordStamps,
  },
  (table) => [
    ...recordKeys(table),
    patientRef(table),
    ...userRefs(table, table.professionalId),
    clinicRef(table, table.budgetId, commercialDocuments),
    index('treatment_plans_patient_idx')
      .on(table.accountId, table.patientId, table.createdAt.desc(), table.id.desc())
      .where(sql`${table.deletedAt} is null`),
    // The follow-up list: accepted plans, oldest answer first.
    index('treatment_plans_follow_up_idx')
      .on(table.accountId, table.decidedAt, table.id)
      .where(sql`${table.deletedAt} is null and ${table.status} = 'accepted'`),
    check(
      'treatment_plans_status',
      sql`${table.status} in ('draft', 'presented', 'accepted', 'rejected', 'cancelled')`,
    ),
    check(
      'treatment_plans_accepted',
      sql`(${table.status} = 'accepted') = (${table.budgetId} is not null and ${table.acceptedAlternativeId} is not null)`,
    ),
    check(
      'treatment_plans_texts',
      sql`char_length(${table.title}) between 1 and 200 and char_length(${table.notes}) <= 4000`,
    ),
  ],
);

export const treatmentPlanAlternatives = pgTable(
  'treatment_plan_alternatives',
  {
    ...clinicRowColumns,
    planId: uuid('plan_id').notNull(),
    position: integer('position').notNull(),
    label: text('label').notNull(),
    /** Replaced by an edit of the plan (kept, hidden). */
    retiredAt: timestamp('retired_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    ...clinicKeys(table),
    clinicRef(table, table.planId, treatmentPlans),
    index('treatment_plan_alternatives_plan_idx')
      .on(table.accountId, table.planId, table.position)
      .where(sql`${table.retiredAt} is null`),
    check('treatment_plan_alternatives_label', sql`char_length(${table.label}) between 1 and 80`),
  ],
);

export const treatmentPlanPhases = pgTable(
  'treatment_plan_phases',
  {
    ...clinicRowColumns,
    planId: uuid('plan_id').notNull(),
    alternativeId: uuid('alternative_id').notNull(),
    position: integer('position').notNull(),
    kind: text('kind').notNull(),
    name: text('name').notNull(),
  },
  (table) => [
    ...clinicKeys(table),
    clinicRef(table, table.planId, treatmentPlans),
    clinicRef(table, table.alternativeId, treatmentPlanAlternatives),
    index('treatment_plan_phases_plan_idx').on(table.accountId, table.planId, table.position),
    check(
      'treatment_plan_phases_kind',
      sql`${table.kind} in ('urgent', 'basic', 'restorative', 'surgical', 'prosthetic', 'orthodontic', 'maintenance')`,
    ),
    check('treatment_plan_phases_name', sql`char_length(${table.name}) between 1 and 120`),
  ],
);

export const treatmentPlanItems = pgTable(
  'treatment_plan_items',
  {
    ...clinicRowColumns,
    planId: uuid('plan_id').notNull(),
    phaseId: uuid('phase_id').notNull(),
    position: integer('position').notNull(),
    /** FDI tooth (11…85) or null for a zone or the whole mouth. */
    tooth: smallint('tooth'),
    /** A tooth's surface (mesial…occlusal) or a mouth zone (upper, lower, q1…q4, sextants), or null. */
    zone: text('zone'),
    treatmentId: uuid('treatment_id').notNull(),
    description: text('description').notNull(),
    unitPrice: money('unit_price').notNull(),
    quantity: integer('quantity').notNull(),
    discountRate: numeric('discount_rate', { precision: 5, scale: 2 }).notNull().default('0'),
    vatRate: numeric('vat_rate', { precision: 5, scale: 2 }).notNull().default('0'),
    /** unit price × quantity − discount, to the cent: what its sessions split. */
    amount: money('amount').notNull(),
    notes: text('notes'),
    /** When carrying out its last session charted the result on the odontogram. */
    chartedAt: timestamp('charted_at', { withTimezone: true }),
  },
  (table) => [
    ...clinicKeys(table),
    clinicRef(table, table.planId, treatmentPlans),
    clinicRef(table, table.phaseId, treatmentPlanPhases),
    clinicRef(table, table.treatmentId, treatments),
    index('treatment_plan_items_plan_idx').on(table.accountId, table.planId, table.position),
    check(
      'treatment_plan_items_amounts',
      sql`${table.unitPrice} >= 0 and ${table.quantity} between 1 and 99 and ${table.discountRate} between 0 and 100 and ${table.vatRate} between 0 and 100 and ${table.amount} >= 0`,
    ),
    check(
      'treatment_plan_items_tooth',
      sql`${table.tooth} is null or (${table.tooth} between 11 and 48) or (${table.tooth} between 51 and 85)`,
    ),
    check(
      'treatment_plan_items_texts',
      sql`char_length(${table.description}) between 1 and 200 and char_length(${table.notes}) <= 1000`,
    ),
  ],
);

export const treatmentPlanSessions = pgTable(
  'treatment_plan_sessions',
  {
    ...clinicRowColumns,
    planId: uuid('plan_id').notNull(),
    itemId: uuid('item_id').notNull(),
    position: integer('position').notNull(),
    description: text('description').notNull(),
    /** The share of the item, in percent (Σ = 100 per item). */
    sharePercent: numeric('share_percent', { precision: 5, scale: 2 }).notNull(),
    /** Its part of the item's amount (Σ = the item's amount to the cent). */
    amount: money('amount').notNull(),
    /** The budget line made for it when the plan was accepted. */
    budgetLineId: uuid('budget_line_id'),
    /** The appointment booked for it (followed when moved); cancelled → the session is pending again. */
    appointmentId: uuid('appointment_id'),
  },
  (table) => [
    ...clinicKeys(table),
    clinicRef(table, table.planId, treatmentPlans),
    clinicRef(table, table.itemId, treatmentPlanItems),
    clinicRef(table, table.budgetLineId, documentLines),
    clinicRef(table, table.appointmentId, appointments),
    index('treatment_plan_sessions_plan_idx').on(table.accountId, table.planId, table.position),
    index('treatment_plan_sessions_budget_line_idx')
      .on(table.accountId, table.budgetLineId)
      .where(sql`${table.budgetLineId} is not null`),
    index('treatment_plan_sessions_appointment_idx')
      .on(table.accountId, table.appointmentId)
      .where(sql`${table.appointmentId} is not null`),
    check(
      'treatment_plan_sessions_amounts',
      sql`${table.sharePercent} > 0 and ${table.sharePercent} <= 100 and ${table.amount} >= 0`,
    ),
    check('treatment_plan_sessions_description', sql`char_length(${table.description}) between 1 and 200`),
  ],
);
