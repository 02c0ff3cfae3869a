import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  foreignKey,
  index,
  integer,
  jsonb,
  type PgColumn,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';
import { appointments } from './agenda.ts';
import { clinicColumn, clinicRowColumns } from './columns.ts';
import { patientRef } from './patients.ts';
import { clinicKeys, clinicKeysOn, clinicRef, userRefs } from './records.ts';

/**
 * Messages to patients (issue 38): one outbox for e-mail, SMS and WhatsApp, the providers' delivery
 * reports, the patients' replies, their consent per channel and the clinic's templates.
 */

/** Who last changed a clinic's setting row (keyed by other columns than `id`). */
function updatedByRef(table: { accountId: PgColumn; updatedBy: PgColumn }) {
  return foreignKey({ columns: [table.accountId, table.updatedBy], foreignColumns: [users.accountId, users.id] });
}

/** A clinic's SMS (Twilio-shaped REST) or WhatsApp (Cloud API) account; secrets sealed (lib/secrets.ts). */
export const messagingChannels = pgTable(
  'messaging_channels',
  {
    ...clinicColumn,
    channel: text('channel').notNull(),
    enabled: boolean('enabled').notNull().default(false),
    /** The provider's API root: https://api.twilio.com, https://graph.facebook.com/v21.0, or the local fake. */
    apiUrl: text('api_url').notNull(),
    /** Twilio's Account SID; WhatsApp's phone number id. */
    accountRef: text('account_ref').notNull(),
    /** The number messages leave from (E.164). */
    sender: text('sender').notNull(),
    /** Twilio's auth token (it also signs the webhooks); WhatsApp's access token. */
    secretSealed: text('secret_sealed').notNull(),
    /** WhatsApp's app secret (signs the webhooks); null for SMS. */
    webhookSecretSealed: text('webhook_secret_sealed'),
    /** The random part of this channel's webhook addresses: finds the clinic before the signature is checked. */
    webhookKey: text('webhook_key').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    updatedBy: uuid('updated_by'),
    version: integer('version').notNull().default(1),
  },
  (table) => [
    ...clinicKeysOn(table, table.channel),
    updatedByRef(table),
    uniqueIndex('messaging_channels_webhook_key_unique').on(table.webhookKey),
    check('messaging_channels_channel', sql`${table.channel} in ('sms', 'whatsapp')`),
    check(
      'messaging_channels_texts',
      sql`char_length(${table.apiUrl}) <= 300 and char_length(${table.accountRef}) <= 100 and char_length(${table.sender}) <= 20`,
    ),
  ],
);

/** A patient's yes or no to a channel, with when and how it was given; written once, the newest one counts. */
export const patientChannelConsents = pgTable(
  'patient_channel_consents',
  {
    ...clinicRowColumns,
    patientId: uuid('patient_id').notNull(),
    channel: text('channel').notNull(),
    granted: boolean('granted').notNull(),
    source: text('source').notNull(),
    note: text('note'),
    recordedAt: timestamp('recorded_at', { withTimezone: true }).notNull().defaultNow(),
    recordedBy: uuid('recorded_by'),
    /** The reply ("BAJA") or message whose link recorded it. */
    inboundMessageId: uuid('inbound_message_id'),
  },
  (table) => [
    ...clinicKeys(table),
    patientRef(table),
    ...userRefs(table, table.recordedBy),
    index('patient_channel_consents_patient_idx').on(
      table.accountId,
      table.patientId,
      table.channel,
      table.recordedAt.desc(),
    ),
    check('patient_channel_consents_channel', sql`${table.channel} in ('email', 'sms', 'whatsapp')`),
    check('patient_channel_consents_source', sql`${table.source} in ('staff', 'portal', 'reply', 'link', 'import')`),
    check('patient_channel_consents_note', sql`char_length(${table.note}) <= 500`),
  ],
);

/**
 * Every message to a patient: what, to whom, by which channel, and what became of it. The row is the
 * outbox (a `message_send` job per row sends it) and the log the screens show; never deleted.
 */
export const messages = pgTable(
  'messages',
  {
    ...clinicRowColumns,
    /** Null: an answer to a number no patient's record has. */
    patientId: uuid('patient_id'),
    appointmentId: uuid('appointment_id'),
    kind: text('kind').notNull(),
    channel: text('channel').notNull(),
    toAddress: text('to_address').notNull(),
    language: text('language').notNull(),
    body: text('body').notNull(),
    /** WhatsApp's approved template and its parameters (a message outside the 24-hour window). */
    templateName: text('template_name'),
    templateParams: jsonb('template_params').$type<string[]>(),
    status: text('status').notNull().default('queued'),
    providerMessageId: text('provider_message_id'),
    errorCode: text('error_code'),
    error: text('error'),
    attempts: integer('attempts').notNull().default(0),
    /** Set, committed, before the provider is called: a message found `sending` was interrupted. */
    sendingSince: timestamp('sending_since', { withTimezone: true }),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    readAt: timestamp('read_at', { withTimezone: true }),
    failedAt: timestamp('failed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    createdBy: uuid('created_by'),
    /** The SHA-256 of the token of the message's "no more messages" link. */
    optOutTokenHash: text('opt_out_token_hash'),
    /** The reply a front-desk answer answers. */
    inReplyTo: uuid('in_reply_to'),
  },
  (table) => [
    ...clinicKeys(table),
    patientRef(table),
    clinicRef(table, table.appointmentId, appointments),
    ...userRefs(table, table.createdBy),
    index('messages_patient_idx').on(table.accountId, table.patientId, table.createdAt.desc(), table.id.desc()),
    index('messages_appointment_idx')
      .on(table.accountId, table.appointmentId, table.createdAt.desc())
      .where(sql`${table.appointmentId} is not null`),
    index('messages_recent_idx').on(table.accountId, table.createdAt.desc(), table.id.desc()),
    // A reply finds the last reminder sent to its number.
    index('messages_to_idx').on(table.accountId, table.channel, table.toAddress, table.createdAt.desc()),
    uniqueIndex('messages_provider_id_unique')
      .on(table.accountId, table.channel, table.providerMessageId)
      .where(sql`${table.providerMessageId} is not null`),
    uniqueIndex('messages_opt_out_token_unique').on(table.optOutTokenHash),
    check('messages_channel', sql`${table.channel} in ('email', 'sms', 'whatsapp')`),
    check(
      'messages_kind',
      sql`${table.kind} in ('appointment_reminder', 'waiting_list_offer', 'recall', 'answer', 'opt_out_confirmation', 'instalment_reminder')`,
    ),
    check(
      'messages_status',
      sql`${table.status} in ('queued', 'sending', 'sent', 'delivered', 'read', 'failed', 'cancelled')`,
    ),
    check(
      'messages_texts',
      sql`char_length(${table.toAddress}) <= 320 and char_length(${table.body}) <= 4000 and char_length(${table.error}) <= 500`,
    ),
  ],
);

/** A provider's delivery report, once per (message, status): a replayed webhook finds its row and changes nothing. */
export const messageStatusEvents = pgTable(
  'message_status_events',
  {
    ...clinicRowColumns,
    messageId: uuid('message_id').notNull(),
    channel: text('channel').notNull(),
    eventKey: text('event_key').notNull(),
    status: text('status').notNull(),
    errorCode: text('error_code'),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.accountId, table.id] }),
    clinicRef(table, table.messageId, messages),
    uniqueIndex('message_status_events_key_unique').on(table.accountId, table.channel, table.eventKey),
    index('message_status_events_message_idx').on(table.accountId, table.messageId, table.receivedAt),
  ],
);

/**
 * What patients wrote back. A reply the app understood (confirm, cancel, stop) is applied and kept;
 * one it did not lands in the front desk's inbox until someone answers or files it.
 */
export const inboundMessages = pgTable(
  'inbound_messages',
  {
    ...clinicRowColumns,
    channel: text('channel').notNull(),
    providerMessageId: text('provider_message_id').notNull(),
    fromAddress: text('from_address').notNull(),
    body: text('body').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
    patientId: uuid('patient_id'),
    appointmentId: uuid('appointment_id'),
    /** The reminder it answers. */
    messageId: uuid('message_id'),
    intent: text('intent').notNull(),
    outcome: text('outcome').notNull(),
    handledAt: timestamp('handled_at', { withTimezone: true }),
    handledBy: uuid('handled_by'),
    version: integer('version').notNull().default(1),
  },
  (table) => [
    ...clinicKeys(table),
    patientRef(table),
    clinicRef(table, table.appointmentId, appointments),
    clinicRef(table, table.messageId, messages),
    ...userRefs(table, table.handledBy),
    uniqueIndex('inbound_messages_provider_id_unique').on(table.accountId, table.channel, table.providerMessageId),
    index('inbound_messages_inbox_idx')
      .on(table.accountId, table.receivedAt.desc(), table.id.desc())
      .where(sql`${table.handledAt} is null`),
    index('inbound_messages_recent_idx').on(table.accountId, table.receivedAt.desc(), table.id.desc()),
    index('inbound_messages_from_idx').on(table.accountId, table.channel, table.fromAddress, table.receivedAt.desc()),
    check('inbound_messages_channel', sql`${table.channel} in ('sms', 'whatsapp')`),
    check('inbound_messages_intent', sql`${table.intent} in ('confirm', 'cancel', 'stop', 'start', 'unknown')`),
    check(
      'inbound_messages_outcome',
      sql`${table.outcome} in ('applied', 'already', 'too_late', 'no_appointment', 'unknown_sender', 'inbox')`,
    ),
    check(
      'inbound_messages_texts',
      sql`char_length(${table.body}) <= 4000 and char_length(${table.fromAddress}) <= 40`,
    ),
  ],
);

/** A clinic's own wording of a message kind, per channel and language; without one the built-in text is used. */
export const messageTemplates = pgTable(
  'message_templates',
  {
    ...clinicColumn,
    kind: text('kind').notNull(),
    channel: text('channel').notNull(),
    language: text('language').notNull(),
    body: text('body').notNull(),
    /** The WhatsApp template approved by Meta that carries this text outside the 24-hour window. */
    whatsappTemplate: text('whatsapp_template'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    updatedBy: uuid('updated_by'),
    version: integer('version').notNull().default(1),
  },
  (table) => [
    ...clinicKeysOn(table, table.kind, table.channel, table.language),
    updatedByRef(table),
    check('message_templates_kind', sql`${table.kind} in ('appointment_reminder', 'waiting_list_offer', 'recall')`),
    check('message_templates_channel', sql`${table.channel} in ('sms', 'whatsapp')`),
    check('message_templates_language', sql`${table.language} in ('es', 'en', 'fr', 'pt')`),
    check(
      'message_templates_texts',
      sql`char_length(${table.body}) <= 1000 and char_length(${table.whatsappTemplate}) <= 512`,
    ),
  ],
);
