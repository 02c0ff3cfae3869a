import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { clinicRowColumns } from './columns.ts';
import { clinicKeys, userRefs } from './records.ts';

/**
 * A report exported in the background (issue 19): what was asked (report, format, period and
 * filters), how far its job got (`progress` 0–100, moved after every chunk of rows) and, when
 * done, the file's key in the disk storage of DATA_DIR/exports (docs/decisions.md "Reports").
 */
export const reportExports = pgTable(
  'report_exports',
  {
    ...clinicRowColumns,
    reportId: text('report_id').notNull(),
    format: text('format', { enum: ['csv', 'xlsx', 'pdf'] }).notNull(),
    /** { from, to, method?, professionalId? } */
    params: jsonb('params').notNull(),
    state: text('state', { enum: ['queued', 'running', 'done', 'failed', 'expired'] })
      .notNull()
      .default('queued'),
    progress: integer('progress').notNull().default(0),
    rowsWritten: integer('rows_written').notNull().default(0),
    totalRows: integer('total_rows'),
    fileName: text('file_name').notNull(),
    /** While running: the bytes of the rows spooled by committed chunks (a retried chunk truncates to it). */
    spoolBytes: bigint('spool_bytes', { mode: 'number' }).notNull().default(0),
    /**
     * While running, for a report read by keyset (the big ones): the order key of the last row
     * spooled; the next chunk starts after it instead of counting `rows_written` rows again.
     */
    cursor: jsonb('cursor'),
    /** When done: the file's key in the exports storage. */
    storageKey: text('storage_key'),
    byteSize: integer('byte_size'),
    lastError: text('last_error'),
    createdBy: uuid('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (table) => [
    ...clinicKeys(table),
    ...userRefs(table, table.createdBy),
    index('report_exports_recent_idx').on(table.accountId, table.createdAt.desc()),
    check('report_exports_progress', sql`${table.progress} between 0 and 100`),
  ],
);
