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
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { treatments } from './agenda.ts';
import { clinicColumn, clinicRowColumns } from './columns.ts';
import { commercialDocuments, providers } from './commercial.ts';
import { clinicKeys, clinicKeysOn, clinicRef, recordKeys, recordStamps, userRefs } from './records.ts';

/**
 * Professional settlements (liquidaciones, issue 40): what the clinic owes each professional for
 * what they did, by rules per treatment, treatment group or a default; closed per period into a
 * numbered, immutable settlement whose lines trace each amount to its source (an invoice line, a
 * collection's allocation, the attendance), and whose total is a payable of the professional's
 * provider in the ledger, paid through the provider payments.
 */

const money = (name: string) => numeric(name, { precision: 14, scale: 2 });

/** The professional's own provider record (created on demand), so the clinic can owe and pay them. */
export const professionalProviders = pgTable(
  'professional_providers',
  {
    ...clinicColumn,
    professionalId: uuid('professional_id').notNull(),
    providerId: uuid('provider_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    ...clinicKeysOn(table, table.professionalId),
    ...userRefs({ accountId: table.accountId, id: table.professionalId }, table.professionalId),
    clinicRef({ accountId: table.accountId, id: table.providerId }, table.providerId, providers),
    uniqueIndex('professional_providers_provider_unique').on(table.accountId, table.providerId),
  ],
);

/**
 * A settlement rule of a professional: for one treatment, a treatment group or all (default),
 * a percentage of the base or a fixed amount per unit, on what is invoiced or on what is collected,
 * with or without the treatment's lab cost deducted, valid from a date. Versioned and audited; a
 * later rule of the same scope and target with a later `valid_from` supersedes it from that day.
 */
export const settlementRules = pgTable(
  'settlement_rules',
  {
    ...clinicRowColumns,
    professionalId: uuid('professional_id').notNull(),
    scope: text('scope', { enum: ['treatment', 'group', 'default'] }).notNull(),
    treatmentId: uuid('treatment_id'),
    groupName: text('group_name'),
    method: text('method', { enum: ['percentage', 'fixed'] }).notNull(),
    /** Percent (0–100) or the fixed amount per unit, in the clinic's currency. */
    value: money('value').notNull(),
    basis: text('basis', { enum: ['invoiced', 'collected'] }).notNull(),
    deductLabCost: boolean('deduct_lab_cost').notNull().default(false),
    validFrom: date('valid_from', { mode: 'string' }).notNull(),
    notes: text('notes'),
    ...recordStamps,
  },
  (table) => [
    ...recordKeys(table),
    ...userRefs(table, table.professionalId),
    clinicRef(table, table.treatmentId, treatments),
    index('settlement_rules_professional_idx')
      .on(table.accountId, table.professionalId, table.validFrom)
      .where(sql`${table.deletedAt} is null`),
    uniqueIndex('settlement_rules_target_unique')
      .on(
        table.accountId,
        table.professionalId,
        table.scope,
        sql`coalesce(${table.treatmentId}::text, lower(${table.groupName}), '')`,
        table.validFrom,
      )
      .where(sql`${table.deletedAt} is null`),
    check(
      'settlement_rules_target',
      sql`(${table.scope} = 'treatment' and ${table.treatmentId} is not null and ${table.groupName} is null) or (${table.scope} = 'group' and ${table.groupName} is not null and ${table.treatmentId} is null) or (${table.scope} = 'default' and ${table.treatmentId} is null and ${table.groupName} is null)`,
    ),
    check(
      'settlement_rules_value',
      sql`${table.value} >= 0 and (${table.method} <> 'percentage' or ${table.value} <= 100)`,
    ),
  ],
);

/**
 * A confirmed settlement: one per professional and period (the exclusion constraint of the
 * migration refuses overlapping periods), numbered per clinic (LQ-00000001), never changed (a
 * trigger refuses UPDATE and DELETE). `document_id` is its payable: a registered purchase-side
 * invoice of the professional's provider, whose open amount says what is still to pay.
 */
export const settlements = pgTable(
  'settlements',
  {
    ...clinicRowColumns,
    number: text('number').notNull(),
    sequenceNumber: integer('sequence_number').notNull(),
    professionalId: uuid('professional_id').notNull(),
    professionalName: text('professional_name').notNull(),
    providerId: uuid('provider_id').notNull(),
    periodFrom: date('period_from', { mode: 'string' }).notNull(),
    periodTo: date('period_to', { mode: 'string' }).notNull(),
    currency: text('currency').notNull(),
    baseTotal: money('base_total').notNull(),
    labCostTotal: money('lab_cost_total').notNull(),
    adjustmentTotal: money('adjustment_total').notNull(),
    total: money('total').notNull(),
    lineCount: integer('line_count').notNull(),
    documentId: uuid('document_id'),
    clinicSnapshot: jsonb('clinic_snapshot').notNull(),
    notes: text('notes'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    createdBy: uuid('created_by').notNull(),
  },
  (table) => [
    ...clinicKeys(table),
    ...userRefs(table, table.professionalId, table.createdBy),
    clinicRef(table, table.providerId, providers),
    clinicRef(table, table.documentId, commercialDocuments),
    uniqueIndex('settlements_number_unique').on(table.accountId, table.sequenceNumber),
    index('settlements_list_idx').on(table.accountId, table.periodFrom.desc(), table.id.desc()),
    index('settlements_professional_idx').on(table.accountId, table.professionalId, table.periodFrom.desc()),
    check('settlements_period', sql`${table.periodFrom} <= ${table.periodTo}`),
  ],
);

/**
 * A line of a settlement, traced to its source: an invoice or credit note line (`invoice_line`,
 * base invoiced), a collection's allocation to an invoice, prorated to the line (`collection`), or
 * the reversal of a settled one (`collection_reversal`). A source is settled once per professional
 * (the unique index): what changes later comes back as a new line (`adjustment`) of a later period.
 */
export const settlementLines = pgTable(
  'settlement_lines',
  {
    ...clinicRowColumns,
    settlementId: uuid('settlement_id').notNull(),
    professionalId: uuid('professional_id').notNull(),
    kind: text('kind', { enum: ['regular', 'adjustment'] }).notNull(),
    sourceKind: text('source_kind', { enum: ['invoice_line', 'collection', 'collection_reversal'] }).notNull(),
    /** The document line (invoice_line) or the payment allocation (collection, collection_reversal). */
    sourceId: uuid('source_id').notNull(),
    documentLineId: uuid('document_line_id').notNull(),
    documentId: uuid('document_id').notNull(),
    /** invoice, debit_note or credit_note, and its number (0001-00000012). */
    documentType: text('document_type').notNull(),
    documentLabel: text('document_label').notNull(),
    paymentId: uuid('payment_id'),
    attendanceId: uuid('attendance_id'),
    patientId: uuid('patient_id'),
    patientName: text('patient_name'),
    treatmentId: uuid('treatment_id'),
    description: text('description').notNull(),
    groupName: text('group_name'),
    sourceDate: date('source_date', { mode: 'string' }).notNull(),
    quantity: numeric('quantity', { precision: 12, scale: 2 }).notNull(),
    base: money('base').notNull(),
    labCost: money('lab_cost').notNull(),
    ruleId: uuid('rule_id').notNull(),
    ruleScope: text('rule_scope').notNull(),
    ruleMethod: text('rule_method').notNull(),
    ruleValue: money('rule_value').notNull(),
    ruleBasis: text('rule_basis').notNull(),
    amount: money('amount').notNull(),
  },
  (table) => [
    // No per-row foreign keys here (a month writes 100,000 lines in one statement): the clinic
    // and the settlement are checked once per statement by the trigger `settlement_lines_refs` of
    // migration 0046 (every new line's (account_id, settlement_id) is a settlement, hence a
    // clinic), and a settlement is never updated nor deleted (trigger and revoked grants), so the
    // reference cannot break afterwards.
    primaryKey({ columns: [table.accountId, table.id] }),
    uniqueIndex('settlement_lines_source_unique').on(
      table.accountId,
      table.professionalId,
      table.sourceKind,
      table.sourceId,
      table.documentLineId,
    ),
    index('settlement_lines_settlement_idx').on(table.accountId, table.settlementId),
  ],
);
