import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  date,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { treatments } from './agenda.ts';
import { attendances } from './clinical.ts';
import { clinicColumn, clinicRowColumns } from './columns.ts';
import { commercialDocuments, customers } from './commercial.ts';
import { patientRef } from './patients.ts';
import { clinicKeys, clinicRef, recordKeys, recordStamps, userRefs } from './records.ts';

/**
 * Third-party payers (issue 40): obras sociales, prepagas, mutuas and insurers, their plans and
 * coverage rules, the patients' affiliations, the split of each invoiced line into the patient's
 * part and the payer's part, the monthly presentations (liquidación a la obra social) and their
 * rejections (débitos). A payer is billed as a customer of the sales side (its `customer_id`), so
 * its ledger, current account and aging are the customers' ones.
 *
 * Money is numeric(14,2). The split lines, presentations' lines and rejections are financial rows:
 * never deleted (the migration revokes DELETE), the split's amounts never updated (a trigger).
 */

const money = (name: string) => numeric(name, { precision: 14, scale: 2 });

export const payers = pgTable(
  'payers',
  {
    ...clinicRowColumns,
    kind: text('kind', { enum: ['obra_social', 'prepaga', 'mutua', 'aseguradora'] }).notNull(),
    name: text('name').notNull(),
    /** Its code with the clinic (RNOS number, the insurer's provider code…), printed on presentations. */
    code: text('code'),
    taxId: text('tax_id'),
    /** The customer it is billed as (made with it): its ledger, current account and aging. */
    customerId: uuid('customer_id').notNull(),
    notes: text('notes'),
    active: boolean('active').notNull().default(true),
    ...recordStamps,
  },
  (table) => [
    ...recordKeys(table),
    clinicRef(table, table.customerId, customers),
    uniqueIndex('payers_customer_unique').on(table.accountId, table.customerId),
    index('payers_name_idx').on(table.accountId, table.name, table.id).where(sql`${table.deletedAt} is null`),
  ],
);

export const payerPlans = pgTable(
  'payer_plans',
  {
    ...clinicRowColumns,
    payerId: uuid('payer_id').notNull(),
    name: text('name').notNull(),
    code: text('code'),
    active: boolean('active').notNull().default(true),
    ...recordStamps,
  },
  (table) => [
    ...recordKeys(table),
    clinicRef(table, table.payerId, payers),
    index('payer_plans_payer_idx')
      .on(table.accountId, table.payerId, table.name)
      .where(sql`${table.deletedAt} is null`),
  ],
);

/**
 * A plan's coverage of a treatment, of a group of the price list, or of everything else (both
 * null). Written with its plan (the plan's edit replaces them); never deleted, replaced rows keep
 * `replaced_at` so the split lines that name them stay traced.
 */
export const payerCoverageRules = pgTable(
  'payer_coverage_rules',
  {
    ...clinicRowColumns,
    planId: uuid('plan_id').notNull(),
    position: integer('position').notNull(),
    treatmentId: uuid('treatment_id'),
    treatmentGroup: text('treatment_group'),
    mode: text('mode', { enum: ['percentage', 'fixed', 'copay'] }).notNull(),
    /** Percentage (0–100) the payer pays; fixed amount the payer pays per unit; copay the patient pays per unit. */
    value: numeric('value', { precision: 14, scale: 2 }).notNull(),
    limitKind: text('limit_kind', { enum: ['none', 'sessions', 'amount'] })
      .notNull()
      .default('none'),
    /** Per patient and calendar year: sessions (units) or the payer's amount. */
    limitValue: numeric('limit_value', { precision: 14, scale: 2 }),
    authorizationRequired: boolean('authorization_required').notNull().default(false),
    replacedAt: timestamp('replaced_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    ...clinicKeys(table),
    clinicRef(table, table.planId, payerPlans),
    clinicRef(table, table.treatmentId, treatments),
    index('payer_coverage_rules_plan_idx')
      .on(table.accountId, table.planId, table.position)
      .where(sql`${table.replacedAt} is null`),
    check('payer_coverage_rules_target', sql`${table.treatmentId} is null or ${table.treatmentGroup} is null`),
    check(
      'payer_coverage_rules_value',
      sql`${table.value} >= 0 and (${table.mode} <> 'percentage' or ${table.value} <= 100)`,
    ),
    check(
      'payer_coverage_rules_limit',
      sql`(${table.limitKind} = 'none') = (${table.limitValue} is null) and (${table.limitValue} is null or ${table.limitValue} > 0)`,
    ),
  ],
);

/** A patient's affiliation to a payer's plan, valid over a period; one primary at a time. */
export const patientAffiliations = pgTable(
  'patient_affiliations',
  {
    ...clinicRowColumns,
    patientId: uuid('patient_id').notNull(),
    payerId: uuid('payer_id').notNull(),
    planId: uuid('plan_id').notNull(),
    memberNumber: text('member_number').notNull(),
    validFrom: date('valid_from', { mode: 'string' }).notNull(),
    validTo: date('valid_to', { mode: 'string' }),
    primary: boolean('primary').notNull().default(true),
    notes: text('notes'),
    ...recordStamps,
  },
  (table) => [
    ...recordKeys(table),
    patientRef(table),
    clinicRef(table, table.payerId, payers),
    clinicRef(table, table.planId, payerPlans),
    index('patient_affiliations_patient_idx')
      .on(table.accountId, table.patientId, table.validFrom.desc(), table.id.desc())
      .where(sql`${table.deletedAt} is null`),
    uniqueIndex('patient_affiliations_primary_unique')
      .on(table.accountId, table.patientId)
      .where(sql`${table.primary} and ${table.deletedAt} is null`),
    check('patient_affiliations_period', sql`${table.validTo} is null or ${table.validTo} >= ${table.validFrom}`),
  ],
);

/**
 * A presentation (liquidación a la obra social): a payer's not yet presented payer-part lines of
 * a month, gathered by a background job (`progress`), then sent, accepted (or partially, when it
 * has rejections) and paid by a collection from the payer.
 */
export const payerPresentations = pgTable(
  'payer_presentations',
  {
    ...clinicRowColumns,
    payerId: uuid('payer_id').notNull(),
    /** Per clinic, 1, 2, 3… */
    number: integer('number').notNull(),
    /** The first day of the month presented. */
    period: date('period', { mode: 'string' }).notNull(),
    status: text('status', {
      enum: ['building', 'draft', 'sent', 'accepted', 'partially_accepted', 'paid'],
    })
      .notNull()
      .default('building'),
    progress: integer('progress').notNull().default(0),
    lineCount: integer('line_count').notNull().default(0),
    total: numeric('total', { precision: 20, scale: 2 }).notNull().default('0'),
    rejectedTotal: numeric('rejected_total', { precision: 20, scale: 2 }).notNull().default('0'),
    sentOn: date('sent_on', { mode: 'string' }),
    acceptedOn: date('accepted_on', { mode: 'string' }),
    paidOn: date('paid_on', { mode: 'string' }),
    collectionId: uuid('collection_id'),
    notes: text('notes'),
    ...recordStamps,
  },
  (table) => [
    ...recordKeys(table),
    clinicRef(table, table.payerId, payers),
    uniqueIndex('payer_presentations_number_unique').on(table.accountId, table.number),
    index('payer_presentations_list_idx')
      .on(table.accountId, table.period.desc(), table.number.desc())
      .where(sql`${table.deletedAt} is null`),
    check('payer_presentations_progress', sql`${table.progress} between 0 and 100`),
  ],
);

/**
 * One invoiced source line split between the patient and the payer (the same line of the
 * attendance, traced by both documents): the rule and the rounding that made the split and the
 * authorization number. Once presented, its presentation is a row of payer_presentation_lines.
 */
export const payerSplitLines = pgTable(
  'payer_split_lines',
  {
    ...clinicRowColumns,
    patientId: uuid('patient_id').notNull(),
    payerId: uuid('payer_id').notNull(),
    planId: uuid('plan_id').notNull(),
    affiliationId: uuid('affiliation_id').notNull(),
    ruleId: uuid('rule_id'),
    /** An attendance's fee or line, or (issue 40) a line of the accepted budget invoiced. */
    sourceKind: text('source_kind', { enum: ['attendance_fee', 'attendance_line', 'budget_line'] }).notNull(),
    sourceId: uuid('source_id').notNull(),
    /** The attendance of an attendance's fee or line; null for a budget's line. */
    attendanceId: uuid('attendance_id'),
    date: date('date', { mode: 'string' }).notNull(),
    treatmentId: uuid('treatment_id'),
    treatmentCode: text('treatment_code'),
    description: text('description').notNull(),
    memberNumber: text('member_number').notNull(),
    /** The units the payer covered (an annual limit of sessions counts them). */
    quantity: numeric('quantity', { precision: 12, scale: 2 }).notNull(),
    coveredQuantity: numeric('covered_quantity', { precision: 12, scale: 2 }).notNull(),
    lineTotal: money('line_total').notNull(),
    /** The source line's VAT rate: each part's invoice (and a rejection's notes) charge it on the part. */
    vatRate: numeric('vat_rate', { precision: 5, scale: 2 }).notNull().default('0'),
    payerAmount: money('payer_amount').notNull(),
    patientAmount: money('patient_amount').notNull(),
    /** How the cents were shared (packages/shared/src/payer-split.ts `roundingRules`). */
    rounding: text('rounding').notNull(),
    authorizationNumber: text('authorization_number'),
    patientDocumentId: uuid('patient_document_id'),
    payerDocumentId: uuid('payer_document_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    createdBy: uuid('created_by'),
  },
  (table) => [
    ...clinicKeys(table),
    patientRef(table),
    clinicRef(table, table.payerId, payers),
    clinicRef(table, table.planId, payerPlans),
    clinicRef(table, table.affiliationId, patientAffiliations),
    clinicRef(table, table.ruleId, payerCoverageRules),
    clinicRef(table, table.attendanceId, attendances),
    clinicRef(table, table.patientDocumentId, commercialDocuments),
    clinicRef(table, table.payerDocumentId, commercialDocuments),
    ...userRefs(table, table.createdBy),
    uniqueIndex('payer_split_lines_source_unique').on(table.accountId, table.sourceKind, table.sourceId),
    // What a presentation gathers: a payer's invoiced lines by date (those not in a presentation yet).
    index('payer_split_lines_presentable_idx')
      .on(table.accountId, table.payerId, table.date, table.id)
      .where(sql`${table.payerDocumentId} is not null`),
    // The annual limits: what a patient used of a rule.
    index('payer_split_lines_usage_idx').on(table.accountId, table.patientId, table.ruleId, table.date),
    check('payer_split_lines_source', sql`(${table.sourceKind} = 'budget_line') = (${table.attendanceId} is null)`),
    check(
      'payer_split_lines_amounts',
      sql`${table.payerAmount} >= 0 and ${table.patientAmount} >= 0 and ${table.payerAmount} + ${table.patientAmount} = ${table.lineTotal}`,
    ),
  ],
);

/**
 * A split line taken into a presentation (issue 40): once, by the primary key on the line (and its date). A narrow
 * row written by the build job (the 50,000 lines of a big payer's month are 50,000 rows of four
 * columns, instead of as many updates of the wide split lines); its date is the line's, so a
 * presentation's lines are read by date through its index. Never updated nor deleted (the
 * migration revokes both); its references are checked once per statement by a trigger.
 */
export const payerPresentationLines = pgTable(
  'payer_presentation_lines',
  {
    ...clinicColumn,
    splitLineId: uuid('split_line_id').notNull(),
    presentationId: uuid('presentation_id').notNull(),
    date: date('date', { mode: 'string' }).notNull(),
  },
  (table) => [
    // Once per line: the date is the line's own (the trigger checks it), so the key is the line's
    // and a month's presented lines are one range of it.
    primaryKey({ columns: [table.accountId, table.date, table.splitLineId] }),
    index('payer_presentation_lines_presentation_idx').on(
      table.accountId,
      table.presentationId,
      table.date,
      table.splitLineId,
    ),
  ],
);

/**
 * A rejection (débito) of a presented line: the amount the payer refused, why, and where it went —
 * back to the patient (an invoice to the patient) or to a loss (the credit note alone). Either way
 * a credit note to the payer takes the amount off the payer's invoice.
 */
export const payerRejections = pgTable(
  'payer_rejections',
  {
    ...clinicRowColumns,
    presentationId: uuid('presentation_id').notNull(),
    splitLineId: uuid('split_line_id').notNull(),
    amount: money('amount').notNull(),
    reason: text('reason').notNull(),
    destination: text('destination', { enum: ['patient', 'loss'] }).notNull(),
    creditNoteId: uuid('credit_note_id').notNull(),
    patientDocumentId: uuid('patient_document_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    createdBy: uuid('created_by'),
  },
  (table) => [
    ...clinicKeys(table),
    clinicRef(table, table.presentationId, payerPresentations),
    clinicRef(table, table.splitLineId, payerSplitLines),
    clinicRef(table, table.creditNoteId, commercialDocuments),
    clinicRef(table, table.patientDocumentId, commercialDocuments),
    ...userRefs(table, table.createdBy),
    uniqueIndex('payer_rejections_line_unique').on(table.accountId, table.splitLineId),
    index('payer_rejections_presentation_idx').on(table.accountId, table.presentationId, table.createdAt),
    check('payer_rejections_amount', sql`${table.amount} > 0`),
    check(
      'payer_rejections_destination',
      sql`(${table.destination} = 'patient') = (${table.patientDocumentId} is not null)`,
    ),
  ],
);
