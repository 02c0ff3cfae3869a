import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  type ExtraConfigColumn,
  foreignKey,
  index,
  integer,
  type PgColumn,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { accounts, users } from './accounts.ts';

/**
 * What every clinic-owned record table declares (docs/adding-a-domain.md): its stamps (who and
 * when created, changed, deleted; the version of an edit), the primary key `(account_id, id)`,
 * the clinic, and foreign keys that include `account_id` so a row never points at another
 * clinic's (ARCHITECTURE §4).
 */

export const recordStamps = {
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  createdBy: uuid('created_by'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  updatedBy: uuid('updated_by'),
  deletedAt: timestamp('deleted_at', { withTimezone: true }),
  deletedBy: uuid('deleted_by'),
  version: integer('version').notNull().default(1),
};

/**
 * The professional who signs a clinical paper, with the name, licence and specialty copied when it
 * is written, so a later profile change does not alter what was printed.
 */
export const signingProfessional = {
  professionalId: uuid('professional_id').notNull(),
  professionalName: text('professional_name').notNull(),
  professionalLicense: text('professional_license'),
  professionalSpecialty: text('professional_specialty'),
};

/** The stamps of a row that is written once and only ever voided: lines, chart entries, addenda. */
export const entryStamps = {
  createdAt: recordStamps.createdAt,
  createdBy: recordStamps.createdBy,
  deletedAt: recordStamps.deletedAt,
  deletedBy: recordStamps.deletedBy,
};

interface ClinicOwned {
  accountId: AnyPgColumn;
  id: AnyPgColumn;
}

/** The primary key `(account_id, …columns)` and the clinic: a clinic's table keyed by other columns than `id`. */
export function clinicKeysOn(table: { accountId: AnyPgColumn }, ...columns: AnyPgColumn[]) {
  return [
    primaryKey({ columns: [table.accountId, ...columns] }),
    foreignKey({ columns: [table.accountId], foreignColumns: [accounts.id] }),
  ];
}

/** `(account_id, id)` and the clinic. */
export function clinicKeys(table: ClinicOwned) {
  return clinicKeysOn(table, table.id);
}

/** Each column points at a user of the same clinic. */
export function userRefs(table: ClinicOwned, ...columns: PgColumn[]) {
  return columns.map((column) =>
    foreignKey({ columns: [table.accountId, column], foreignColumns: [users.accountId, users.id] }),
  );
}

/** `column` points at a row of `target` of the same clinic. */
export function clinicRef(table: ClinicOwned, column: PgColumn, target: ClinicOwned) {
  return foreignKey({ columns: [table.accountId, column], foreignColumns: [target.accountId, target.id] });
}

/** Keys of a line of `parent` (its row through `column`): `(account_id, id)`, the parent, who wrote and voided it. */
export function lineKeys(
  table: ClinicOwned & { createdBy: PgColumn; deletedBy: PgColumn },
  column: PgColumn,
  parent: ClinicOwned,
) {
  return [
    primaryKey({ columns: [table.accountId, table.id] }),
    clinicRef(table, column, parent),
    ...userRefs(table, table.createdBy, table.deletedBy),
  ];
}

/** Keys of a record with stamps: clinic keys and who created, changed and deleted it. */
export function recordKeys(table: ClinicOwned & { createdBy: PgColumn; updatedBy: PgColumn; deletedBy: PgColumn }) {
  return [...clinicKeys(table), ...userRefs(table, table.createdBy, table.updatedBy, table.deletedBy)];
}

/**
 * "The patient's records, newest first" over live rows: the one index a patient's list reads
 * (ORDER BY `newestFirst()` of clinical.repository matches its direction and null order).
 */
export function newestOfPatientIndex(
  name: string,
  table: { accountId: ExtraConfigColumn; id: ExtraConfigColumn; patientId: ExtraConfigColumn; deletedAt: PgColumn },
  date: ExtraConfigColumn,
) {
  return index(name)
    .on(table.accountId, table.patientId, date.desc(), table.id.desc())
    .where(sql`${table.deletedAt} is null`);
}

/**
 * Search as you type, keyed by clinic (issue 21): a GIN index over the clinic's trigram keys
 * of `search_text` (migration 0010, `odontia_clinic_search_keys`), so each key's list holds one
 * clinic's rows and a search never reads another clinic's matches. db/indexed-search.ts queries it.
 */
export function clinicSearchIndex(name: string, table: { accountId: PgColumn; searchText: PgColumn }) {
  return index(name).using('gin', sql`odontia_clinic_search_keys(${table.accountId}, ${table.searchText})`);
}
