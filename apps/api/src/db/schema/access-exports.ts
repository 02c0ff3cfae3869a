import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { clinicRowColumns } from './columns.ts';
import { patientRef } from './patients.ts';
import { clinicKeys, userRefs } from './records.ts';

/**
 * A patient's right of access (issue 42): the ZIP of their whole record, asked by the staff from
 * the patient's page or by the patient in the portal (`requested_via`), written by a job in
 * steps that move `progress`, kept in DATA_DIR/exports like the report exports and removed after
 * REPORT_EXPORT_KEEP_DAYS (docs/decisions.md "Right of access").
 */
export const accessExports = pgTable(
  'access_exports',
  {
    ...clinicRowColumns,
    patientId: uuid('patient_id').notNull(),
    requestedVia: text('requested_via', { enum: ['staff', 'portal'] }).notNull(),
    state: text('state', { enum: ['queued', 'running', 'done', 'failed', 'expired'] })
      .notNull()
      .default('queued'),
    progress: integer('progress').notNull().default(0),
    /** The step the job reached: 0 nothing yet, 1 the record's documents spooled, 2 the archive written. */
    step: integer('step').notNull().default(0),
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
    patientRef(table),
    ...userRefs(table, table.createdBy),
    index('access_exports_patient_idx').on(table.accountId, table.patientId, table.createdAt.desc()),
    check('access_exports_progress', sql`${table.progress} between 0 and 100`),
    check('access_exports_step', sql`${table.step} between 0 and 2`),
  ],
);
