import type { PaymentMethod } from '@odontia/shared/enums';
import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  date,
  index,
  integer,
  numeric,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { clinicColumn, clinicRowColumns } from './columns.ts';
import { payments } from './commercial.ts';
import { clinicKeys, clinicKeysOn, clinicRef, recordKeys, recordStamps, userRefs } from './records.ts';

/**
 * Cash registers (cajas, issue 40). A clinic's registers (the front desk's, a professional's); a
 * register's sessions, each opened with a counted float and closed with the amount counted per
 * method; the session's movements (one per part of every collection and payment made at it, their
 * reversals, manual income, expenses and withdrawals to the bank), signed; and the closing's count
 * per method (expected, counted, difference). A closed session, its movements and its counts are
 * final: the migration's triggers refuse any change, and nothing is ever deleted.
 */

const money = (name: string) => numeric(name, { precision: 14, scale: 2 });
/** A session's figure summed over its movements (10,000 movements of the largest amount fit). */
const figure = (name: string) => numeric(name, { precision: 20, scale: 2 });

export const cashRegisters = pgTable(
  'cash_registers',
  {
    ...clinicRowColumns,
    name: text('name').notNull(),
    kind: text('kind', { enum: ['front_desk', 'professional'] }).notNull(),
    /** The professional whose register it is (kind professional). */
    professionalId: uuid('professional_id'),
    active: boolean('active').notNull().default(true),
    ...recordStamps,
  },
  (table) => [
    ...recordKeys(table),
    ...userRefs(table, table.professionalId),
    uniqueIndex('cash_registers_name_unique')
      .on(table.accountId, sql`lower(${table.name})`)
      .where(sql`${table.deletedAt} is null`),
    index('cash_registers_list_idx').on(table.accountId, table.name, table.id).where(sql`${table.deletedAt} is null`),
    check('cash_registers_kind', sql`(${table.kind} = 'professional') = (${table.professionalId} is not null)`),
  ],
);

/** The clinic's cash settings: one row per clinic, absent = the defaults. */
export const cashRegisterSettings = pgTable(
  'cash_register_settings',
  {
    ...clinicColumn,
    /** A collection with a cash part is refused without an open session of the register it names. */
    cashNeedsOpenSession: boolean('cash_needs_open_session').notNull().default(false),
    version: integer('version').notNull().default(1),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    updatedBy: uuid('updated_by'),
  },
  (table) => [
    ...clinicKeysOn(table),
    ...userRefs({ accountId: table.accountId, id: table.accountId }, table.updatedBy),
  ],
);

export const cashSessions = pgTable(
  'cash_sessions',
  {
    ...clinicRowColumns,
    registerId: uuid('register_id').notNull(),
    status: text('status', { enum: ['open', 'closed'] })
      .notNull()
      .default('open'),
    /** The closing's number (Z-000001), per clinic, gapless, taken when it closes. */
    number: text('number'),
    openedAt: timestamp('opened_at', { withTimezone: true }).notNull().defaultNow(),
    openedBy: uuid('opened_by').notNull(),
    /** The cash counted in the drawer at opening. */
    openingFloat: money('opening_float').notNull(),
    /** The cash the register's last closing left in the drawer (0 for its first session). */
    carriedBalance: money('carried_balance').notNull(),
    /** openingFloat − carriedBalance: what was missing (−) or over (+) when it opened. */
    openingDifference: money('opening_difference').notNull(),
    openingNotes: text('opening_notes'),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    closedBy: uuid('closed_by'),
    /** Σ expected over the methods, counted, and their difference (closed sessions). */
    expectedTotal: figure('expected_total'),
    countedTotal: figure('counted_total'),
    differenceTotal: figure('difference_total'),
    /** The cash counted at closing: what the next opening proposes. */
    cashLeft: figure('cash_left'),
    /** Why counted and expected differ (required when any method differs). */
    explanation: text('explanation'),
    /** The clinic's day (its time zone) the session closed on: the reports' and the dashboard's day. */
    closedOn: date('closed_on', { mode: 'string' }),
    version: integer('version').notNull().default(1),
  },
  (table) => [
    ...clinicKeys(table),
    clinicRef(table, table.registerId, cashRegisters),
    ...userRefs(table, table.openedBy, table.closedBy),
    uniqueIndex('cash_sessions_one_open').on(table.accountId, table.registerId).where(sql`${table.status} = 'open'`),
    uniqueIndex('cash_sessions_number_unique').on(table.accountId, table.number),
    index('cash_sessions_register_idx').on(table.accountId, table.registerId, table.openedAt.desc(), table.id.desc()),
    index('cash_sessions_closed_idx')
      .on(table.accountId, table.closedOn, table.registerId)
      .where(sql`${table.status} = 'closed'`),
    check(
      'cash_sessions_closed',
      sql`(${table.status} = 'closed') = (${table.number} is not null and ${table.closedAt} is not null and ${table.closedBy} is not null and ${table.closedOn} is not null and ${table.expectedTotal} is not null and ${table.countedTotal} is not null and ${table.differenceTotal} is not null and ${table.cashLeft} is not null)`,
    ),
    check('cash_sessions_float', sql`${table.openingFloat} >= 0 and ${table.carriedBalance} >= 0`),
  ],
);

export const cashMovementKinds = [
  'opening',
  'collection',
  'payment',
  'collection_reversal',
  'payment_reversal',
  'income',
  'expense',
  'withdrawal',
] as const;

export const cashMovements = pgTable(
  'cash_movements',
  {
    ...clinicRowColumns,
    sessionId: uuid('session_id').notNull(),
    registerId: uuid('register_id').notNull(),
    kind: text('kind', { enum: cashMovementKinds }).notNull(),
    method: text('method').$type<PaymentMethod>().notNull(),
    /** Signed: money in the drawer (+) or out of it (−). */
    amount: money('amount').notNull(),
    /** The collection or payment it is a part of (or the reversal of). */
    paymentId: uuid('payment_id'),
    /** The collection's or payment's number, or the manual movement's reason. */
    description: text('description').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    createdBy: uuid('created_by').notNull(),
  },
  (table) => [
    ...clinicKeys(table),
    clinicRef(table, table.sessionId, cashSessions),
    clinicRef(table, table.registerId, cashRegisters),
    clinicRef(table, table.paymentId, payments),
    ...userRefs(table, table.createdBy),
    index('cash_movements_session_idx').on(table.accountId, table.sessionId, table.method, table.kind, table.amount),
    index('cash_movements_list_idx').on(table.accountId, table.sessionId, table.createdAt.desc(), table.id.desc()),
    index('cash_movements_payment_idx').on(table.accountId, table.paymentId).where(sql`${table.paymentId} is not null`),
    check('cash_movements_amount', sql`${table.amount} <> 0`),
  ],
);

/** A closing's count of one method: what the movements say, what was counted, the difference. */
export const cashSessionCounts = pgTable(
  'cash_session_counts',
  {
    ...clinicColumn,
    sessionId: uuid('session_id').notNull(),
    method: text('method').$type<PaymentMethod>().notNull(),
    expected: figure('expected').notNull(),
    counted: figure('counted').notNull(),
    difference: figure('difference').notNull(),
  },
  (table) => [
    ...clinicKeysOn(table, table.sessionId, table.method),
    clinicRef({ accountId: table.accountId, id: table.sessionId }, table.sessionId, cashSessions),
    check('cash_session_counts_difference', sql`${table.difference} = ${table.counted} - ${table.expected}`),
  ],
);
