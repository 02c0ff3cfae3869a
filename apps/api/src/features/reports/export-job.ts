import { createWriteStream } from 'node:fs';
import { open, rm, truncate } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { and, eq, lt, sql } from 'drizzle-orm';
import type { AnyPgColumn, PgTable, PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { TxContext } from '../../context.ts';
import type { Database } from '../../db/client.ts';
import type { SystemTx } from '../../db/tenancy.ts';
import { digestTap, type FileStorage, type StoredObject } from '../../lib/file-storage.ts';
import { enqueueJob } from '../jobs/jobs.repository.ts';
import type { ClaimedJob, JobContext, JobHandler } from '../jobs/jobs.worker.ts';

/**
 * What the background exports share (report exports, issue 19; a patient's right of access and the
 * clinic's full export, issue 42): a row per export (`state` queued → running → done | failed, and
 * expired once swept), a job that runs in steps — each run claims the row, writes a piece to a
 * spool on disk, records how far it got and queues the next run in the job's transaction — the
 * last run that stores the file and marks it done, the failure that keeps the error and drops the
 * spool, and the periodic sweep of old files. Each export keeps only what it writes.
 */

/** The columns every export table has. */
export type ExportTable = PgTable & {
  accountId: AnyPgColumn;
  id: AnyPgColumn;
  state: AnyPgColumn;
  storageKey: AnyPgColumn;
  byteSize: AnyPgColumn;
  lastError: AnyPgColumn;
  finishedAt: AnyPgColumn;
};

export interface ExportRun<T extends ExportTable> {
  exportId: string;
  /** The export's row, locked (`for no key update`) until the run's transaction ends. */
  row: T['$inferSelect'];
  /** Sets columns of this export. */
  update(values: Partial<T['$inferInsert']>): Promise<unknown>;
  /** Queues the next run (the progress is on record and the screen sees it move). */
  next(): Promise<unknown>;
  /** The file is stored: the export is done (`progress` 100, `finished_at` now) with `values`. */
  finish(object: StoredObject, values?: Partial<T['$inferInsert']>): Promise<unknown>;
}

export function exportJob<T extends ExportTable>({
  table,
  kind,
}: {
  table: T;
  /** The job kind (one handler a kind in app.ts). */
  kind: string;
}) {
  const byId = (accountId: string, exportId: string) => and(eq(table.accountId, accountId), eq(table.id, exportId));
  const update = (
    { tx, accountId }: { tx: TxContext['tx'] | SystemTx; accountId: string },
    exportId: string,
    values: Partial<T['$inferInsert']>,
  ) =>
    tx
      .update(table)
      .set(values as PgUpdateSetSource<T>)
      .where(byId(accountId, exportId));

  return {
    /**
     * The job handler: `run` is called with the export claimed, only while it is queued or running
     * (a late retry of a finished, failed or expired one does nothing). `spoolOf` names the export's
     * spool on disk (a file or a folder), removed when the export fails.
     */
    handler(
      spoolOf: (exportId: string) => string,
      run: (ctx: JobContext, step: ExportRun<T>) => Promise<void>,
    ): JobHandler {
      return {
        async run(ctx, job: ClaimedJob) {
          const exportId = String(job.payload.exportId ?? job.key);
          const [row] = (await ctx.tx
            .select()
            .from(table as PgTable)
            .where(byId(ctx.accountId, exportId))
            .for('no key update')) as T['$inferSelect'][];
          if (!row || (row.state !== 'queued' && row.state !== 'running')) return;
          await run(ctx, {
            exportId,
            row,
            update: (values) => update(ctx, exportId, values),
            next: () => enqueueJob(ctx, { kind, key: exportId, runAt: new Date(), payload: { exportId } }),
            finish: (object, values) =>
              update(ctx, exportId, {
                ...values,
                state: 'done',
                progress: 100,
                storageKey: object.key,
                byteSize: object.sizeBytes,
                finishedAt: sql`now()`,
              } as Partial<T['$inferInsert']>),
          });
        },
        async onFailed(ctx, job, error) {
          const exportId = String(job.payload.exportId ?? job.key);
          await update(ctx, exportId, {
            state: 'failed',
            lastError: (error instanceof Error ? error.message : String(error)).slice(0, 500),
            finishedAt: sql`now()`,
          } as Partial<T['$inferInsert']>);
          await rm(spoolOf(exportId), { recursive: true, force: true });
        },
      };
    },

    /**
     * Removes the files of exports finished more than `keepDays` ago and marks them expired (a
     * periodic task of the job worker, in the system context: every clinic's). A few hundred a run;
     * a file already gone is fine. Answers how many expired.
     */
    sweep(db: Pick<Database, 'withSystem'>, storage: FileStorage, keepDays: number): Promise<number> {
      return db.withSystem(async (tx) => {
        const old = (await tx
          .select({ accountId: table.accountId, id: table.id, storageKey: table.storageKey })
          .from(table as PgTable)
          .where(and(eq(table.state, 'done'), lt(table.finishedAt, sql`now() - ${`${keepDays} days`}::interval`)))
          .limit(200)
          .for('update', { skipLocked: true })) as { accountId: string; id: string; storageKey: string | null }[];
        for (const row of old) {
          if (row.storageKey) await storage.remove(row.storageKey).catch(() => undefined);
          await update({ tx, accountId: row.accountId }, row.id, {
            state: 'expired',
            storageKey: null,
            byteSize: null,
          } as Partial<T['$inferInsert']>);
        }
        return old.length;
      });
    },
  };
}

/**
 * Opens a spool file for a run's appends, first cut back to what committed runs wrote (`bytes`):
 * what an earlier, rolled-back attempt appended is not ours.
 */
export async function resumeSpool(file: string, bytes: number): Promise<void> {
  await open(file, 'a').then((handle) => handle.close());
  await truncate(file, bytes);
}

/** Appends `text` to a spool file. */
export function appendToSpool(file: string, text: string): Promise<void> {
  const out = createWriteStream(file, { flags: 'a' });
  return new Promise<void>((resolve, reject) => {
    out.on('error', reject);
    out.end(text, resolve);
  });
}

/**
 * A ZIP entry's bytes as they stream into the archive, digested on the way: `digest` settles with
 * the SHA-256 and the size once the last byte has passed, or fails with the source.
 */
export function digestedEntry(source: Readable | NodeJS.ReadableStream) {
  const { tap, digest } = digestTap();
  const digested = new Promise<{ sha256: string; sizeBytes: number }>((resolve, reject) => {
    tap.on('finish', () => resolve(digest()));
    tap.on('error', reject);
    source.on('error', (error) => {
      reject(error);
      tap.destroy(error as Error);
    });
  });
  return { stream: source.pipe(tap), digest: digested };
}
