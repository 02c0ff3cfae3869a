import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestClinic } from '../../../test/test-clinic.ts';
import { availableBackends } from '../../../test/test-database.ts';
import { jobs } from '../../db/schema/index.ts';
import { enqueueJob } from './jobs.repository.ts';
import { createJobWorker, type JobWorkerOptions } from './jobs.worker.ts';

/** The worker's own rules, with a handler of the test's (issue 16). */
describe.each(availableBackends())('the job worker on %s', (backend) => {
  const t = useTestClinic(backend);
  const jobRow = async (id: string) => {
    const [row] = await t.db.withTenant(t.clinic.accountId, (tx) =>
      tx
        .select()
        .from(jobs)
        .where(and(eq(jobs.accountId, t.clinic.accountId), eq(jobs.id, id))),
    );
    return row;
  };
  const enqueue = (kind: string) =>
    t.db.withTenant(t.clinic.accountId, (tx) =>
      enqueueJob({ tx, accountId: t.clinic.accountId }, { kind, key: kind, runAt: new Date(Date.now() - 1000) }),
    );

  /** A worker of the test's database with these handlers, polling fast. */
  const workerWith = (handlers: JobWorkerOptions['handlers']) =>
    createJobWorker({ db: t.db, log: t.app.log, pollMs: 50, handlers });

  /** A worker whose `kind` jobs each wait for `release()`: `running` resolves when one begins. */
  const blockingWorker = (kind: string) => {
    let release: () => void = () => {};
    let started: () => void = () => {};
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    const ran: string[] = [];
    const worker = workerWith({
      [kind]: {
        async run(_ctx, job) {
          ran.push(job.id);
          started();
          await new Promise<void>((resolve) => {
            release = resolve;
          });
        },
      },
    });
    return { worker, running, ran, release: () => release() };
  };

  it('a nudge runs a job queued for now within a moment, however often it comes, not at the next poll', async () => {
    const ran: string[] = [];
    const worker = createJobWorker({
      db: t.db,
      log: t.app.log,
      pollMs: 60_000,
      handlers: { nudged: { run: async (_ctx, job) => void ran.push(job.id) } },
    });
    worker.start();
    // The first round (at most a second after start) finds nothing; the next would be a minute later.
    await new Promise((resolve) => setTimeout(resolve, 1200));
    const id = await enqueue('nudged');
    // Issues every 20 ms nudge again and again: the round is brought earlier, never postponed.
    const started = Date.now();
    const nudging = setInterval(() => worker.nudge(), 20);
    try {
      await expect.poll(() => ran, { timeout: 3000, interval: 50 }).toContain(id);
    } finally {
      clearInterval(nudging);
      await worker.stop();
    }
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('stop waits for the job in flight, which ends done; nothing runs after it', async () => {
    const { worker, running, ran, release } = blockingWorker('slow');
    const id = await enqueue('slow');
    worker.start();
    await running;
    const stopping = worker.stop();
    let stopped = false;
    void stopping.then(() => {
      stopped = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect((await jobRow(id))?.state).toBe('done');
    const later = await enqueue('slow');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(ran).toEqual([id]);
    expect((await jobRow(later))?.state).toBe('queued');
  });

  it('stopping releases the jobs a round claimed and had not begun: queued again at once, their attempt not counted', async () => {
    const ids: string[] = [];
    for (const key of ['first', 'second', 'third']) {
      ids.push(
        await t.db.withTenant(t.clinic.accountId, (tx) =>
          enqueueJob(
            { tx, accountId: t.clinic.accountId },
            { kind: 'batch', key, runAt: new Date(Date.now() - 3000 + ids.length) },
          ),
        ),
      );
    }
    const { worker, running, ran, release } = blockingWorker('batch');
    worker.start();
    await running;
    const stopping = worker.stop();
    release();
    await stopping;
    expect(ran).toEqual([ids[0]]);
    expect(await jobRow(ids[0] as string)).toMatchObject({ state: 'done', attempts: 1 });
    for (const id of ids.slice(1)) {
      expect(await jobRow(id)).toMatchObject({ state: 'queued', attempts: 0, lockedBy: null, lockedUntil: null });
    }
    // Another instance's worker takes them at once.
    const other = workerWith({ batch: { run: async () => {} } });
    expect(await other.runDue()).toBe(2);
    for (const id of ids.slice(1)) expect((await jobRow(id))?.state).toBe('done');
  });

  it('a job of an unknown kind stays queued (no worker claims what it cannot run)', async () => {
    const id = await enqueue('nobody_handles_this');
    const worker = workerWith({ other: { run: async () => {} } });
    expect(await worker.runDue()).toBe(0);
    expect((await jobRow(id))?.state).toBe('queued');
  });

  it('a handler error rolls back its writes and is kept, short, on the job', async () => {
    const id = await enqueue('broken');
    const worker = workerWith({
      broken: {
        async run(ctx, job) {
          await ctx.tx.update(jobs).set({ key: 'changed' }).where(eq(jobs.id, job.id));
          throw new Error(`line one\n   at stack ${'x'.repeat(1000)}`);
        },
      },
    });
    await worker.runDue();
    const row = await jobRow(id);
    expect(row).toMatchObject({ state: 'queued', key: 'broken', attempts: 1, lockedBy: null });
    expect(row?.lastError?.length).toBeLessThanOrEqual(500);
    expect(row?.lastError).not.toContain('\n');
  });

  it("a clinic's jobs of a batch kind run together: one call, done together; a retry and a job left alone keep their own outcome; a batch that throws runs them one by one", async () => {
    const ids: string[] = [];
    for (const key of ['a', 'b', 'c', 'd']) {
      ids.push(
        await t.db.withTenant(t.clinic.accountId, (tx) =>
          enqueueJob(
            { tx, accountId: t.clinic.accountId },
            { kind: 'many', key, runAt: new Date(Date.now() - 5000 + ids.length) },
          ),
        ),
      );
    }
    const [a, b, c, d] = ids as [string, string, string, string];
    const calls: string[][] = [];
    const alone: string[] = [];
    const prepared: string[][] = [];
    const worker = workerWith({
      many: {
        async run(_ctx, job) {
          alone.push(job.key);
        },
        batch: {
          size: 10,
          async prepare(_ctx, list) {
            prepared.push(list.map((job) => job.key));
            return new Map(list.map((job) => [job.id, job.key]));
          },
          async run(ctx, list, answers) {
            calls.push(list.map((job) => String(answers.get(job.id))));
            await ctx.tx
              .update(jobs)
              .set({ payload: { touched: true } })
              .where(eq(jobs.id, a));
            return new Map([
              [b, { retry: 'the provider said 503' }],
              [c, { alone: true as const }],
            ]);
          },
        },
      },
    });
    expect(await worker.runDue()).toBe(4);
    expect(prepared).toEqual([['a', 'b', 'c', 'd']]);
    expect(calls).toEqual([['a', 'b', 'c', 'd']]);
    expect(alone).toEqual(['c']);
    expect(await jobRow(a)).toMatchObject({ state: 'done', attempts: 1, payload: { touched: true } });
    expect(await jobRow(b)).toMatchObject({ state: 'queued', attempts: 1, lastError: 'the provider said 503' });
    expect((await jobRow(c))?.state).toBe('done');
    expect((await jobRow(d))?.state).toBe('done');

    // A batch that throws: its writes roll back and each job runs alone.
    const again: string[] = [];
    for (const key of ['e', 'f']) {
      again.push(
        await t.db.withTenant(t.clinic.accountId, (tx) =>
          enqueueJob({ tx, accountId: t.clinic.accountId }, { kind: 'many', key, runAt: new Date(Date.now() - 5000) }),
        ),
      );
    }
    const one: string[] = [];
    const throwing = workerWith({
      many: {
        async run(_ctx, job) {
          one.push(job.key);
        },
        batch: {
          size: 10,
          async run(ctx, list) {
            await ctx.tx
              .update(jobs)
              .set({ payload: { rolledBack: false } })
              .where(eq(jobs.id, list[0]?.id ?? ''));
            throw new Error('one bad row');
          },
        },
      },
    });
    expect(await throwing.runDue()).toBe(2);
    expect(one.sort()).toEqual(['e', 'f']);
    for (const id of again) expect(await jobRow(id)).toMatchObject({ state: 'done', attempts: 1, payload: {} });
  });
});
