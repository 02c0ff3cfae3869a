import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { clinicRowColumns } from './columns.ts';
import { clinicKeys, clinicKeysOn, userRefs } from './records.ts';

/**
 * Importing data (issue 42): a run per uploaded file, the clinic's saved column mapping per source
 * and kind, the link of each imported row (source, kind, external id → the record and the hash of
 * the row's mapped values) and each row's outcome of a pass (the dry run, the import).
 */
export const importRuns = pgTable(
  'import_runs',
  {
    ...clinicRowColumns,
    kind: text('kind', { enum: ['patients', 'balances', 'appointments'] }).notNull(),
    /** The clinic's name of the system ("GesDent"), as typed. */
    source: text('source').notNull(),
    /** The same, lower case without accents or spaces around: what links and mappings are keyed by. */
    sourceKey: text('source_key').notNull(),
    fileName: text('file_name').notNull(),
    byteSize: bigint('byte_size', { mode: 'number' }).notNull(),
    format: text('format', { enum: ['csv', 'xlsx'] }).notNull(),
    /** The file in the imports storage (removed when the run is done). */
    storageKey: text('storage_key'),
    detectedEncoding: text('detected_encoding', { enum: ['utf-8', 'windows-1252'] }).notNull(),
    encoding: text('encoding', { enum: ['utf-8', 'windows-1252'] }).notNull(),
    /** ',' ';' or a tab, detected from the header (CSV). */
    delimiter: text('delimiter').notNull().default(','),
    mapping: jsonb('mapping').$type<Record<string, number>>(),
    state: text('state', { enum: ['uploaded', 'checking', 'checked', 'importing', 'done', 'failed'] })
      .notNull()
      .default('uploaded'),
    phase: text('phase', { enum: ['check', 'import'] }),
    progress: integer('progress').notNull().default(0),
    rowsDone: integer('rows_done').notNull().default(0),
    totalRows: integer('total_rows'),
    created: integer('created').notNull().default(0),
    updated: integer('updated').notNull().default(0),
    unchanged: integer('unchanged').notNull().default(0),
    refused: integer('refused').notNull().default(0),
    lastError: text('last_error'),
    createdBy: uuid('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (table) => [
    ...clinicKeys(table),
    ...userRefs(table, table.createdBy),
    index('import_runs_recent_idx').on(table.accountId, table.createdAt.desc()),
    check('import_runs_progress', sql`${table.progress} between 0 and 100`),
    check('import_runs_source', sql`char_length(${table.source}) between 1 and 60`),
  ],
);

export const importMappings = pgTable(
  'import_mappings',
  {
    ...clinicRowColumns,
    sourceKey: text('source_key').notNull(),
    kind: text('kind').notNull(),
    /** Field → the header the column had (matched again by header in the next file). */
    columns: jsonb('columns').$type<Record<string, string>>().notNull(),
    updatedBy: uuid('updated_by').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    ...clinicKeys(table),
    ...userRefs(table, table.updatedBy),
    uniqueIndex('import_mappings_source_idx').on(table.accountId, table.sourceKey, table.kind),
  ],
);

export const importLinks = pgTable(
  'import_links',
  {
    accountId: uuid('account_id').notNull(),
    sourceKey: text('source_key').notNull(),
    kind: text('kind').notNull(),
    externalId: text('external_id').notNull(),
    recordId: uuid('record_id').notNull(),
    /** SHA-256 of the row's mapped values as last imported: the same row again is "unchanged". */
    rowHash: text('row_hash').notNull(),
    runId: uuid('run_id').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [...clinicKeysOn(table, table.sourceKey, table.kind, table.externalId)],
);

export const importRows = pgTable(
  'import_rows',
  {
    accountId: uuid('account_id').notNull(),
    runId: uuid('run_id').notNull(),
    phase: text('phase', { enum: ['check', 'import'] }).notNull(),
    line: integer('line').notNull(),
    externalId: text('external_id'),
    outcome: text('outcome', { enum: ['created', 'updated', 'unchanged', 'refused'] }).notNull(),
    recordId: uuid('record_id'),
    label: text('label'),
    /** [{ field, code }]: why a row is refused (empty otherwise). */
    reasons: jsonb('reasons').$type<{ field: string; code: string }[]>().notNull(),
    /** The refused row's cells as read, for the refused rows' CSV. */
    cells: jsonb('cells').$type<string[]>(),
  },
  (table) => [
    ...clinicKeysOn(table, table.runId, table.phase, table.line),
    index('import_rows_outcome_idx').on(table.accountId, table.runId, table.phase, table.outcome, table.line),
    index('import_rows_external_idx').on(table.accountId, table.runId, table.phase, table.externalId),
  ],
);
