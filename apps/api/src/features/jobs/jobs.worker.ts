import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.ts';
import { jobs } from '../../db/schema/index.ts';
import type { TenantTx } from '../../db/tenancy.ts';

/**
 * The job queue's worker (issue 16). Every API instance runs one; they share the `jobs` table:
 *
 * 1. claim: in a short transaction of the system role, due rows (queued and due, or running with
 *    an expired lock: a crashed process; a running job was due when claimed, so `run_at <= now()`
 *    holds for both and bounds the scan of jobs_due_idx whatever the statistics say — a bulk change
 *    of run_at not yet analysed made the planner read the whole table, 90 ms a round at 40,000
 *    jobs) are locked `FOR UPDATE SKIP LOCKED`, marked running with
 *    `locked_by`/`locked_until` and `attempts + 1`, and COMMITTED — another worker no longer sees them.
 *    The clinics with the oldest due jobs (among 32 rounds' worth: a clinic's agenda imported at once
 *    queues its reminders side by side) come first — at the same instant in an order of this worker's
 *    own, so that two workers claiming at once mostly take different clinics (a clinic's jobs on two
 *    instances at once wait for each other on its audit chain's lock) — and from each its oldest jobs
 *    through jobs_clinic_due_idx: a batch handler's chunk (so that a batch is whole, not the few of
 *    the clinic's jobs that the oldest rows happen to hold), or a fair share of the round when few
 *    clinics have work;
 * 2. run: the handler works in ONE transaction in the clinic's context, and the same transaction marks
 *    the job done (only while this worker still holds it), so the work and "done" commit together.
 *    Jobs of one clinic run one after the other; up to `concurrency` clinics' jobs run at once
 *    (issue 38: 20,000 reminders due in the same minute). A handler with `batch` runs a clinic's
 *    consecutive jobs of its kind together: one `prepare` transaction, one `run` transaction that
 *    marks them all done (a few statements for the lot instead of a dozen per job); a batch that
 *    throws runs its jobs again one by one. While a round runs, its claims are renewed
 *    every third of `lockMs`: only a worker that stopped (killed, frozen) lets its jobs go to another;
 * 3. failure: the handler's transaction rolls back; the job goes back to queued with backoff
 *    (1 min, 5 min, 30 min, 2 h…) or, after `max_attempts`, to failed (the handler's `onFailed`
 *    records it where the screens show it).
 */

export interface ClaimedJob {
  accountId: string;
  id: string;
  kind: string;
  key: string;
  payload: Record<string, unknown>;
  attempts: number;
  maxAttempts: number;
  lockedBy: string;
}

export interface JobContext {
  tx: TenantTx;
  accountId: string;
}

export interface JobHandler {
  /**
   * Before `run`, in a transaction of its own that COMMITS first: what must be on record before the
   * work leaves the process (a message marked `sending` before the provider is called), so a run
   * killed mid-call is found out by the next attempt. Its answer is passed to `run`.
   */
  prepare?(ctx: JobContext, job: ClaimedJob): Promise<unknown>;
  /**
   * Does the work in the clinic's transaction; throwing rolls it back and retries later. Answering
   * `{ retry }` keeps what it wrote (the provider's refusal, on record) and counts a failed attempt.
   */
  // biome-ignore lint/suspicious/noConfusingVoidType: most handlers answer nothing.
  run(ctx: JobContext, job: ClaimedJob, prepared?: unknown): Promise<void | JobRetry>;
  /** After the last failed attempt, in the clinic's transaction that marks the job failed. */
  onFailed?(ctx: JobContext, job: ClaimedJob, error: unknown): Promise<void>;
  /**
   * Several due jobs of this kind and ONE clinic at once, with the same guarantees as one by one
   * (issue 38: a minute's reminders are read, decided and written a clinic's chunk at a time). When a
   * batch throws, its jobs run again one by one through `prepare` and `run`.
   */
  batch?: JobBatchHandler;
}

export interface JobBatchHandler {
  /** Most jobs in one call; the claim takes a clinic's due jobs in chunks of this size. */
  size: number;
  /** As `prepare`, for all of them in one committed transaction: each job's answer by its id; a `DeferJob` defers that job. */
  prepare?(ctx: JobContext, jobs: ClaimedJob[]): Promise<Map<string, unknown>>;
  /**
   * Between the two, outside any transaction (no connection or row held while others answer, e.g. a
   * provider's API): takes the prepared answers, answers what `run` receives.
   */
  work?(jobs: ClaimedJob[], prepared: Map<string, unknown>): Promise<Map<string, unknown>>;
  /**
   * As `run`, in one transaction that also marks them done: answers, by id, the jobs that failed (with
   * their retry) and those to run alone once the batch has committed (work that cannot be rolled back).
   */
  run(ctx: JobContext, jobs: ClaimedJob[], prepared: Map<string, unknown>): Promise<Map<string, JobRetry | JobAlone>>;
}

/** A batch's answer for a job it leaves to `run` alone. */
export interface JobAlone {
  alone: true;
}
export const jobAlone: JobAlone = { alone: true };

/** A run that failed after writing what the screens should show of it. */
export interface JobRetry {
  retry: string;
}

export interface JobWorkerOptions {
  db: Database;
  log: FastifyBaseLogger;
  handlers: Record<string, JobHandler>;
  pollMs: number;
  /** Jobs claimed per round (default: 4 per `concurrency`, at least 10; with batch handlers, a chunk per lane). */
  batch?: number;
  /**
   * Jobs run at once, each of another clinic (default 1). A clinic's jobs always run one after the
   * other: each one's audit chain takes the clinic's advisory lock, so a second would only wait.
   */
  concurrency?: number;
  /** How long a claim holds, unrenewed, before another worker may take the job again (a crashed worker). */
  lockMs?: number;
  /** Most jobs a batch handler takes at once (default: each handler's own size; 1 runs every job alone). */
  maxBatch?: number;
  /** How long `stop` waits for jobs in flight. */
  stopTimeoutMs?: number;
  /** Housekeeping run by the loop after the jobs, each at most once per `everyMs` (every instance runs them; each must be safe to run at once in several). */
  tasks?: PeriodicTask[];
}

export interface PeriodicTask {
  name: string;
  everyMs: number;
  run(): Promise<void>;
}

export interface JobWorker {
  readonly id: string;
  start(): void;
  /** Stops polling and waits (bounded) for the jobs in flight. */
  stop(): Promise<void>;
  /** One round: claims what is due and runs it; answers how many jobs ran (tests, and the loop). */
  runDue(): Promise<number>;
  /**
   * A job was just queued for now (issue 39: an invoice for its authority): look every 200 ms for
   * the next `forMs` instead of every `pollMs`, so it runs once its transaction has committed.
   */
  nudge(forMs?: number): void;
}

/** How often the loop looks while nudged. */
const nudgedPollMs = 200;
let nudgeHook: (() => void) | null = null;

/** The app's worker, to be nudged from where a job is queued (`nudgeJobs`); tests' apps set none. */
export function setJobNudge(hook: (() => void) | null): void {
  nudgeHook = hook;
}

/** Asks this process's worker to look soon (nothing when it has none, or is not started). */
export function nudgeJobs(): void {
  nudgeHook?.();
}

/** Waits after the 1st, 2nd, 3rd, 4th… failure. */
export const backoffMs = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3600_000];
export const backoffAfter = (attempts: number): number =>
  backoffMs[Math.min(attempts, backoffMs.length) - 1] ?? backoffMs[0] ?? 60_000;

/** What a job's row keeps of an error: short, one line, no stack. */
const shortError = (error: unknown) =>
  (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ').slice(0, 500);

export function createJobWorker(options: JobWorkerOptions): JobWorker {
  const { db, log, handlers, pollMs, lockMs = 5 * 60_000, stopTimeoutMs = 8_000, tasks = [] } = options;
  const concurrency = Math.max(1, options.concurrency ?? 1);
  const batchSizeOf = (handler: JobHandler | undefined) =>
    Math.max(1, Math.min(handler?.batch?.size ?? 1, options.maxBatch ?? Number.POSITIVE_INFINITY));
  // A clinic's due jobs are claimed in chunks as large as the largest batch a handler takes.
  const chunk = Math.max(1, ...Object.values(handlers).map(batchSizeOf));
  const batch = options.batch ?? Math.max(10, 4 * concurrency, chunk * concurrency);
  const lastRun = new Map<string, number>();
  const id = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let stopped = true;
  /** stop() was called: a round in progress begins no more jobs (runDue() alone, as tests call it, runs them all). */
  let stopping = false;
  let round: Promise<number> | undefined;

  async function claim(): Promise<ClaimedJob[]> {
    const kinds = Object.keys(handlers);
    if (kinds.length === 0) return [];
    return db.withSystem(async (tx) => {
      const result = await tx.execute<{
        account_id: string;
        id: string;
        kind: string;
        key: string;
        payload: Record<string, unknown>;
        attempts: number;
        max_attempts: number;
      }>(sql`
        with oldest as (
          select account_id, run_at from jobs
          where run_at <= now() and (state = 'queued' or (state = 'running' and locked_until < now()))
            and kind in ${kinds}
          order by run_at
          limit ${batch * 32}
        ), clinics as (
          -- The clinics with the oldest due work first; at once, in an order of this worker's own, so
          -- that two workers claiming at once mostly take different clinics.
          select account_id, min(run_at) as first_at from oldest group by account_id
          order by first_at, hashtext(account_id::text || ${id})
          limit ${batch}
        ), share as (
          -- Each clinic's chunk: a batch's size, or more when few clinics have work.
          select greatest(${chunk}, ${batch} / greatest(count(*), 1)) as jobs from clinics
        ), due as (
          -- Each clinic's oldest due jobs through its own index, locked in that order (SKIP LOCKED:
          -- another worker's claims are passed over).
          select locked.account_id, locked.id from clinics cross join share cross join lateral (
            select account_id, id from jobs
            where jobs.account_id = clinics.account_id and jobs.kind in ${kinds}
              and ((jobs.state = 'queued' and jobs.run_at <= now()) or (jobs.state = 'running' and jobs.locked_until < now()))
            order by jobs.run_at
            limit share.jobs
            for update skip locked
          ) locked
          limit ${batch}
        )
        update jobs set state = 'running', locked_by = ${id},
          locked_until = now() + ${`${lockMs} milliseconds`}::interval,
          attempts = jobs.attempts + 1, updated_at = now()
        from due where jobs.account_id = due.account_id and jobs.id = due.id
        returning jobs.account_id, jobs.id, jobs.kind, jobs.key, jobs.payload, jobs.attempts, jobs.max_attempts`);
      return result.rows.map((row) => ({
        accountId: row.account_id,
        id: row.id,
        kind: row.kind,
        key: row.key,
        payload: row.payload ?? {},
        attempts: Number(row.attempts),
        maxAttempts: Number(row.max_attempts),
        lockedBy: id,
      }));
    });
  }

  /** Jobs this worker still holds, by their ids (a job's id is a UUID: unique across clinics). */
  const heldByMe = (held: ClaimedJob[]) =>
    and(
      inArray(
        jobs.id,
        held.map((job) => job.id),
      ),
      eq(jobs.state, 'running'),
      eq(jobs.lockedBy, id),
    );

  const mine = (job: ClaimedJob) =>
    and(eq(jobs.accountId, job.accountId), eq(jobs.id, job.id), eq(jobs.state, 'running'), eq(jobs.lockedBy, id));

  /**
   * Marks the jobs done in the transaction of their work, only while this worker still holds them:
   * a claim lost to another worker (the lock expired) rolls the work back and leaves the outcome to it.
   */
  async function markDone(tx: TenantTx, done: ClaimedJob[]): Promise<void> {
    if (done.length === 0) return;
    const marked = await tx
      .update(jobs)
      .set({
        state: 'done',
        finishedAt: sql`now()`,
        lockedBy: null,
        lockedUntil: null,
        lastError: null,
        updatedAt: sql`now()`,
      })
      .where(heldByMe(done))
      .returning({ id: jobs.id });
    if (marked.length !== done.length) throw new LostClaim();
  }

  async function execute(job: ClaimedJob): Promise<void> {
    const handler = handlers[job.kind];
    try {
      if (!handler) throw new Error(`no handler for ${job.kind}`);
      if (job.attempts > job.maxAttempts) throw new Error('too many attempts (the job was left running)');
      const prepare = handler.prepare;
      const prepared = prepare
        ? await db.withTenant(job.accountId, (tx) => prepare({ tx, accountId: job.accountId }, job))
        : undefined;
      const retry = await db.withTenant(job.accountId, async (tx) => {
        const outcome = await handler.run({ tx, accountId: job.accountId }, job, prepared);
        if (outcome) return outcome.retry;
        await markDone(tx, [job]);
        return undefined;
      });
      if (retry) await fail(job, handler, new Error(retry));
    } catch (error) {
      if (error instanceof LostClaim) {
        log.warn({ job: job.id, kind: job.kind }, 'job claim lost before it finished');
        return;
      }
      if (error instanceof DeferJob) {
        await defer(job, error.until);
        return;
      }
      await fail(job, handler, error);
    }
  }

  /**
   * A clinic's jobs of one kind through its batch handler: prepared together (committed), run and
   * marked done together. Anything thrown sends each job through `execute` alone: a prepared message
   * is then found `sending` and asked for at the provider before it goes again.
   */
  async function executeBatch(claimed: ClaimedJob[], handler: JobHandler & { batch: JobBatchHandler }): Promise<void> {
    // A job left running by workers that died too often fails alone, as `execute` decides.
    for (const job of claimed) if (job.attempts > job.maxAttempts) await execute(job);
    const group = claimed.filter((job) => job.attempts <= job.maxAttempts);
    if (group.length === 0) return;
    const accountId = group[0]?.accountId ?? '';
    const ctxOf = (tx: TenantTx) => ({ tx, accountId });
    let runnable = group;
    try {
      const prepareMany = handler.batch.prepare;
      const prepared = prepareMany
        ? await db.withTenant(accountId, (tx) => prepareMany(ctxOf(tx), group))
        : new Map<string, unknown>();
      runnable = [];
      for (const job of group) {
        const answer = prepared.get(job.id);
        if (answer instanceof DeferJob) await defer(job, answer.until);
        else runnable.push(job);
      }
      if (runnable.length === 0) return;
      const worked = handler.batch.work ? await handler.batch.work(runnable, prepared) : prepared;
      const retries = await db.withTenant(accountId, async (tx) => {
        const failed = await handler.batch.run(ctxOf(tx), runnable, worked);
        await markDone(
          tx,
          runnable.filter((job) => !failed.has(job.id)),
        );
        return failed;
      });
      runnable = [];
      for (const job of group) {
        const answer = retries.get(job.id);
        if (answer && 'retry' in answer) await fail(job, handler, new Error(answer.retry));
        else if (answer) await execute(job);
      }
    } catch (error) {
      log.warn(
        { kind: group[0]?.kind, jobs: runnable.length, err: error },
        'job batch failed: its jobs run one by one',
      );
      for (const job of runnable) await execute(job);
    }
  }

  async function fail(job: ClaimedJob, handler: JobHandler | undefined, error: unknown): Promise<void> {
    const final = job.attempts >= job.maxAttempts;
    log.warn({ job: job.id, kind: job.kind, attempts: job.attempts, final, err: error }, 'job failed');
    try {
      await db.withTenant(job.accountId, async (tx) => {
        const updated = await tx
          .update(jobs)
          .set(
            final
              ? {
                  state: 'failed',
                  finishedAt: sql`now()`,
                  lockedBy: null,
                  lockedUntil: null,
                  lastError: shortError(error),
                }
              : {
                  state: 'queued',
                  runAt: sql`now() + ${`${backoffAfter(job.attempts)} milliseconds`}::interval`,
                  lockedBy: null,
                  lockedUntil: null,
                  lastError: shortError(error),
                },
          )
          .where(mine(job))
          .returning({ id: jobs.id });
        if (final && updated.length > 0) await handler?.onFailed?.({ tx, accountId: job.accountId }, job, error);
      });
    } catch (inner) {
      // The lock expires and the job is claimed again: nothing is lost.
      log.error({ job: job.id, err: inner }, 'could not record a job failure');
    }
  }

  /** Back to the queue until `until`, the attempt not counted (quiet hours are not a failure). */
  async function defer(job: ClaimedJob, until: Date): Promise<void> {
    await db.withTenant(job.accountId, async (tx) => {
      await tx
        .update(jobs)
        .set({
          state: 'queued',
          runAt: until,
          lockedBy: null,
          lockedUntil: null,
          attempts: sql`${jobs.attempts} - 1`,
          updatedAt: sql`now()`,
        })
        .where(mine(job));
    });
  }

  async function runDue(): Promise<number> {
    const claimed = await claim();
    // One lane per clinic, its jobs in the claimed order; `concurrency` lanes run at once.
    const byClinic = new Map<string, ClaimedJob[]>();
    for (const job of claimed) {
      const lane = byClinic.get(job.accountId);
      if (lane) lane.push(job);
      else byClinic.set(job.accountId, [job]);
    }
    const lanes = [...byClinic.values()];
    const unfinished = new Set(claimed);
    const left: ClaimedJob[] = [];
    const runLanes = async () => {
      for (let lane = lanes.shift(); lane; lane = lanes.shift()) {
        let index = 0;
        while (index < lane.length) {
          if (stopping) {
            left.push(...lane.slice(index));
            break;
          }
          const first = lane[index] as ClaimedJob;
          const handler = handlers[first.kind];
          // The consecutive jobs of a kind with a batch handler go together.
          let end = index + 1;
          if (handler?.batch) {
            const size = batchSizeOf(handler);
            while (end < lane.length && end - index < size && lane[end]?.kind === first.kind) end += 1;
          }
          const group = lane.slice(index, end);
          if (handler?.batch && group.length > 1) await executeBatch(group, { ...handler, batch: handler.batch });
          else await execute(first);
          for (const job of group) unfinished.delete(job);
          index = end;
        }
      }
    };
    const renewing = setInterval(() => void renew([...unfinished]), Math.max(250, Math.floor(lockMs / 3)));
    renewing.unref();
    try {
      await Promise.all(Array.from({ length: Math.min(concurrency, lanes.length) }, runLanes));
    } finally {
      clearInterval(renewing);
    }
    // Stopping: the jobs claimed and not begun go back to the queue at once for another instance,
    // instead of waiting for their lock to expire.
    if (left.length > 0) await release(left);
    else await runTasks();
    return claimed.length;
  }

  /**
   * Keeps this round's claims (begun or waiting their turn) for another `lockMs`: a job that takes
   * longer than the lock (a provider holding its answer) or waits behind others of its clinic is
   * not taken by another worker while this one is alive.
   */
  async function renew(held: ClaimedJob[]): Promise<void> {
    if (held.length === 0) return;
    try {
      await db.withSystem(async (tx) => {
        await tx
          .update(jobs)
          .set({ lockedUntil: sql`now() + ${`${lockMs} milliseconds`}::interval` })
          .where(heldByMe(held));
      });
    } catch (error) {
      log.warn({ err: error, jobs: held.length }, 'could not renew the claims of running jobs');
    }
  }

  async function release(left: ClaimedJob[]): Promise<void> {
    try {
      await db.withSystem(async (tx) => {
        await tx
          .update(jobs)
          .set({
            state: 'queued',
            lockedBy: null,
            lockedUntil: null,
            attempts: sql`${jobs.attempts} - 1`,
            updatedAt: sql`now()`,
          })
          .where(heldByMe(left));
      });
      log.info({ jobs: left.length }, 'stopping: claimed jobs released to the queue');
    } catch (error) {
      // Their locks expire and another worker claims them: nothing is lost.
      log.warn({ err: error, jobs: left.length }, 'stopping: could not release claimed jobs');
    }
  }

  async function runTasks(): Promise<void> {
    for (const task of tasks) {
      const now = Date.now();
      if (now - (lastRun.get(task.name) ?? 0) < task.everyMs) continue;
      lastRun.set(task.name, now);
      try {
        await task.run();
      } catch (error) {
        log.error({ err: error, task: task.name }, 'periodic task failed');
      }
    }
  }

  let eagerUntil = 0;
  /** When the scheduled round starts (a nudge only ever brings it earlier, never later). */
  let nextRoundAt = 0;
  const idleDelay = () => (Date.now() < eagerUntil ? Math.min(nudgedPollMs, pollMs) : pollMs);

  function schedule(delay: number) {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    nextRoundAt = Date.now() + delay;
    timer = setTimeout(loop, delay);
    timer.unref();
  }

  function loop() {
    if (stopped || running) return;
    running = true;
    round = runDue()
      .catch((error: unknown) => {
        log.error({ err: error }, 'job queue round failed');
        return 0;
      })
      .finally(() => {
        running = false;
      });
    void round.then((count) => schedule(count > 0 ? 0 : idleDelay()));
  }

  return {
    id,
    runDue,
    nudge(forMs = 2000) {
      eagerUntil = Math.max(eagerUntil, Date.now() + forMs);
      // A round in progress schedules the next one by `idleDelay`; an idle loop looks now.
      if (!stopped && !running && nextRoundAt > Date.now() + nudgedPollMs) schedule(nudgedPollMs);
    },
    start() {
      if (!stopped) return;
      stopped = false;
      stopping = false;
      schedule(Math.min(pollMs, 1000));
    },
    async stop() {
      stopped = true;
      stopping = true;
      if (timer) clearTimeout(timer);
      if (!round) return;
      let bounded: NodeJS.Timeout | undefined;
      await Promise.race([
        round,
        new Promise<void>((resolve) => {
          bounded = setTimeout(() => {
            log.warn('stopping with a job in flight: its lock expires and another worker runs it again');
            resolve();
          }, stopTimeoutMs);
        }),
      ]);
      if (bounded) clearTimeout(bounded);
    },
  };
}

class LostClaim extends Error {}

/** Thrown by a handler that may not work yet (quiet hours): its job waits until `until`, no attempt spent. */
export class DeferJob extends Error {
  constructor(readonly until: Date) {
    super(`deferred until ${until.toISOString()}`);
  }
}
