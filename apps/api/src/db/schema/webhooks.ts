import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { clinicRowColumns } from './columns.ts';
import { clinicKeys, clinicRef, recordStamps, userRefs } from './records.ts';

/**
 * Webhooks for integrators (issue 42): the clinic's subscriptions, the outbox of events (written in
 * the transaction of the change), one delivery per subscription and event (a `webhook_deliver`
 * job sends it) and every attempt, the delivery log the screen pages through.
 */

export const webhookSubscriptions = pgTable(
  'webhook_subscriptions',
  {
    ...clinicRowColumns,
    url: text('url').notNull(),
    events: text('events').array().notNull(),
    active: boolean('active').notNull().default(true),
    description: text('description'),
    /** The signing secret, sealed with the installation's key (lib/secrets.ts); shown once. */
    secretSealed: text('secret_sealed').notNull(),
    /** Its last 4 characters, to tell which one a receiver holds. */
    secretHint: text('secret_hint').notNull(),
    ...recordStamps,
  },
  (table) => [
    ...clinicKeys(table),
    ...userRefs(table, table.createdBy, table.updatedBy, table.deletedBy),
    index('webhook_subscriptions_list_idx')
      .on(table.accountId, table.createdAt.desc(), table.id.desc())
      .where(sql`${table.deletedAt} is null`),
    check(
      'webhook_subscriptions_texts',
      sql`char_length(${table.url}) <= 2000 and char_length(coalesce(${table.description}, '')) <= 500`,
    ),
    check(
      'webhook_subscriptions_events',
      sql`cardinality(${table.events}) between 1 and 7 and ${table.events} <@ array['appointment.booked', 'appointment.moved', 'appointment.cancelled', 'patient.created', 'patient.updated', 'invoice.issued', 'collection.recorded']::text[]`,
    ),
  ],
);

/** The outbox: an event of the clinic, written only when an active subscription wants its type. */
export const webhookEvents = pgTable(
  'webhook_events',
  {
    ...clinicRowColumns,
    type: text('type').notNull(),
    data: jsonb('data').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [...clinicKeys(table)],
);

/** One event to one subscription: its state and attempts (the job's key is its id). */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    ...clinicRowColumns,
    subscriptionId: uuid('subscription_id').notNull(),
    eventId: uuid('event_id').notNull(),
    state: text('state').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    ...clinicKeys(table),
    clinicRef(table, table.subscriptionId, webhookSubscriptions),
    clinicRef(table, table.eventId, webhookEvents),
    index('webhook_deliveries_event_idx').on(table.accountId, table.eventId),
    check('webhook_deliveries_state', sql`${table.state} in ('pending', 'delivered', 'failed')`),
  ],
);

/** Each POST to a receiver: what it answered (or why it did not), and how long it took. */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    ...clinicRowColumns,
    deliveryId: uuid('delivery_id').notNull(),
    subscriptionId: uuid('subscription_id').notNull(),
    attemptedAt: timestamp('attempted_at', { withTimezone: true }).notNull().defaultNow(),
    statusCode: integer('status_code'),
    durationMs: integer('duration_ms').notNull(),
    ok: boolean('ok').notNull(),
    error: text('error'),
    responseExcerpt: text('response_excerpt'),
    resent: boolean('resent').notNull().default(false),
  },
  (table) => [
    ...clinicKeys(table),
    clinicRef(table, table.deliveryId, webhookDeliveries),
    clinicRef(table, table.subscriptionId, webhookSubscriptions),
    index('webhook_attempts_log_idx').on(
      table.accountId,
      table.subscriptionId,
      table.attemptedAt.desc(),
      table.id.desc(),
    ),
    check(
      'webhook_attempts_texts',
      sql`char_length(coalesce(${table.error}, '')) <= 500 and char_length(coalesce(${table.responseExcerpt}, '')) <= 500`,
    ),
  ],
);
