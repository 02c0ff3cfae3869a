import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { clinicRowColumns } from './columns.ts';
import { commercialDocuments } from './commercial.ts';
import { treatmentAuthorizations } from './documents.ts';
import { patientRef } from './patients.ts';
import { clinicKeys, clinicRef, userRefs } from './records.ts';

/**
 * A request to sign a document away from the chair (issue 37): a consent (`authorization_id`) or a
 * budget (`sale_id`), mailed to the patient as a link whose token only the hash of is kept. Pending
 * until signed or cancelled; a pending one past `expires_at` reads as expired (and is stored so
 * when a new one is sent). A resend replaces the token and the expiry on the same row, so the older
 * link stops working.
 */
export const signingRequests = pgTable(
  'signing_requests',
  {
    ...clinicRowColumns,
    kind: text('kind').$type<'authorization' | 'budget'>().notNull(),
    authorizationId: uuid('authorization_id'),
    saleId: uuid('sale_id'),
    patientId: uuid('patient_id').notNull(),
    language: text('language').notNull(),
    sentTo: text('sent_to').notNull(),
    tokenHash: text('token_hash').notNull(),
    status: text('status').$type<'pending' | 'signed' | 'expired' | 'cancelled'>().notNull().default('pending'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull(),
    sentBy: uuid('sent_by').notNull(),
    signedAt: timestamp('signed_at', { withTimezone: true }),
    signerIp: text('signer_ip'),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    cancelledBy: uuid('cancelled_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    ...clinicKeys(table),
    patientRef(table),
    clinicRef(table, table.authorizationId, treatmentAuthorizations),
    clinicRef(table, table.saleId, commercialDocuments),
    ...userRefs(table, table.sentBy, table.cancelledBy),
    uniqueIndex('signing_requests_token_hash_unique').on(table.tokenHash),
    index('signing_requests_authorization_idx').on(table.accountId, table.authorizationId, table.sentAt),
    index('signing_requests_sale_idx').on(table.accountId, table.saleId, table.sentAt),
    // At most one pending request per document (an expired one is closed before a new one is sent).
    uniqueIndex('signing_requests_pending_authorization_unique')
      .on(table.accountId, table.authorizationId)
      .where(sql`${table.status} = 'pending' and ${table.authorizationId} is not null`),
    uniqueIndex('signing_requests_pending_sale_unique')
      .on(table.accountId, table.saleId)
      .where(sql`${table.status} = 'pending' and ${table.saleId} is not null`),
    check(
      'signing_requests_document',
      sql`(${table.kind} = 'authorization' and ${table.authorizationId} is not null and ${table.saleId} is null) or (${table.kind} = 'budget' and ${table.saleId} is not null and ${table.authorizationId} is null)`,
    ),
    check('signing_requests_status', sql`${table.status} in ('pending', 'signed', 'expired', 'cancelled')`),
  ],
);
