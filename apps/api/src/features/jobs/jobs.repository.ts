import { and, eq, inArray, sql } from 'drizzle-orm';
import { jobs } from '../../db/schema/index.ts';
import type { TenantTx } from '../../db/tenancy.ts';
import { newId } from '../../lib/ids.ts';

/**
 * The job queue's writing side, in the caller's transaction (issue 16): a job is queued with the
 * change that needs it and dropped with the change that makes it pointless, so a rolled-back
 * booking never leaves a reminder behind. The workers (jobs.worker.ts) claim and run them.
 */

type Clinic = { tx: TenantTx; accountId: string };

export interface NewJob {
  kind: string;
  /** What the job is about (an appointment's id): how a later change finds it. */
  key: string;
  runAt: Date;
  payload?: Record<string, unknown>;
  maxAttempts?: number;
}

export async function enqueueJob(clinic: Clinic, job: NewJob): Promise<string> {
  const [id] = await enqueueJobs(clinic, [job]);
  return id as string;
}

/** Several jobs in one statement; answers their ids in order. */
export async function enqueueJobs({ tx, accountId }: Clinic, list: readonly NewJob[]): Promise<string[]> {
  if (list.length === 0) return [];
  const rows = list.map((job) => ({
    accountId,
    id: newId(),
    kind: job.kind,
    key: job.key,
    runAt: job.runAt,
    payload: job.payload ?? {},
    ...(job.maxAttempts ? { maxAttempts: job.maxAttempts } : {}),
  }));
  await tx.insert(jobs).values(rows);
  return rows.map((row) => row.id);
}

/** Drops the queued jobs of a kind and key (a running one finishes and checks again what it is about). */
export async function cancelQueuedJobs({ tx, accountId }: Clinic, kind: string, key: string): Promise<number> {
  const cancelled = await tx
    .update(jobs)
    .set({ state: 'cancelled', finishedAt: sql`now()`, updatedAt: sql`now()` })
    .where(and(eq(jobs.accountId, accountId), eq(jobs.kind, kind), eq(jobs.key, key), inArray(jobs.state, ['queued'])))
    .returning({ id: jobs.id });
  return cancelled.length;
}
