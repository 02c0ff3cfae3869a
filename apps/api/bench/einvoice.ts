/**
 * `npm run bench -- einvoice [--clinics N] [--invoices N] [--patients N] [--clients N] [--rate N]
 *   [--poll-ms N] [--concurrency N] [--timeout N] [--skip-baseline] [--keep]` (PostgreSQL only)
 *
 * Electronic invoicing at scale (issue 39): "10,000 invoices through the queue against the local
 * service: throughput and p95 from issue to authorised, with two instances". For each set-up — ONE
 * server process (the baseline), then TWO — a fresh database is migrated and seeded in SQL: 20
 * clinics (an administrator each, signed in by a session written with the rows, 50 patients,
 * currency argentine_peso), and a fresh fake ARCA runs as a process of its own
 * (apps/api/src/dev/fake-arca.ts, WSAA and WSFEv1). The real servers start meanwhile (`node --import
 * tsx apps/api/src/server.ts`, JOBS_ENABLED, ARCA_HOMOLOGATION_URL the fake's). Then, through the
 * API, each clinic gets what einvoicing.int.test.ts gives one: fiscal data (AR, a valid CUIT,
 * responsable inscripto), point of sale 0001, a certificate the fake's CA signed, ARCA homologation;
 * one more clinic, left `local`, issues up to 30 sales per server to warm them up. The clock starts: the invoices (a Factura B to a patient, one line, 121 ARS) are issued with
 * POST /api/sales `issue: true` — as fast as they go, `--clients` requests in flight (8 unless
 * given), or at a steady `--rate` per second — spread over the clinics and over the instances as a
 * load balancer would. Each issue queues its document on its clinic's series (one series per clinic:
 * point of sale 1, Factura B); the series' sender (einvoice.job.ts) authorises up to 50 per
 * FECAESolicitar. Per invoice: from the start of its issue request to its
 * `einvoice_submissions.authorized_at` (read from the database at the end; the servers and this
 * process share the clock) → p50, p95, max; authorised per second from the first issue to the last
 * authorisation. Checked in the same run: every invoice accepted exactly once; the fake holds as
 * many vouchers per series as we accepted, with our CAEs; our fiscal numbers 1…n per series with no
 * gap nor duplicate; none rejected; one WSAA login per clinic (the ticket is shared by the
 * instances). The CPU of each server and the CPU milliseconds per invoice of the servers, PostgreSQL
 * (the database's backends connected at the end), the fake and this process (the clients). The
 * machine is shared: its load is part of the figures. No goal was set by the issue beyond reporting
 * the figures: printed side by side, one instance against two; a correctness check missed → exit 1.
 * JOBS_POLL_MS is the servers' own (5 s) unless `--poll-ms`; JOBS_CONCURRENCY likewise (`--concurrency`).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { openDatabase } from '../src/db/client.ts';
import type { FakeArcaState } from '../src/dev/fake-arca.ts';
import { cuitIsValid } from '../src/features/sales/einvoicing/arca/index.ts';
import { newId } from '../src/lib/ids.ts';
import { hashToken, newToken } from '../src/lib/tokens.ts';
import { freePort } from '../test/free-port.ts';
import { createBenchIdFunction } from '../test/messaging-seed.ts';
import { createServerDatabase } from '../test/server-database.ts';
import {
  cpuSeconds,
  type ServerProcess,
  startServerProcess,
  stopServerProcess,
  waitServerReady,
} from '../test/server-process.ts';

// Not bench-kit.ts (as messages.ts): the servers are other processes.
const defaults = { clinics: 20, invoices: 10_000, patients: 50, clients: 8, rate: 0, timeout: 900 };
const { values: options } = parseArgs({
  options: {
    ...Object.fromEntries(
      Object.entries(defaults).map(([name, value]) => [name, { type: 'string' as const, default: String(value) }]),
    ),
    'skip-baseline': { type: 'boolean', default: false },
    /** JOBS_POLL_MS of the servers (their default, 5000, unless given). */
    'poll-ms': { type: 'string' },
    /** JOBS_CONCURRENCY of the servers (their default unless given). */
    concurrency: { type: 'string' },
    keep: { type: 'boolean', default: false },
  },
});
const size = (name: keyof typeof defaults) => Number((options as Record<string, unknown>)[name]);
const [clinicCount, invoices, patients, clients, rate, timeoutSeconds] = (
  ['clinics', 'invoices', 'patients', 'clients', 'rate', 'timeout'] as const
).map(size) as [number, number, number, number, number, number];
const seconds = (started: number) => `${((performance.now() - started) / 1000).toFixed(1)} s`;
const serverUrl =
  process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const repoRoot = path.resolve(import.meta.dirname, '../../..');
const zone = 'America/Argentina/Buenos_Aires';
const argentineDay = new Intl.DateTimeFormat('en-CA', { timeZone: zone });

interface Clinic {
  accountId: string;
  cuit: string;
  token: string;
  patientIds: string[];
}

interface Figures {
  instances: number;
  issued: number;
  /** Issue requests not answered 201, by status. */
  refused: string;
  issueSeconds: number;
  issueP50: number;
  issueP95: number;
  /** Issue start → authorised, milliseconds. */
  p50: number | null;
  p95: number | null;
  max: number | null;
  /** First issue → last authorisation, seconds (null: not all within the timeout). */
  span: number | null;
  accepted: number;
  rejected: number;
  open: number;
  documentsTwice: number;
  seriesCount: number;
  seriesMatchingFake: number;
  seriesContiguous: number;
  caeMismatches: number;
  fakeVouchers: number;
  logins: number;
  requests: Record<string, number>;
  senderRuns: number;
  jobsFailed: number;
  jobsRetried: number;
  serverCpu: number[];
  serversCpu: number;
  postgresCpu: number;
  fakeCpu: number;
  clientCpu: number;
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

function percentile(sorted: number[], p: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? null;
}

/** `n` valid CUITs of companies (30-…), different each run (the fake is fresh anyway). */
function cuits(n: number): string[] {
  const found: string[] = [];
  let serial = Math.floor(Math.random() * 50_000_000);
  while (found.length < n) {
    serial += 1;
    const body = `30${String(10_000_000 + (serial % 89_999_999)).padStart(8, '0')}`;
    for (let digit = 0; digit <= 9; digit += 1) {
      if (cuitIsValid(`${body}${digit}`)) {
        found.push(`${body}${digit}`);
        break;
      }
    }
  }
  return found;
}

/** The fake ARCA as a process of its own; answers its URL once it listens. */
async function startFake(): Promise<{ child: ChildProcess; url: string; stop(): Promise<void> }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/dev/fake-arca.ts', '--port', String(port)], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise((resolve) => child.on('exit', resolve));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the fake ARCA did not start:\n${output}`)), 60_000);
    child.stdout?.on('data', (chunk) => {
      output += chunk;
      const line = /^(http:\/\/\S+)\n/m.exec(output);
      if (line?.[1]) {
        clearTimeout(timer);
        resolve(line[1]);
      }
    });
    child.stderr?.on('data', (chunk) => (output += chunk));
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the fake ARCA exited (${code}):\n${output}`));
    });
  });
  return {
    child,
    url,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

async function api(
  origin: string,
  method: string,
  url: string,
  token: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const response = await fetch(`${origin}${url}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, text, json: () => JSON.parse(text) as { data: Record<string, unknown> } };
}

async function must(answer: Promise<{ status: number; text: string }>, expected: number, what: string) {
  const result = await answer;
  if (result.status !== expected) throw new Error(`${what}: ${result.status} ${result.text.slice(0, 500)}`);
  return JSON.parse(result.text) as { data: Record<string, unknown> };
}

/** Clinics, their administrators (with a session: `token`) and patients, in SQL. */
async function seed(databaseUrl: string): Promise<Clinic[]> {
  const seeder = await openDatabase({ databaseUrl, poolMax: 2 }); // migrates
  try {
    await createBenchIdFunction(seeder);
    const clinics = cuits(clinicCount + 1).map((cuit) => ({ accountId: newId(), cuit, token: newToken() }));
    const rows = clinics.map((clinic, n) => ({
      n,
      account_id: clinic.accountId,
      session_id: newId(),
      token_hash: hashToken(clinic.token),
    }));
    await seeder.orm.transaction(async (tx) => {
      await tx.execute(sql`set local session_replication_role = replica`);
      await tx.execute(sql`
        create temporary table seed_clinics on commit drop as
        select * from json_to_recordset(${JSON.stringify(rows)}::json) as r(n int, account_id uuid, session_id uuid, token_hash text)`);
      await tx.execute(sql`
        insert into accounts (id, clinic_name, contact, system_currency, time_zone, activated_at, public_slug)
        select account_id, 'Clínica ' || (n + 1), '+54 11 5555-0000', 'argentine_peso', ${zone}, now(),
          'clinica-' || replace(account_id::text, '-', '')
        from seed_clinics`);
      // The administrator of each clinic: user id = login id = account id.
      await tx.execute(sql`
        insert into logins (id, email, last_account_id)
        select account_id, 'admin.' || account_id || '@odontia.bench', account_id from seed_clinics`);
      await tx.execute(sql`
        insert into users (account_id, id, login_id, complete_name, email, level, system_language, date_format,
          system_currency, activated_at)
        select account_id, account_id, account_id, 'Dra. Administradora ' || (n + 1),
          'admin.' || account_id || '@odontia.bench', 'administrator', 'es', 'DD/MM/YYYY', 'argentine_peso', now()
        from seed_clinics`);
      await tx.execute(sql`
        insert into sessions (account_id, id, user_id, token_hash, remember, expires_at, last_activity_at)
        select account_id, session_id, account_id, token_hash, false, now() + interval '1 day', now() from seed_clinics`);
      await tx.execute(sql`
        insert into patients (account_id, id, sku_patient, first_name, last_name, sex, birthdate, created_by, updated_by)
        select c.account_id, uuid_generate_v7_bench(c.n::bigint * 100000 + p), 'P-' || lpad(p::text, 6, '0'),
          'Paciente', 'Número ' || p, case when p % 2 = 0 then 'female' else 'male' end, date '1960-01-01' + p,
          c.account_id, c.account_id
        from seed_clinics c cross join generate_series(1, ${patients}) as p`);
      await tx.execute(sql`
        insert into account_counters (account_id, name, value) select account_id, 'patient', ${patients} from seed_clinics`);
    });
    await seeder.orm.execute(sql`select odontia_rebuild_day_figures(id) from accounts`);
    for (const table of ['accounts', 'users', 'sessions', 'patients'])
      await seeder.orm.execute(sql.raw(`vacuum analyze ${table}`));
    const { rows: found } = await seeder.orm.execute<{ account_id: string; ids: string[] }>(sql`
      select account_id, array_agg(id order by sku_patient) as ids from patients group by account_id`);
    const byClinic = new Map(found.map((row) => [row.account_id, row.ids]));
    return clinics.map((clinic) => ({ ...clinic, patientIds: byClinic.get(clinic.accountId) ?? [] }));
  } finally {
    await seeder.close();
  }
}

/** What einvoicing.int.test.ts's `arcaClinic` does, through the API of `origin`. */
async function configureArca(origin: string, fakeUrl: string, clinic: Clinic) {
  const { token } = clinic;
  const fiscal = await must(api(origin, 'GET', '/api/settings/fiscal', token), 200, 'fiscal data');
  await must(
    api(origin, 'PUT', '/api/settings/fiscal', token, {
      legalName: 'Sonrisas S.R.L.',
      tradeName: null,
      address: 'Av. Corrientes 1234',
      city: 'CABA',
      country: 'AR',
      taxIdKind: 'cuit',
      taxId: clinic.cuit,
      fiscalCondition: 'ar_responsable_inscripto',
      version: fiscal.data.version,
    }),
    200,
    'save the fiscal data',
  );
  await must(
    api(origin, 'POST', '/api/points-of-sale', token, { code: '0001', name: 'Caja 0001', active: true }),
    201,
    'point of sale',
  );
  const certificate = await fetch(`${fakeUrl}/_fake/certificate`, {
    method: 'POST',
    body: JSON.stringify({ cuit: clinic.cuit }),
  }).then((response) => response.json());
  await must(api(origin, 'PUT', '/api/settings/einvoicing/certificate', token, certificate), 200, 'certificate');
  const settings = await must(api(origin, 'GET', '/api/settings/einvoicing', token), 200, 'e-invoicing settings');
  await must(
    api(origin, 'PUT', '/api/settings/einvoicing', token, {
      regime: 'arca',
      environment: 'homologation',
      pointsOfSale: [],
      version: settings.data.version,
    }),
    200,
    'ARCA homologation',
  );
}

/** An invoice (Factura B: a patient, one line of 100 + 21 % VAT) issued at once; the n-th of its clinic's patients in turn. */
function issueSale(origin: string, clinic: Clinic, index: number) {
  const patientId = clinic.patientIds[Math.floor(index / clinicCount) % clinic.patientIds.length];
  return api(
    origin,
    'POST',
    '/api/sales',
    clinic.token,
    {
      documentType: 'invoice',
      pointOfService: '0001',
      date: argentineDay.format(new Date()),
      patientId,
      currency: 'argentine_peso',
      lines: [{ description: 'Corona de zirconio', quantity: '1', unitPrice: '100', vatRate: '21', tooth: '16' }],
      issue: true,
    },
    { 'idempotency-key': randomUUID() },
  );
}

async function inBatches<T>(items: T[], width: number, work: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, items.length) }, async () => {
      while (next < items.length) {
        const item = items[next];
        next += 1;
        if (item !== undefined) await work(item);
      }
    }),
  );
}

async function measure(instances: number): Promise<Figures> {
  const secretsKey = randomBytes(32).toString('base64');
  const { name, url, admin } = await createServerDatabase(serverUrl, 'odontia_bench_einvoice');
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'odontia-bench-einvoice-'));
  const fake = await startFake();
  const servers: ServerProcess[] = [];
  const watcher = new pg.Client({ connectionString: url });
  try {
    const seeding = performance.now();
    // The servers start meanwhile (their migrations wait for the seeder's, then find nothing to do).
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
          ARCA_HOMOLOGATION_URL: fake.url,
          ...(options['poll-ms'] ? { JOBS_POLL_MS: options['poll-ms'] } : {}),
          ...(options.concurrency ? { JOBS_CONCURRENCY: options.concurrency } : {}),
          // BENCH_LOG_LEVEL=warn prints what the servers logged (a job failed, a sender deferred).
          LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'error',
        }),
      );
    }
    const seeded = await seed(url);
    await Promise.all(servers.map((server) => waitServerReady(server)));
    const first = servers[0];
    if (!first) throw new Error('no server');
    // The last clinic stays `local` (nothing sent): it warms each server's issuing up before the clock.
    const warmClinic = seeded.at(-1);
    const clinics = seeded.slice(0, -1);
    if (!warmClinic) throw new Error('no clinic');
    await inBatches(clinics, 4, (clinic) => configureArca(first.origin, fake.url, clinic));
    await must(
      api(first.origin, 'POST', '/api/points-of-sale', warmClinic.token, { code: '0001', name: 'Caja', active: true }),
      201,
      'point of sale',
    );
    await inBatches(
      Array.from({ length: Math.min(30, Math.ceil(invoices / 4)) * instances }, (_, index) => index),
      4,
      async (index) => {
        const server = servers[index % servers.length];
        if (server) await must(issueSale(server.origin, warmClinic, index), 201, 'warm-up issue');
      },
    );
    console.log(`  ${instances} instance(s): migrated, seeded and configured in ${seconds(seeding)}`);
    await watcher.connect();
    const backends = async () =>
      (
        await watcher.query<{ pid: number }>(
          'select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
        )
      ).rows.map((row) => row.pid);
    const postgresBefore = new Map((await backends()).map((pid) => [pid, cpuSeconds(pid)]));
    const cpuBefore = servers.map((server) => cpuSeconds(server.child.pid));
    const fakeBefore = cpuSeconds(fake.child.pid);
    const clientBefore = process.cpuUsage();
    const machineBefore = machineCpu();

    // The clock starts.
    const started = performance.now();
    const wallStart = performance.timeOrigin + started;
    const elapsed = () => (performance.now() - started) / 1000;
    const deadline = started + timeoutSeconds * 1000;
    const issuedAt = new Map<string, number>();
    const issueMs: number[] = [];
    const refused = new Map<string, number>();
    let issuing = true;
    const issueOne = async (index: number) => {
      const clinic = clinics[index % clinics.length];
      const server = servers[index % servers.length];
      if (!clinic || !server) return;
      const at = performance.timeOrigin + performance.now();
      let status = 'no answer';
      try {
        const answer = await issueSale(server.origin, clinic, index);
        status = String(answer.status);
        if (answer.status === 201) {
          issuedAt.set(String(answer.json().data.id), at);
          issueMs.push(performance.timeOrigin + performance.now() - at);
          return;
        }
        if (process.env.BENCH_LOG_LEVEL)
          console.log(`    issue refused: ${answer.status} ${answer.text.slice(0, 300)}`);
      } catch {
        // counted below
      }
      refused.set(status, (refused.get(status) ?? 0) + 1);
    };
    const issuingDone = (async () => {
      if (rate > 0) {
        // Open loop: invoice i leaves at i / rate s, whatever the answers before it.
        const inFlight: Promise<void>[] = [];
        for (let index = 0; index < invoices; index += 1) {
          const wait = started + (index * 1000) / rate - performance.now();
          if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
          inFlight.push(issueOne(index));
        }
        await Promise.all(inFlight);
      } else {
        await inBatches(
          Array.from({ length: invoices }, (_, index) => index),
          clients,
          issueOne,
        );
      }
      issuing = false;
    })();
    const issueSecondsPromise = issuingDone.then(() => elapsed());
    let done = false;
    let lastPrint = 0;
    while (performance.now() < deadline) {
      const { rows } = await watcher.query<Record<string, string>>(`
        select count(*) filter (where status = 'accepted') as accepted,
          count(*) filter (where status = 'rejected') as rejected, count(*) as total
        from einvoice_submissions where adapter = 'arca'`);
      const accepted = count(rows[0]?.accepted);
      const settled = accepted + count(rows[0]?.rejected);
      if (!issuing && settled >= issuedAt.size) {
        done = true;
        break;
      }
      if (elapsed() - lastPrint >= 10) {
        lastPrint = elapsed();
        console.log(
          `    ${instances} instance(s), ${lastPrint.toFixed(0)} s: ${count(rows[0]?.total).toLocaleString('en')} issued, ${accepted.toLocaleString('en')} authorised`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const cpuAfter = servers.map((server) => cpuSeconds(server.child.pid));
    const fakeAfter = cpuSeconds(fake.child.pid);
    const clientUsage = process.cpuUsage(clientBefore);
    const machineAfter = machineCpu();
    let postgresCpu = 0;
    for (const pid of await backends()) postgresCpu += cpuSeconds(pid) - (postgresBefore.get(pid) ?? 0);
    const runSeconds = elapsed();
    const issueSeconds = issuing ? runSeconds : await issueSecondsPromise;

    const { rows: submissions } = await watcher.query<{
      document_id: string;
      status: string;
      at: string | null;
    }>(`select document_id, status, extract(epoch from authorized_at) * 1000 as at from einvoice_submissions
        where adapter = 'arca'`);
    const latencies: number[] = [];
    let lastAuthorised = 0;
    for (const row of submissions) {
      const from = issuedAt.get(row.document_id);
      if (row.at === null || from === undefined) continue;
      latencies.push(Number(row.at) - from);
      lastAuthorised = Math.max(lastAuthorised, Number(row.at));
    }
    latencies.sort((a, b) => a - b);
    const [db] = (
      await watcher.query<Record<string, string>>(`
        select (select count(*) filter (where status = 'accepted') from einvoice_submissions where adapter = 'arca')
            as accepted,
          (select count(*) filter (where status = 'rejected') from einvoice_submissions where adapter = 'arca') as rejected,
          (select count(*) filter (where status in ('pending', 'sending', 'contingency')) from einvoice_submissions
            where adapter = 'arca') as open,
          (select count(*) from (select 1 from einvoice_submissions where adapter = 'arca'
            group by account_id, document_id having count(*) > 1) twice) as documents_twice,
          (select count(*) from jobs where kind = 'einvoice.submit' and state = 'done') as sender_runs,
          (select count(*) from jobs where kind = 'einvoice.submit' and state = 'failed') as jobs_failed,
          (select count(*) from jobs where kind = 'einvoice.submit' and attempts > 1) as jobs_retried`)
    ).rows;
    // Per series: ours against the fake's.
    const { rows: series } = await watcher.query<{
      cuit: string;
      point: number;
      type: number;
      accepted: string;
      distinct_numbers: string;
      low: number | null;
      high: number | null;
    }>(`
      select regexp_replace(a.tax_id, '\\D', '', 'g') as cuit, s.authority_point_of_sale as point, s.voucher_type as type,
        count(*) filter (where s.status = 'accepted') as accepted,
        count(distinct s.fiscal_number) filter (where s.status = 'accepted') as distinct_numbers,
        min(s.fiscal_number) filter (where s.status = 'accepted') as low,
        max(s.fiscal_number) filter (where s.status = 'accepted') as high
      from einvoice_submissions s join accounts a on a.id = s.account_id where s.adapter = 'arca'
      group by 1, 2, 3`);
    const { rows: caes } = await watcher.query<{ key: string; cae: string | null }>(`
      select regexp_replace(a.tax_id, '\\D', '', 'g') || ':' || s.authority_point_of_sale || ':' || s.voucher_type || ':'
          || s.fiscal_number as key, s.authorization_code as cae
      from einvoice_submissions s join accounts a on a.id = s.account_id where s.status = 'accepted'`);
    const state = (await fetch(`${fake.url}/_fake/state`).then((response) => response.json())) as FakeArcaState;
    const fakeSeries = new Map(state.series.map((held) => [`${held.cuit}:${held.ptoVta}:${held.cbteTipo}`, held]));
    const fakeCaes = new Map(
      state.series.flatMap((held) =>
        held.vouchers.map((voucher) => [
          `${held.cuit}:${held.ptoVta}:${held.cbteTipo}:${voucher.cbteNro}`,
          voucher.cae,
        ]),
      ),
    );
    let seriesMatchingFake = 0;
    let seriesContiguous = 0;
    for (const row of series) {
      const accepted = count(row.accepted);
      const held = fakeSeries.get(`${row.cuit}:${row.point}:${row.type}`);
      if (held && held.vouchers.length === accepted && held.last === accepted) seriesMatchingFake += 1;
      if (
        accepted === 0 ||
        (count(row.distinct_numbers) === accepted && Number(row.low) === 1 && Number(row.high) === accepted)
      )
        seriesContiguous += 1;
    }
    const caeMismatches =
      caes.filter((row) => fakeCaes.get(row.key) !== row.cae).length + Math.max(0, fakeCaes.size - caes.length);
    return {
      instances,
      issued: issuedAt.size,
      refused: [...refused].map(([status, times]) => `${status}: ${times}`).join(', '),
      issueSeconds,
      issueP50:
        percentile(
          [...issueMs].sort((a, b) => a - b),
          50,
        ) ?? 0,
      issueP95:
        percentile(
          [...issueMs].sort((a, b) => a - b),
          95,
        ) ?? 0,
      p50: percentile(latencies, 50),
      p95: percentile(latencies, 95),
      max: latencies.at(-1) ?? null,
      span: done && latencies.length > 0 ? (lastAuthorised - wallStart) / 1000 : null,
      accepted: count(db?.accepted),
      rejected: count(db?.rejected),
      open: count(db?.open),
      documentsTwice: count(db?.documents_twice),
      seriesCount: series.length,
      seriesMatchingFake,
      seriesContiguous,
      caeMismatches,
      fakeVouchers: fakeCaes.size,
      logins: state.logins,
      requests: state.requests,
      senderRuns: count(db?.sender_runs),
      jobsFailed: count(db?.jobs_failed),
      jobsRetried: count(db?.jobs_retried),
      serverCpu: cpuAfter.map((after, index) => (after - (cpuBefore[index] ?? 0)) / runSeconds),
      serversCpu: cpuAfter.reduce((sum, after, index) => sum + after - (cpuBefore[index] ?? 0), 0),
      postgresCpu,
      fakeCpu: fakeAfter - fakeBefore,
      clientCpu: (clientUsage.user + clientUsage.system) / 1e6,
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

/** The correctness of one run: every invoice authorised once, as the fake holds it. */
function correct(r: Figures): boolean {
  return (
    r.issued === invoices &&
    r.accepted === invoices &&
    r.rejected === 0 &&
    r.open === 0 &&
    r.documentsTwice === 0 &&
    r.fakeVouchers === invoices &&
    r.seriesMatchingFake === r.seriesCount &&
    r.seriesContiguous === r.seriesCount &&
    r.caeMismatches === 0 &&
    r.logins === clinicCount
  );
}

function printTable(results: Figures[]): boolean {
  const columns = results.map((result) => (result.instances === 1 ? 'one instance' : `${result.instances} instances`));
  const number = (value: number) => value.toLocaleString('en');
  const ms = (value: number | null) => (value === null ? '—' : `${(value / 1000).toFixed(2)} s`);
  const per = (cpu: number) => ((1000 * cpu) / invoices).toFixed(1);
  const lines: [string, (result: Figures) => string][] = [
    ['invoices issued (201)', (r) => number(r.issued)],
    ['  issue refused', (r) => r.refused || 'none'],
    ['  all issued after', (r) => `${r.issueSeconds.toFixed(1)} s`],
    ['  issues/s', (r) => (r.issued / r.issueSeconds).toFixed(0)],
    ['  issue request p50 · p95', (r) => `${r.issueP50.toFixed(0)} · ${r.issueP95.toFixed(0)} ms`],
    ['issue → authorised p50', (r) => ms(r.p50)],
    ['issue → authorised p95', (r) => ms(r.p95)],
    ['issue → authorised max', (r) => ms(r.max)],
    ['first issue → last authorised', (r) => (r.span === null ? `> ${timeoutSeconds} s` : `${r.span.toFixed(1)} s`)],
    ['authorised/s', (r) => (r.span === null ? '—' : (r.accepted / r.span).toFixed(1))],
    ['accepted · rejected · open', (r) => `${number(r.accepted)} · ${r.rejected} · ${r.open}`],
    ['documents with 2+ submissions', (r) => number(r.documentsTwice)],
    ['vouchers the fake holds', (r) => number(r.fakeVouchers)],
    ['series = fake (count, last)', (r) => `${r.seriesMatchingFake}/${r.seriesCount}`],
    ['series numbered 1…n, no dup.', (r) => `${r.seriesContiguous}/${r.seriesCount}`],
    ['CAEs not the fake’s', (r) => number(r.caeMismatches)],
    ['WSAA logins (one per clinic)', (r) => `${r.logins} (${clinicCount})`],
    ['FECAESolicitar calls', (r) => number(r.requests.FECAESolicitar ?? 0)],
    ['  vouchers per call', (r) => (r.fakeVouchers / Math.max(1, r.requests.FECAESolicitar ?? 0)).toFixed(1)],
    ['FECompUltimoAutorizado calls', (r) => number(r.requests.FECompUltimoAutorizado ?? 0)],
    ['sender runs · failed · retried', (r) => `${number(r.senderRuns)} · ${r.jobsFailed} · ${r.jobsRetried}`],
    ['CPU of each server', (r) => r.serverCpu.map((cpu) => `${(cpu * 100).toFixed(0)} %`).join(' + ')],
    ['machine busy (all cores)', (r) => `${(r.machineBusy * 100).toFixed(0)} %`],
    ['CPU ms per invoice: servers', (r) => per(r.serversCpu)],
    ['  PostgreSQL · fake · clients', (r) => `${per(r.postgresCpu)} · ${per(r.fakeCpu)} · ${per(r.clientCpu)}`],
    ['correct', (r) => (correct(r) ? 'yes' : 'NO')],
  ];
  const width = Math.max(...lines.map(([label]) => label.length)) + 2;
  console.log(`${''.padEnd(width)}${columns.map((column) => column.padStart(18)).join('')}`);
  for (const [label, value] of lines)
    console.log(`${label.padEnd(width)}${results.map((result) => value(result).padStart(18)).join('')}`);
  const ok = results.every(correct);
  const one = results.find((result) => result.instances === 1);
  const two = results.find((result) => result.instances === 2);
  const side = (r: Figures | undefined) =>
    r ? `p95 ${ms(r.p95)}, ${r.span === null ? '—' : (r.accepted / r.span).toFixed(1)}/s` : 'not run';
  console.log(
    `goal: none set by issue 39 beyond reporting (one instance ${side(one)} | two instances ${side(two)}); every invoice authorised once, numbered 1…n as the fake holds it, one login per clinic: ${ok ? 'met' : 'MISSED'}`,
  );
  return ok;
}

async function main() {
  console.log(
    `e-invoice bench (PostgreSQL): ${invoices.toLocaleString('en')} invoices across ${clinicCount} clinics under ARCA homologation, through the local fake ARCA, issued ${rate > 0 ? `at ${rate}/s` : `as fast as they go (${clients} requests in flight)`}; JOBS_POLL_MS ${options['poll-ms'] ?? 'the servers’ default'}`,
  );
  const results: Figures[] = [];
  for (const instances of options['skip-baseline'] ? [2] : [1, 2]) {
    const started = performance.now();
    results.push(await measure(instances));
    console.log(`  ${instances} instance(s): measured in ${seconds(started)}`);
  }
  if (!printTable(results)) process.exitCode = 1;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
