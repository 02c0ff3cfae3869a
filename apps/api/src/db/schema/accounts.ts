import type { UserLevel } from '@odontia/shared/enums';
import type { TaxIdKind } from '@odontia/shared/tax-ids';
import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  date,
  foreignKey,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { spanishKey } from '../spanish-order.ts';
import { clinicRowColumns } from './columns.ts';

/**
 * Accounts (clinics), their users, sessions, one-time auth tokens and the audit trail (issue 3).
 * Every clinic-owned table has `account_id`, a primary key `(account_id, id)` and foreign keys
 * that include `account_id` (ARCHITECTURE §4). Row-level security is switched on in the
 * migration (`enable_tenant_rls`), not here.
 */

const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};

/** The clinic (tenant). Its own id is the tenant key: policy `id = current_account_id()`. */
export const accounts = pgTable(
  'accounts',
  {
    id: uuid('id').primaryKey(),
    clinicName: text('clinic_name').notNull(),
    contact: text('contact').notNull(),
    plan: text('plan').notNull().default('trial'),
    planEndsAt: timestamp('plan_ends_at', { withTimezone: true }),
    promotionalCode: text('promotional_code'),
    systemCurrency: text('system_currency').notNull(),
    lockAfterMinutes: integer('lock_after_minutes').notNull().default(15),
    timeZone: text('time_zone').notNull(),
    /** E-mail reminders of appointments (issue 16): on or off, and how long before the appointment. */
    remindersEnabled: boolean('reminders_enabled').notNull().default(true),
    reminderLeadMinutes: integer('reminder_lead_minutes').notNull().default(1440),
    /**
     * Messages to patients (issue 38): the channels a reminder tries, in order (the first the patient
     * can receive and agreed to); and the quiet hours (minutes of the clinic's day; null: none), when no
     * SMS or WhatsApp leaves — it waits for their end.
     */
    reminderChannels: text('reminder_channels').array().notNull().default(sql`'{email}'::text[]`),
    quietHoursStart: integer('quiet_hours_start').default(21 * 60),
    quietHoursEnd: integer('quiet_hours_end').default(9 * 60),
    /** Recalls (issue 38): an e-mail this many days before a recall is due (0: none; at most 60). */
    recallMessageDays: integer('recall_message_days').notNull().default(0),
    /** Payment plans (issue 40): the patient's reminder this many days before an instalment is due (0: none; at most 30). */
    instalmentReminderDays: integer('instalment_reminder_days').notNull().default(3),
    /**
     * Online booking (issue 37): the clinic's rules for the patient portal and the public booking
     * page. Which treatments are bookable is `treatments.bookable_online`; which professionals,
     * `online_booking_professional_ids` (checked against the clinic's users when saved).
     */
    onlineBookingEnabled: boolean('online_booking_enabled').notNull().default(false),
    onlineBookingProfessionalIds: uuid('online_booking_professional_ids').array().notNull().default(sql`'{}'::uuid[]`),
    onlineBookingLeadHours: integer('online_booking_lead_hours').notNull().default(24),
    onlineBookingHorizonDays: integer('online_booking_horizon_days').notNull().default(60),
    onlineBookingMaxPending: integer('online_booking_max_pending').notNull().default(2),
    onlineBookingNewPatients: boolean('online_booking_new_patients').notNull().default(false),
    onlineBookingChangeHours: integer('online_booking_change_hours').notNull().default(24),
    /** How long a waiting-list offer holds its slot (issue 38), in minutes. */
    waitingListHoldMinutes: integer('waiting_list_hold_minutes').notNull().default(15),
    /** How many waiting patients a freed slot is offered to at once (issue 38). */
    waitingListOffersPerSlot: integer('waiting_list_offers_per_slot').notNull().default(3),
    /** System settings (issue 19): a new user's language and date format, and the clinic's upload limit. */
    defaultLanguage: text('default_language').notNull().default('es'),
    dateFormat: text('date_format').notNull().default('DD/MM/YYYY'),
    /** Largest file a user of the clinic may upload, in MB; null: the installation's UPLOAD_MAX_MB. */
    uploadMaxMb: integer('upload_max_mb'),
    /** Where and how patients reach the clinic, printed on reminders (issue 17 versions the fiscal data). */
    address: text('address'),
    phone: text('phone'),
    /**
     * Business and fiscal data (issue 17), printed on every PDF and copied onto each commercial
     * document when it is registered or issued, so a later change never rewrites a past document.
     */
    legalName: text('legal_name'),
    tradeName: text('trade_name'),
    /** ISO 3166 country of the fiscal data ('AR', 'ES', 'BR', 'FR'…): which tax ids and conditions apply. */
    country: text('country'),
    taxIdKind: text('tax_id_kind').$type<TaxIdKind>(),
    taxId: text('tax_id'),
    fiscalCondition: text('fiscal_condition'),
    city: text('city'),
    province: text('province'),
    postalCode: text('postal_code'),
    phoneMobile: text('phone_mobile'),
    email: text('email'),
    website: text('website'),
    activatedAt: timestamp('activated_at', { withTimezone: true }),
    /**
     * My account (issue 19): the contract's start (its end, the due date, is `plan_ends_at`), the
     * last renewal ordered and not yet paid (it gives a new grace period), and the billing data of
     * the clinic as Odontia's customer (or its fiscal data when `billing_same_as_fiscal`).
     */
    contractStartsAt: timestamp('contract_starts_at', { withTimezone: true }),
    renewalRequestedAt: timestamp('renewal_requested_at', { withTimezone: true }),
    billingSameAsFiscal: boolean('billing_same_as_fiscal').notNull().default(true),
    billingLegalName: text('billing_legal_name'),
    billingTaxId: text('billing_tax_id'),
    billingAddress: text('billing_address'),
    billingCity: text('billing_city'),
    billingPostalCode: text('billing_postal_code'),
    billingCountry: text('billing_country'),
    billingEmail: text('billing_email'),
    billingContact: text('billing_contact'),
    /**
     * The patient portal's address of the clinic (issue 37): `/p/<slug>`, lower-case
     * `[a-z0-9-]{3,60}`, unique. '' asks the database for one from the clinic's name (trigger
     * `accounts_public_slug`, migration 0033, which also checks the form and de-duplicates).
     */
    publicSlug: text('public_slug').notNull().default(''),
    /** The patient portal's "how to pay" text (issue 37), shown beside the patient's balance. */
    portalPaymentInstructions: text('portal_payment_instructions'),
    /**
     * The clinic's brand colour (issue 37), '#rrggbb' lower-case, on the portal's pages and the
     * e-mails to patients (in shades that keep 4.5:1: packages/shared brand-color.ts); null: the
     * product's own.
     */
    brandColor: text('brand_color'),
    ...timestamps,
    version: integer('version').notNull().default(1),
  },
  (table) => [
    /**
     * Issue 35: every commercial document and money movement is in the clinic's currency. Their
     * (account_id, currency) reference this key, so a row in another currency is refused and the
     * clinic's currency cannot change while any of them exists.
     */
    unique('accounts_id_currency_unique').on(table.id, table.systemCurrency),
    check('accounts_recall_message_days', sql`${table.recallMessageDays} between 0 and 60`),
    check('accounts_instalment_reminder_days', sql`${table.instalmentReminderDays} between 0 and 30`),
    check('accounts_brand_color', sql`${table.brandColor} is null or ${table.brandColor} ~ '^#[0-9a-f]{6}$'`),
  ],
);

/**
 * The clinic's movements with Odontia (issue 19): charges, payments and renewal orders, each with
 * the period it covers. Never deleted (REVOKE DELETE in 0021); a renewal order becomes `paid`
 * when the payment arrives (the operator's mark-paid, or a payment provider's adapter).
 */
export const accountMovements = pgTable(
  'account_movements',
  {
    ...clinicRowColumns,
    date: date('date', { mode: 'string' }).notNull(),
    kind: text('kind').notNull(),
    plan: text('plan'),
    periodStart: date('period_start', { mode: 'string' }),
    periodEnd: date('period_end', { mode: 'string' }),
    amount: numeric('amount', { precision: 14, scale: 2 }).notNull(),
    currency: text('currency').notNull(),
    status: text('status').notNull(),
    reference: text('reference').notNull(),
    /** The payment provider adapter that took a renewal order ('manual'). */
    provider: text('provider'),
    /** A payment: the renewal order it pays. */
    orderId: uuid('order_id'),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    createdBy: uuid('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.accountId, table.id] }),
    foreignKey({ columns: [table.accountId], foreignColumns: [accounts.id] }),
    index('account_movements_date_idx').on(table.accountId, table.date.desc(), table.createdAt.desc(), table.id.desc()),
    uniqueIndex('account_movements_reference_unique').on(table.accountId, table.reference),
    index('account_movements_pending_idx')
      .on(table.accountId, table.kind, table.createdAt)
      .where(sql`${table.status} = 'pending'`),
    check('account_movements_kind', sql`${table.kind} in ('charge', 'payment', 'renewal_order')`),
    check('account_movements_status', sql`${table.status} in ('pending', 'paid', 'cancelled')`),
    check('account_movements_amount', sql`${table.amount} >= 0`),
  ],
);

/**
 * One sign-in across clinics (issue 19): the person's e-mail and password, shared by their
 * memberships (`users` rows, one per clinic). An installation table, not a clinic's: no
 * `account_id`, no row-level security, and only the system context of the auth flows reads it
 * (migration 0024 revokes it from odontia_app). `password_hash` is null until the mailbox is
 * proven (activation, invitation or reset link): a sign-up's password waits on its activation
 * token, so nobody can set the password of an address they do not read.
 */
export const logins = pgTable(
  'logins',
  {
    id: uuid('id').primaryKey(),
    /** Stored lower-cased; unique across the installation (sign-in by e-mail alone). */
    email: text('email').notNull(),
    passwordHash: text('password_hash'),
    /** The clinic the person last entered: sign-in opens a session there. */
    lastAccountId: uuid('last_account_id').references(() => accounts.id),
    ...timestamps,
  },
  (table) => [uniqueIndex('logins_email_unique').on(sql`lower(${table.email})`)],
);

export const users = pgTable(
  'users',
  {
    ...clinicRowColumns,
    completeName: text('complete_name').notNull(),
    /** The person's sign-in (e-mail and password), shared by their memberships in other clinics. */
    loginId: uuid('login_id')
      .notNull()
      .references(() => logins.id),
    /** The login's e-mail, copied for the clinic's lists and mails (kept equal when it changes). */
    email: text('email').notNull(),
    level: text('level').$type<UserLevel>().notNull(),
    systemLanguage: text('system_language').notNull(),
    dateFormat: text('date_format').notNull(),
    systemCurrency: text('system_currency').notNull(),
    /** A professional's licence (matrícula) and title, printed on prescriptions (issue 6). */
    licenseNumber: text('license_number'),
    specialty: text('specialty'),
    /** A customer membership's patient (issue 37): set exactly when `level = 'customer'`. */
    patientId: uuid('patient_id'),
    active: boolean('active').notNull().default(true),
    activatedAt: timestamp('activated_at', { withTimezone: true }),
    ...timestamps,
    version: integer('version').notNull().default(1),
  },
  (table) => [
    primaryKey({ columns: [table.accountId, table.id] }),
    foreignKey({ columns: [table.accountId], foreignColumns: [accounts.id] }),
    uniqueIndex('users_account_email_unique').on(table.accountId, sql`lower(${table.email})`),
    // One membership per login and clinic; led by the login: a person's clinics in one descent.
    uniqueIndex('users_login_unique').on(table.loginId, table.accountId),
    // The clinic's people in Spanish order (migration 0027): the users' list, the professionals.
    index('users_name_idx').on(table.accountId, spanishKey(table.completeName), table.id),
    // A patient's portal membership: at most one per patient. Its foreign key to the clinic's
    // patient (users_patient_fk: patients.ts imports this file) and the check that a customer has
    // a patient and staff none (users_patient_customer, after the older customers go) are in 0033.
    uniqueIndex('users_patient_unique').on(table.accountId, table.patientId),
  ],
);

export const sessions = pgTable(
  'sessions',
  {
    ...clinicRowColumns,
    userId: uuid('user_id').notNull(),
    /** sha256 (hex) of the opaque bearer token; the token itself is never stored. */
    tokenHash: text('token_hash').notNull(),
    remember: boolean('remember').notNull().default(false),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    lastActivityAt: timestamp('last_activity_at', { withTimezone: true }).notNull().defaultNow(),
    lockedAt: timestamp('locked_at', { withTimezone: true }),
    ip: text('ip'),
    userAgent: text('user_agent'),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.accountId, table.id] }),
    foreignKey({ columns: [table.accountId, table.userId], foreignColumns: [users.accountId, users.id] }),
    uniqueIndex('sessions_token_hash_unique').on(table.tokenHash),
    index('sessions_user_idx').on(table.accountId, table.userId),
  ],
);

/** 'portal': a patient's one-time sign-in link to the portal (issue 37). */
export const authTokenPurposes = ['activation', 'reset', 'invitation', 'portal'] as const;
export type AuthTokenPurpose = (typeof authTokenPurposes)[number];

/** Activation, password-reset and invitation links: hashed, single use, expiring. */
export const authTokens = pgTable(
  'auth_tokens',
  {
    ...clinicRowColumns,
    userId: uuid('user_id').notNull(),
    purpose: text('purpose', { enum: authTokenPurposes }).notNull(),
    tokenHash: text('token_hash').notNull(),
    /**
     * An activation link of a sign-up: the password chosen then, set on the login when the link is
     * used (issue 19), never before. Null for every other link.
     */
    passwordHash: text('password_hash'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.accountId, table.id] }),
    foreignKey({ columns: [table.accountId, table.userId], foreignColumns: [users.accountId, users.id] }),
    uniqueIndex('auth_tokens_token_hash_unique').on(table.tokenHash),
  ],
);

/**
 * Who did what, chained by hash per clinic: `hash = sha256(prev_hash ‖ the event)`, `seq` counts
 * per clinic. The app roles may only INSERT and SELECT (migration 0001).
 */
export const auditEvents = pgTable(
  'audit_events',
  {
    ...clinicRowColumns,
    seq: integer('seq').notNull(),
    userId: uuid('user_id'),
    patientId: uuid('patient_id'),
    action: text('action').notNull(),
    entity: text('entity').notNull(),
    entityId: uuid('entity_id'),
    before: jsonb('before'),
    after: jsonb('after'),
    ip: text('ip'),
    /** The API token a write was made with (issue 42); null for a session's or a job's. */
    apiTokenId: uuid('api_token_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    prevHash: text('prev_hash'),
    hash: text('hash').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.accountId, table.id] }),
    foreignKey({ columns: [table.accountId], foreignColumns: [accounts.id] }),
    uniqueIndex('audit_events_chain_unique').on(table.accountId, table.seq),
    // A record's "history of changes" (newest first) without reading the clinic's whole trail.
    index('audit_events_entity_idx').on(table.accountId, table.entity, table.entityId, table.seq),
  ],
);
