import { foreignKey, integer, jsonb, type PgColumn, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';
import { clinicColumn } from './columns.ts';
import { clinicKeysOn } from './records.ts';

/**
 * Electronic invoicing per clinic (issue 39): the regime its sales are sent under, its certificate
 * (sealed, lib/secrets.ts; never answered back), each series' numbering as the authority knows it,
 * and the access tickets every instance shares.
 */

function updatedByRef(table: { accountId: PgColumn; updatedBy: PgColumn }) {
  return foreignKey({ columns: [table.accountId, table.updatedBy], foreignColumns: [users.accountId, users.id] });
}

export interface CertificateInfo {
  subject: string;
  issuer: string;
  serialNumber: string;
  /** The CUIT or NIF the certificate names. */
  taxId: string | null;
  notBefore: string;
  notAfter: string;
}

export const einvoiceSettings = pgTable(
  'einvoice_settings',
  {
    ...clinicColumn,
    regime: text('regime', { enum: ['local', 'arca', 'verifactu'] })
      .notNull()
      .default('local'),
    environment: text('environment', { enum: ['homologation', 'production'] })
      .notNull()
      .default('homologation'),
    certificateSealed: text('certificate_sealed'),
    privateKeySealed: text('private_key_sealed'),
    certificateInfo: jsonb('certificate_info').$type<CertificateInfo>(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    updatedBy: uuid('updated_by'),
    version: integer('version').notNull().default(1),
  },
  (table) => [...clinicKeysOn(table), updatedByRef(table)],
);

/** Where a series stands: our last number, the authority's, a difference found, who sends it now. */
export const einvoiceSeries = pgTable(
  'einvoice_series',
  {
    ...clinicColumn,
    series: text('series').notNull(),
    /** ARCA: the last number authorised as we know it. */
    lastNumber: integer('last_number').notNull().default(0),
    /** ARCA: the authority's last number when last asked (FECompUltimoAutorizado). */
    authorityLastNumber: integer('authority_last_number'),
    /** A difference between ours and the authority's, as found: { ours, authority, at }. */
    difference: jsonb('difference').$type<{ ours: number; authority: number; at: string } | null>(),
    /** Verifactu: the chain's last record (the next one's "registro anterior"). */
    lastLink: jsonb('last_link').$type<{ numSerie: string; fecha: string; huella: string } | null>(),
    /** One sender at a time per series: the job holding it, until when. */
    leaseJob: uuid('lease_job'),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    /** Verifactu: the authority's waiting time between submissions ends here. */
    nextSendAt: timestamp('next_send_at', { withTimezone: true }),
    checkedAt: timestamp('checked_at', { withTimezone: true }),
  },
  (table) => [...clinicKeysOn(table, table.series)],
);

/** WSAA access tickets (token and sign, sealed), shared by every instance until they expire. */
export const einvoiceTickets = pgTable(
  'einvoice_tickets',
  {
    ...clinicColumn,
    service: text('service').notNull(),
    ticketSealed: text('ticket_sealed').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (table) => [...clinicKeysOn(table, table.service)],
);
