/**
 * `npm run bench -- messages [--clinics N] [--reminders N] [--patients N] [--poll-ms N]
 *   [--concurrency N] [--timeout N] [--goal N] [--skip-baseline] [--profile DIR] [--keep]` (PostgreSQL only)
 *
 * Messages to patients at scale (issue 38): "20,000 reminders due in the same minute across 200
 * clinics, two instances: all sent within 2 minutes, none twice". For each set-up — ONE server
 * process (the baseline), then TWO — a fresh database is migrated and seeded in SQL
 * (test/messaging-seed.ts): 200 clinics, half reminding by WhatsApp and half by SMS through the local
 * fake provider this process starts (apps/api/src/dev/fake-messaging-provider.ts), 100 patients each
 * with a mobile number and consent, and 20,000 appointments whose reminder jobs wait a year. The real
 * servers start meanwhile (`node --import tsx apps/api/src/server.ts`, JOBS_ENABLED, JOBS_POLL_MS
 * 100 ms; each one's PUBLIC_URL its own address, so SMS status callbacks come back to the instance
 * that sent; WhatsApp's webhook, one per phone number, alternates between the instances as a load
 * balancer would spread it). Once they are ready every reminder job is made due at the same instant:
 * the clock starts. Each reminder job picks the channel and queues a message; the message's job sends
 * it. Printed side by side: seconds until every message is `sent` or `delivered` in the database,
 * messages/s, seconds until all delivered, what the fake received (sends, distinct message ids, ids
 * sent twice), appointments with two messages, the delivery webhooks posted and recorded, jobs failed
 * or retried, the CPU of each server and of the machine, and the CPU milliseconds per message of the
 * servers, PostgreSQL (the database's backends) and the fake. The machine is shared: its load is
 * part of the figures. Goal: two instances ≤ 120 s, nothing sent twice, nothing missing; missed → exit 1.
 * On this kind of machine, quiet (2026-11-30): 37.2 s with two instances, 43.7 s with one; before
 * the worker's batches, 874 s (docs/decisions.md, "A minute's reminders at scale").
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { openDatabase } from '../src/db/client.ts';
import { startFakeMessagingProvider } from '../src/dev/fake-messaging-provider.ts';
import { createSealer } from '../src/lib/secrets.ts';
import { freePort } from '../test/free-port.ts';
import {
  configureFakeAccounts,
  createBenchIdFunction,
  messageIdOf,
  type SeededMessagingClinic,
  seedMessagingClinics,
} from '../test/messaging-seed.ts';
import { createServerDatabase } from '../test/server-database.ts';
import {
  cpuSeconds,
  type ServerProcess,
  startServerProcess,
  stopServerProcess,
  waitServerReady,
} from '../test/server-process.ts';

// Not bench-kit.ts: it loads the whole app, seconds of start-up this bench (whose servers are other
// processes) has no use for.
const defaults = { clinics: 200, reminders: 20_000, patients: 100, 'poll-ms': 100, timeout: 600, goal: 120 };
const { values: options } = parseArgs({
  options: {
    ...Object.fromEntries(
      Object.entries(defaults).map(([name, value]) => [name, { type: 'string' as const, default: String(value) }]),
    ),
    'skip-baseline': { type: 'boolean', default: false },
    /** JOBS_CONCURRENCY of the servers (their default unless given). */
    concurrency: { type: 'string' },
    /** Writes a V8 CPU profile of each server into this folder (node --cpu-prof). */
    profile: { type: 'string' },
    keep: { type: 'boolean', default: false },
  },
});
const size = (name: keyof typeof defaults) => Number((options as Record<string, unknown>)[name]);
const [clinicCount, reminders, patients, pollMs, timeoutSeconds, goal] = (
  ['clinics', 'reminders', 'patients', 'poll-ms', 'timeout', 'goal'] as const
).map(size) as [number, number, number, number, number, number];
const seconds = (started: number) => `${((performance.now() - started) / 1000).toFixed(1)} s`;
const serverUrl =
  process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

interface Figures {
  instances: number;
  /** Seconds from "due" to every message sent (null: not within the timeout). */
  allSent: number | null;
  allDelivered: number | null;
  messages: number;
  notSent: number;
  sends: number;
  distinctIds: number;
  sentTwice: number;
  /** Appointments with more than one message (a reminder job run twice). */
  appointmentsTwice: number;
  webhooksPosted: number;
  webhooksAccepted: number;
  /** The webhook posts not answered 2xx, by status ("no answer": connection refused, reset or timed out). */
  webhooksRefused: string;
  statusEvents: number;
  jobsFailed: number;
  jobsRetried: number;
  serverCpu: number[];
  /** CPU seconds of the database's backends (those connected at the end), of this process (the fake), of the servers. */
  postgresCpu: number;
  fakeCpu: number;
  serversCpu: number;
  machineBusy: number;
  elapsed: number;
}

/** The machine's busy and total CPU time so far (jiffies, all cores). */
function machineCpu(): { busy: number; total: number } {
  const [cpu] = readFileSync('/proc/stat', 'utf8').split('\n');
  const values = (cpu ?? '').trim().split(/\s+/).slice(1).map(Number);
  const total = values.reduce((sum, value) => sum + value, 0);
  const idle = (values[3] ?? 0) + (values[4] ?? 0);
  return { busy: total - idle, total };
}

const count = (value: unknown) => Number(value ?? 0);

async function measure(instances: number, providerPort: number): Promise<Figures> {
  const secretsKey = randomBytes(32).toString('base64');
  const { name, url, admin } = await createServerDatabase(serverUrl, 'odontia_bench_messages');
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'odontia-bench-messages-'));
  const fake = await startFakeMessagingProvider({ port: providerPort });
  const servers: ServerProcess[] = [];
  const watcher = new pg.Client({ connectionString: url });
  try {
    const seeding = performance.now();
    const seeder = await openDatabase({ databaseUrl: url, poolMax: 2 }); // migrates
    let clinics: SeededMessagingClinic[];
    try {
      // The servers start meanwhile (their migrations find nothing to do; the jobs wait a year).
      for (let index = 0; index < instances; index += 1) {
        const port = await freePort();
        servers.push(
          startServerProcess(`instance ${index + 1}`, port, {
            DATABASE_URL: url,
            DATA_DIR: path.join(dataDir, String(index)),
            WEB_DIST_DIR: path.join(dataDir, 'no-web'),
            SECRETS_KEY: secretsKey,
            PUBLIC_URL: `http://127.0.0.1:${port}/`,
            JOBS_ENABLED: 'true',
            JOBS_POLL_MS: String(pollMs),
            ...(options.concurrency ? { JOBS_CONCURRENCY: options.concurrency } : {}),
            ...(options.profile ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${path.resolve(options.profile)}` } : {}),
            // BENCH_LOG_LEVEL=warn prints what the servers logged (a batch that fell back, a job failed).
            LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'error',
          }),
        );
      }
      await createBenchIdFunction(seeder);
      clinics = await seedMessagingClinics(seeder, {
        clinics: clinicCount,
        patients,
        reminders,
        providerUrl: `http://127.0.0.1:${providerPort}`,
        sealer: createSealer(Buffer.from(secretsKey, 'base64')),
        runAt: new Date(Date.now() + 365 * 86_400_000),
      });
    } finally {
      await seeder.close();
    }
    console.log(`  ${instances} instance(s): migrated and seeded in ${seconds(seeding)}`);
    configureFakeAccounts(fake, clinics, (index) => `${servers[index % instances]?.origin}/`);
    await Promise.all(servers.map((server) => waitServerReady(server)));
    await watcher.connect();
    const backends = async () =>
      (
        await watcher.query<{ pid: number }>(
          'select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
        )
      ).rows.map((row) => row.pid);
    const postgresBefore = new Map((await backends()).map((pid) => [pid, cpuSeconds(pid)]));
    const cpuBefore = servers.map((server) => cpuSeconds(server.child.pid));
    const fakeBefore = process.cpuUsage();
    const machineBefore = machineCpu();
    // The clock starts: every reminder due at this instant.
    const started = performance.now();
    await watcher.query(`update jobs set run_at = now() where kind = 'appointment_reminder'`);
    const elapsed = () => (performance.now() - started) / 1000;
    const deadline = started + timeoutSeconds * 1000;
    let allSent: number | null = null;
    let allDelivered: number | null = null;
    let lastPrint = 0;
    while (performance.now() < deadline) {
      const { rows } = await watcher.query<{ done: string; delivered: string; total: string }>(`
        select count(*) filter (where status in ('sent', 'delivered', 'read')) as done,
          count(*) filter (where status in ('delivered', 'read')) as delivered, count(*) as total from messages`);
      const done = count(rows[0]?.done);
      if (allSent === null && done >= reminders) allSent = elapsed();
      if (count(rows[0]?.delivered) >= reminders) {
        allDelivered = elapsed();
        break;
      }
      if (elapsed() - lastPrint >= 10) {
        lastPrint = elapsed();
        console.log(
          `    ${instances} instance(s), ${lastPrint.toFixed(0)} s: ${count(rows[0]?.total).toLocaleString('en')} queued, ${done.toLocaleString('en')} sent, ${count(rows[0]?.delivered).toLocaleString('en')} delivered`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const cpuAfter = servers.map((server) => cpuSeconds(server.child.pid));
    const fakeUsage = process.cpuUsage(fakeBefore);
    const machineAfter = machineCpu();
    let postgresCpu = 0;
    for (const pid of await backends()) postgresCpu += cpuSeconds(pid) - (postgresBefore.get(pid) ?? 0);
    const runSeconds = elapsed();
    // A late duplicate or webhook would show here.
    await Promise.race([fake.settled(), new Promise((resolve) => setTimeout(resolve, 10_000))]);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const ids = new Map<string, number>();
    for (const sent of fake.sent) {
      const id = messageIdOf(sent) ?? `unknown:${sent.id}`;
      ids.set(id, (ids.get(id) ?? 0) + 1);
    }
    const [db] = (
      await watcher.query<Record<string, string>>(`
      select (select count(*) from messages) as messages,
        (select count(*) from messages where status not in ('sent', 'delivered', 'read')) as not_sent,
        (select count(*) from (select 1 from messages group by appointment_id having count(*) > 1) twice) as appointments_twice,
        (select count(*) from message_status_events) as status_events,
        (select count(*) from jobs where state = 'failed') as jobs_failed,
        (select count(*) from jobs where attempts > 1) as jobs_retried`)
    ).rows;
    return {
      instances,
      allSent,
      allDelivered,
      messages: count(db?.messages),
      notSent: count(db?.not_sent),
      sends: fake.sent.length,
      distinctIds: ids.size,
      sentTwice: [...ids.values()].filter((times) => times > 1).length,
      appointmentsTwice: count(db?.appointments_twice),
      webhooksPosted: fake.callbacks.length,
      webhooksAccepted: fake.callbacks.filter((callback) => callback.status >= 200 && callback.status < 300).length,
      webhooksRefused: Object.entries(
        fake.callbacks.reduce<Record<string, number>>((counts, callback) => {
          if (callback.status < 200 || callback.status >= 300) {
            const key = callback.status === 0 ? 'no answer' : String(callback.status);
            counts[key] = (counts[key] ?? 0) + 1;
          }
          return counts;
        }, {}),
      )
        .map(([status, count]) => `${status}: ${count.toLocaleString('en-US')}`)
        .join(', '),
      statusEvents: count(db?.status_events),
      jobsFailed: count(db?.jobs_failed),
      jobsRetried: count(db?.jobs_retried),
      serverCpu: cpuAfter.map((after, index) => (after - (cpuBefore[index] ?? 0)) / runSeconds),
      serversCpu: cpuAfter.reduce((sum, after, index) => sum + after - (cpuBefore[index] ?? 0), 0),
      postgresCpu,
      fakeCpu: (fakeUsage.user + fakeUsage.system) / 1e6,
      machineBusy: (machineAfter.busy - machineBefore.busy) / (machineAfter.total - machineBefore.total),
      elapsed: runSeconds,
    };
  } finally {
    await watcher.end().catch(() => {});
    await Promise.all(servers.map((server) => stopServerProcess(server)));
    if (process.env.BENCH_LOG_LEVEL)
      for (const server of servers) console.log(`${server.name}:\n${server.output().slice(0, 4000)}`);
    await fake.stop();
    await rm(dataDir, { recursive: true, force: true });
    if (options.keep) console.log(`kept database ${name}`);
    else await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

function printTable(results: Figures[]): boolean {
  const columns = results.map((result) => (result.instances === 1 ? 'one instance' : `${result.instances} instances`));
  const number = (value: number) => value.toLocaleString('en');
  const secs = (value: number | null) => (value === null ? `> ${timeoutSeconds} s` : `${value.toFixed(1)} s`);
  const lines: [string, (result: Figures) => string][] = [
    ['all sent (database)', (r) => secs(r.allSent)],
    ['messages/s', (r) => (r.allSent === null ? '—' : (reminders / r.allSent).toFixed(0))],
    ['all delivered (webhooks)', (r) => secs(r.allDelivered)],
    ['messages in the database', (r) => number(r.messages)],
    ['  not sent at the end', (r) => number(r.notSent)],
    ['sends the provider took', (r) => number(r.sends)],
    ['  distinct message ids', (r) => number(r.distinctIds)],
    ['  message ids sent twice', (r) => number(r.sentTwice)],
    ['appointments with 2+ messages', (r) => number(r.appointmentsTwice)],
    ['delivery webhooks posted', (r) => number(r.webhooksPosted)],
    ['  answered 2xx', (r) => number(r.webhooksAccepted)],
    ['  not 2xx (retried)', (r) => r.webhooksRefused || 'none'],
    ['  status events recorded', (r) => number(r.statusEvents)],
    ['jobs failed · retried', (r) => `${number(r.jobsFailed)} · ${number(r.jobsRetried)}`],
    ['CPU of each server', (r) => r.serverCpu.map((cpu) => `${(cpu * 100).toFixed(0)} %`).join(' + ')],
    ['machine busy (all cores)', (r) => `${(r.machineBusy * 100).toFixed(0)} %`],
    ['CPU ms per message: servers', (r) => ((1000 * r.serversCpu) / reminders).toFixed(1)],
    [
      '  PostgreSQL · fake provider',
      (r) => `${((1000 * r.postgresCpu) / reminders).toFixed(1)} · ${((1000 * r.fakeCpu) / reminders).toFixed(1)}`,
    ],
  ];
  const width = Math.max(...lines.map(([label]) => label.length)) + 2;
  console.log(`${''.padEnd(width)}${columns.map((column) => column.padStart(16)).join('')}`);
  for (const [label, value] of lines)
    console.log(`${label.padEnd(width)}${results.map((result) => value(result).padStart(16)).join('')}`);
  const two = results.find((result) => result.instances === 2);
  const duplicates = results.reduce((sum, result) => sum + result.sentTwice + result.appointmentsTwice, 0);
  const complete = results.every((result) => result.distinctIds === reminders && result.notSent === 0);
  const met = two?.allSent != null && two.allSent <= goal && duplicates === 0 && complete;
  console.log(
    `goal: every message sent within ${goal} s with two instances (${secs(two?.allSent ?? null)}), none twice (${duplicates}), none missing (${complete ? 'none' : 'SOME'}): ${met ? 'met' : 'MISSED'}`,
  );
  return met;
}

async function main() {
  console.log(
    `messages bench (PostgreSQL): ${reminders.toLocaleString('en')} reminders due at once across ${clinicCount} clinics (half WhatsApp, half SMS), ${patients} patients each, through the local fake provider`,
  );
  const providerPort = await freePort();
  const results: Figures[] = [];
  for (const instances of options['skip-baseline'] ? [2] : [1, 2]) {
    const started = performance.now();
    results.push(await measure(instances, providerPort));
    console.log(`  ${instances} instance(s): measured in ${seconds(started)}`);
  }
  if (!printTable(results)) process.exitCode = 1;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
