import { sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { boolean, date, foreignKey, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { keptKey } from '../spanish-order.ts';
import { clinicColumn, clinicRowColumns } from './columns.ts';
import { clinicKeysOn, clinicSearchIndex, recordKeys, recordStamps, userRefs } from './records.ts';

/**
 * Patients (issue 5) and the per-clinic counters that number them (P-000123). A patient is never
 * physically deleted: `deleted_at`/`deleted_by` hide them everywhere, the audit keeps the rest.
 */

/** Human codes per clinic (ARCHITECTURE §4): `next = value + 1` under the row lock. */
export const accountCounters = pgTable(
  'account_counters',
  {
    ...clinicColumn,
    name: text('name').notNull(),
    value: integer('value').notNull().default(0),
  },
  (table) => [...clinicKeysOn(table, table.name)],
);

export const patients = pgTable(
  'patients',
  {
    ...clinicRowColumns,
    skuPatient: text('sku_patient').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    email: text('email'),
    phoneArea: text('phone_area'),
    phone: text('phone'),
    sex: text('sex').notNull(),
    birthdate: date('birthdate', { mode: 'string' }).notNull(),
    ssn: text('ssn'),
    medicalHistory: text('medical_history'),
    active: boolean('active').notNull().default(true),
    /** The day the patient died (issue 38: no message reaches a deceased patient's family by mistake). */
    deceasedOn: date('deceased_on', { mode: 'string' }),
    street: text('street'),
    complement: text('complement'),
    zipCode: text('zip_code'),
    country: text('country'),
    state: text('state'),
    city: text('city'),
    district: text('district'),
    address: text('address'),
    obs: text('obs'),
    /** The language of the documents printed for the patient (prescriptions, consents). */
    language: text('language').notNull().default('es'),
    allergies: text('allergies'),
    chronicConditions: text('chronic_conditions'),
    currentMedication: text('current_medication'),
    /**
     * The patient's first attendance (not deleted), kept by the attendances' trigger (migration
     * 0023): the dashboard tells first visits from returning patients without reading each
     * patient's history.
     */
    firstAttendedAt: timestamp('first_attended_at', { withTimezone: true }),
    /**
     * The patient's latest attendance (not deleted), kept by the same trigger (migration 0026):
     * the dashboard counts the patients attended in a period that ends today from
     * `patients_last_attended_idx` instead of the period's attendances.
     */
    lastAttendedAt: timestamp('last_attended_at', { withTimezone: true }),
    /**
     * What search as you type looks in: first and last name (each word of the query matches on its own, so either order works), ID number, skuPatient, e-mail and
     * phone, lower-cased and without accents, under the clinic's trigram index.
     */
    searchText: text('search_text').generatedAlwaysAs(
      sql`odontia_search_text(first_name, last_name, ssn, sku_patient, email, phone_area, phone, medical_history)`,
    ),
    /**
     * The names' keys in Spanish order (db/spanish-order.ts), kept on write: the list and a
     * search's matches sort by them (collate "C") without computing a key per row read.
     */
    lastNameKey: text('last_name_key').generatedAlwaysAs(sql`odontia_sort_key(last_name)`),
    firstNameKey: text('first_name_key').generatedAlwaysAs(sql`odontia_sort_key(first_name)`),
    ...recordStamps,
  },
  (table) => [
    ...recordKeys(table),
    uniqueIndex('patients_sku_unique').on(table.accountId, table.skuPatient),
    // The same ID number twice in one clinic: 409 duplicate_ssn (a deleted patient keeps theirs).
    uniqueIndex('patients_ssn_unique')
      .on(table.accountId, sql`lower(${table.ssn})`)
      .where(sql`${table.ssn} is not null and ${table.deletedAt} is null`),
    // Migration 0006 adds INCLUDE (search_text, active), which drizzle-kit cannot express: a
    // search with thousands of matches walks this index in name order without the table. In
    // Spanish order since migration 0027 (db/spanish-order.ts), which keeps the INCLUDE.
    index('patients_name_idx')
      .on(table.accountId, keptKey(table.lastNameKey), keptKey(table.firstNameKey), table.id)
      .where(sql`${table.deletedAt} is null`),
    // The list sorted by first name.
    index('patients_first_name_idx')
      .on(table.accountId, keptKey(table.firstNameKey), keptKey(table.lastNameKey), table.id)
      .where(sql`${table.deletedAt} is null`),
    clinicSearchIndex('patients_search_idx', table),
    // The patients attended in a period that ends today (the dashboard): counted from the index
    // alone. Deleted patients are in it, as their attendances are in the attendances' count.
    index('patients_last_attended_idx')
      .on(table.accountId, table.lastAttendedAt)
      .where(sql`${table.lastAttendedAt} is not null`),
  ],
);

/** The record's patient, of the same clinic. */
export function patientRef(table: { accountId: PgColumn; patientId: PgColumn }) {
  return foreignKey({ columns: [table.accountId, table.patientId], foreignColumns: [patients.accountId, patients.id] });
}

/** Keys of a patient's record: its own (`recordKeys`), its patient, and the users it names (its professional…). */
export function patientRecordKeys(
  table: Parameters<typeof recordKeys>[0] & { patientId: PgColumn },
  ...people: PgColumn[]
) {
  return [...recordKeys(table), patientRef(table), ...userRefs(table, ...people)];
}
