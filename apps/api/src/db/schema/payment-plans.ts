import { sql } from 'drizzle-orm';
import { check, date, index, integer, numeric, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { clinicRowColumns } from './columns.ts';
import { commercialDocuments, customers, payments } from './commercial.ts';
import { patientRef } from './patients.ts';
import { clinicKeys, clinicRef, recordKeys, recordStamps, userRefs } from './records.ts';

/**
 * Payment plans (issue 40): an issued invoice paid in instalments. The plan keeps what the invoice
 * had been paid when it started (`start_paid`); whatever the invoice (and the plan's interest
 * debit note) is paid after that — collections, credit notes — pays the instalments oldest first.
 * So an instalment's state is derived from the ledger and is never stale: there is no paid
 * column to keep in step. A plan is never edited: it is cancelled (with a reason) and replaced.
 * Financial rows: never deleted (the migration revokes DELETE), instalments never updated.
 */
const money = (name: string) => numeric(name, { precision: 14, scale: 2 });

export const paymentPlans = pgTable(
  'payment_plans',
  {
    ...clinicRowColumns,
    documentId: uuid('document_id').notNull(),
    customerId: uuid('customer_id').notNull(),
    patientId: uuid('patient_id'),
    currency: text('currency').notNull(),
    /** What the invoice had been paid (total − open) when the plan started. */
    startPaid: money('start_paid').notNull(),
    principal: money('principal').notNull(),
    interest: money('interest').notNull(),
    total: money('total').notNull(),
    instalmentCount: integer('instalment_count').notNull(),
    firstDueOn: date('first_due_on', { mode: 'string' }).notNull(),
    frequency: text('frequency').notNull(),
    annualRate: numeric('annual_rate', { precision: 5, scale: 2 }),
    /** The debit note that charges the interest (issued with the plan); null without interest. */
    interestDocumentId: uuid('interest_document_id'),
    status: text('status').notNull().default('active'),
    notes: text('notes'),
    replacesId: uuid('replaces_id'),
    cancelReason: text('cancel_reason'),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    cancelledBy: uuid('cancelled_by'),
    ...recordStamps,
  },
  (table) => [
    ...recordKeys(table),
    ...userRefs(table, table.cancelledBy),
    clinicRef(table, table.documentId, commercialDocuments),
    clinicRef(table, table.interestDocumentId, commercialDocuments),
    clinicRef(table, table.customerId, customers),
    clinicRef(table, table.replacesId, table),
    patientRef(table),
    // One active plan per invoice.
    uniqueIndex('payment_plans_active_unique')
      .on(table.accountId, table.documentId)
      .where(sql`${table.status} = 'active'`),
    index('payment_plans_list_idx').on(table.accountId, table.createdAt.desc(), table.id.desc()),
    index('payment_plans_document_idx').on(table.accountId, table.documentId),
    index('payment_plans_customer_idx').on(table.accountId, table.customerId, table.createdAt.desc()),
    check('payment_plans_status', sql`${table.status} in ('active', 'cancelled')`),
    check('payment_plans_frequency', sql`${table.frequency} in ('weekly', 'biweekly', 'monthly')`),
    check('payment_plans_count', sql`${table.instalmentCount} between 1 and 60`),
    check(
      'payment_plans_amounts',
      sql`${table.principal} > 0 and ${table.interest} >= 0 and ${table.total} = ${table.principal} + ${table.interest} and ${table.startPaid} >= 0`,
    ),
    check('payment_plans_rate', sql`${table.annualRate} is null or ${table.annualRate} between 0 and 200`),
    check(
      'payment_plans_cancelled',
      sql`(${table.status} = 'cancelled') = (${table.cancelledAt} is not null and ${table.cancelReason} is not null)`,
    ),
    check(
      'payment_plans_texts',
      sql`char_length(${table.notes}) <= 1000 and char_length(${table.cancelReason}) <= 500`,
    ),
  ],
);

/** One instalment of a plan: written with the plan, never changed. */
export const paymentPlanInstalments = pgTable(
  'payment_plan_instalments',
  {
    ...clinicRowColumns,
    planId: uuid('plan_id').notNull(),
    number: integer('number').notNull(),
    dueOn: date('due_on', { mode: 'string' }).notNull(),
    principal: money('principal').notNull(),
    interest: money('interest').notNull(),
    amount: money('amount').notNull(),
    /** What the plan asks for up to and including this instalment: paid ≥ cumulative ⇒ paid. */
    cumulative: money('cumulative').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    ...clinicKeys(table),
    clinicRef(table, table.planId, paymentPlans),
    uniqueIndex('payment_plan_instalments_number_unique').on(table.accountId, table.planId, table.number),
    // The due and overdue lists, the dashboard and the reminders read by due date.
    index('payment_plan_instalments_due_idx').on(table.accountId, table.dueOn, table.id),
    check(
      'payment_plan_instalments_amounts',
      sql`${table.amount} > 0 and ${table.amount} = ${table.principal} + ${table.interest}`,
    ),
  ],
);

/**
 * A collection made against a budget's plan (issue 40): the customer's on-account money tagged to
 * the plan. The plan's paid part is the sum of its live (not reversed) collections, oldest
 * instalment first; when the budget's lines are invoiced, the money still on account is allocated
 * to those invoices (payment-plans/budget-plan-money.ts). Written with the collection, never changed.
 */
export const paymentPlanCollections = pgTable(
  'payment_plan_collections',
  {
    ...clinicRowColumns,
    planId: uuid('plan_id').notNull(),
    paymentId: uuid('payment_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    ...clinicKeys(table),
    clinicRef(table, table.planId, paymentPlans),
    clinicRef(table, table.paymentId, payments),
    // A collection pays one plan.
    uniqueIndex('payment_plan_collections_payment_unique').on(table.accountId, table.paymentId),
    index('payment_plan_collections_plan_idx').on(table.accountId, table.planId, table.createdAt),
  ],
);
