import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { clinicRowColumns } from './columns.ts';
import { clinicKeys, userRefs } from './records.ts';

/**
 * API tokens for integrators (issue 42, docs/decisions.md "API tokens"). `kind` personal: it acts
 * as its user, at the user's level of the moment, and dies with the user's access; clinic: it acts
 * for the clinic at the administrator level, whoever created it (`user_id` is its creator, the author
 * its writes carry). Both act only within `scopes` (actions of the permission matrix). The secret is
 * never stored: `token_hash` is its sha256 (the bearer check finds it before the clinic is known, a
 * global look-up) and `prefix` its first characters, to tell tokens apart on screen.
 */
export const apiTokens = pgTable(
  'api_tokens',
  {
    ...clinicRowColumns,
    kind: text('kind', { enum: ['personal', 'clinic'] }).notNull(),
    userId: uuid('user_id').notNull(),
    name: text('name').notNull(),
    tokenHash: text('token_hash').notNull(),
    prefix: text('prefix').notNull(),
    scopes: text('scopes').array().notNull(),
    rateLimitPerMinute: integer('rate_limit_per_minute').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** Touched by the bearer check at most every 30 s, like a session's activity. */
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    revokedBy: uuid('revoked_by'),
    createdBy: uuid('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    ...clinicKeys(table),
    ...userRefs(table, table.userId, table.createdBy, table.revokedBy),
    uniqueIndex('api_tokens_token_hash_unique').on(table.tokenHash),
    index('api_tokens_list_idx').on(table.accountId, table.kind, table.userId, table.createdAt.desc()),
    check('api_tokens_name', sql`char_length(${table.name}) between 1 and 80`),
    check('api_tokens_rate_limit', sql`${table.rateLimitPerMinute} between 1 and 600`),
    check('api_tokens_scopes', sql`cardinality(${table.scopes}) between 1 and 64`),
  ],
);

/**
 * The clinic's full export (issue 42): a job writes every clinic table and file into one ZIP in
 * DATA_DIR/exports, moving `progress` after each chunk; the file is kept `keepDays` days.
 */
export const clinicExports = pgTable(
  'clinic_exports',
  {
    ...clinicRowColumns,
    state: text('state', { enum: ['queued', 'running', 'done', 'failed', 'expired'] })
      .notNull()
      .default('queued'),
    progress: integer('progress').notNull().default(0),
    tablesWritten: integer('tables_written').notNull().default(0),
    tableCount: integer('table_count'),
    rowsWritten: bigint('rows_written', { mode: 'number' }).notNull().default(0),
    filesWritten: integer('files_written').notNull().default(0),
    /**
     * While running: the tables to write (found in the catalogue at the first run), the one being
     * written and the primary key of its last row spooled; the next chunk starts after it.
     */
    cursor: jsonb('cursor'),
    /** While running: the bytes of the current table's spool written by committed chunks. */
    spoolBytes: bigint('spool_bytes', { mode: 'number' }).notNull().default(0),
    fileName: text('file_name').notNull(),
    storageKey: text('storage_key'),
    byteSize: bigint('byte_size', { mode: 'number' }),
    lastError: text('last_error'),
    createdBy: uuid('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (table) => [
    ...clinicKeys(table),
    ...userRefs(table, table.createdBy),
    index('clinic_exports_recent_idx').on(table.accountId, table.createdAt.desc()),
    check('clinic_exports_progress', sql`${table.progress} between 0 and 100`),
  ],
);
