/**
 * `npm run bench -- http [--patients N] [--attendances N] [--seconds N] [--rounds N] [--connections N]
 *   [--search TEXT] [--server-root DIR]… [--statements] [--profile DIR] [--keep]`
 *
 * The request path over real HTTP (issue 15). Seeds the bench clinic on a fresh PostgreSQL
 * database, starts the real server (`scripts/start.mjs`, API only) and drives it with autocannon
 * at 16 connections; then sends the SAME statements the server sent for that request straight
 * through a `pg.Pool` at the same concurrency (recorded on the wire by a proxy, so they are the
 * server's own, whichever checkout it runs). Prints requests/s and p50/p99 of
 *   GET /api/patients/:id, the patient search, GET /api/health
 * and each one's ratio to its raw statements. `--server-root <dir>` (repeatable) also benches the
 * server of another checkout on the same database in the same run (e.g. a worktree of an older
 * commit with a copy of node_modules; no web build needed) and prints this checkout's speed-up.
 * Goal: GET /api/patients/:id at ≥ 0.5× its raw statements and ≥ 2× the commit before issue 15.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { createBenchClinic, openBenchDatabase, parseSizes, percentile, seconds } from './bench-kit.ts';
import { seedPatients } from './patients-seed.ts';
import {
  type CapturedStatement,
  describeStatement,
  replay,
  type StatementUnit,
  startStatementCapture,
  unitsOf,
} from './statement-capture.ts';

const { options, sizes } = parseSizes(
  { patients: 30_000, attendances: 60_000, seconds: 5, rounds: 3, connections: 16 },
  {
    search: { type: 'string', default: 'perez luc' },
    'server-root': { type: 'string', multiple: true, default: [] },
    statements: { type: 'boolean', default: false },
    /** Writes a V8 CPU profile of each timed server into this folder (node --cpu-prof). */
    profile: { type: 'string' },
    keep: { type: 'boolean', default: false },
  },
);
const { patients: patientCount, attendances: attendanceCount, seconds: runSeconds, connections } = sizes;
const rounds = Math.max(1, sizes.rounds);
const warmUpSeconds = Math.min(2, runSeconds);
/** The server's pool (openDatabase's default): the raw runs get no more database connections. */
const serverPoolSize = 10;
const checkoutRoot = path.resolve(import.meta.dirname, '../../..');
const serverRoots = [checkoutRoot, ...(options['server-root'] ?? []).map((root) => path.resolve(root))];

interface Endpoint {
  label: string;
  path: string;
  signedIn: boolean;
}

interface Figures {
  rps: number;
  p50: number;
  p99: number;
}

interface EndpointResult {
  endpoint: Endpoint;
  statements: CapturedStatement[];
  http: Figures;
  raw: Figures;
}

function startServer(root: string, databaseUrl: string, port: number, dataDir: string, profile?: string) {
  const profiling = profile ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(profile)}`] : [];
  const child = spawn(process.execPath, [...profiling, 'scripts/start.mjs'], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      // Set, so start.mjs builds no web app; missing, so only the API is served.
      WEB_DIST_DIR: path.join(dataDir, 'no-web'),
      SEED_DEMO: '0',
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'error',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { child, exited, origin: `http://127.0.0.1:${port}` };
}

async function waitForHealth(origin: string, child: ChildProcess): Promise<void> {
  const started = performance.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error('the server exited before answering');
    try {
      if ((await fetch(`${origin}/api/health`)).status === 200) return;
    } catch {
      // not listening yet
    }
    if (performance.now() - started > 120_000) throw new Error('no health answer in 120 s');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function stopServer(server: ReturnType<typeof startServer>): Promise<void> {
  server.child.kill('SIGTERM');
  await server.exited;
}

async function get(origin: string, endpoint: Endpoint, token: string): Promise<void> {
  const response = await fetch(`${origin}${endpoint.path}`, {
    headers: endpoint.signedIn ? { authorization: `Bearer ${token}` } : {},
  });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`GET ${endpoint.path} answered ${response.status}`);
}

async function httpLoad(origin: string, endpoint: Endpoint, token: string, duration: number): Promise<Figures> {
  const result = await autocannon({
    url: `${origin}${endpoint.path}`,
    connections,
    duration,
    headers: endpoint.signedIn ? { authorization: `Bearer ${token}` } : {},
  });
  if (result.errors || result.non2xx) {
    throw new Error(`GET ${endpoint.path}: ${result.errors} errors, ${result.non2xx} answers other than 2xx`);
  }
  return { rps: result.requests.total / result.duration, p50: result.latency.p50, p99: result.latency.p99 };
}

/** `connections` callers, each sending one request's statements after the other. */
async function rawLoad(pool: pg.Pool, units: StatementUnit[], duration: number): Promise<Figures> {
  const times: number[] = [];
  const started = performance.now();
  const deadline = started + duration * 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < deadline) {
        const sent = performance.now();
        await replay(pool, units);
        times.push(performance.now() - sent);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  return { rps: times.length / elapsed, p50: percentile(times, 50), p99: percentile(times, 99) };
}

/** Starts the server behind the capture proxy, signs in and records one request of each endpoint. */
async function captureStatements(
  root: string,
  databaseUrl: string,
  credentials: { email: string; password: string },
  endpoints: Endpoint[],
  port: number,
  dataDir: string,
): Promise<{ token: string; statements: CapturedStatement[][] }> {
  const capture = await startStatementCapture(databaseUrl);
  const server = startServer(root, capture.url, port, dataDir);
  try {
    await waitForHealth(server.origin, server.child);
    const signIn = await fetch(`${server.origin}/api/auth/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(credentials),
    });
    if (signIn.status !== 200) throw new Error(`sign-in answered ${signIn.status}: ${await signIn.text()}`);
    const token = ((await signIn.json()) as { data: { token: string } }).data.token;
    const statements: CapturedStatement[][] = [];
    for (const endpoint of endpoints) {
      // Warm: every pool connection has prepared what it prepares once.
      await Promise.all(Array.from({ length: 3 * serverPoolSize }, () => get(server.origin, endpoint, token)));
      statements.push(await capture.record(() => get(server.origin, endpoint, token)));
    }
    return { token, statements };
  } finally {
    await stopServer(server);
    await capture.close();
  }
}

interface RunningServer {
  root: string;
  token: string;
  statements: CapturedStatement[][];
  server: ReturnType<typeof startServer>;
  dataDir: string;
}

/** Records each checkout's statements, then starts its server directly (no proxy) for the load. */
async function startServers(
  databaseUrl: string,
  credentials: { email: string; password: string },
  endpoints: Endpoint[],
): Promise<RunningServer[]> {
  const running: RunningServer[] = [];
  try {
    for (const [index, root] of serverRoots.entries()) {
      const dataDir = await mkdtemp(path.join(os.tmpdir(), 'odontia-bench-http-'));
      const port = 4700 + index * 10 + Math.floor(Math.random() * 10) * 100;
      const { token, statements } = await captureStatements(root, databaseUrl, credentials, endpoints, port, dataDir);
      const server = startServer(root, databaseUrl, port + 1, dataDir, options.profile);
      running.push({ root, token, statements, server, dataDir });
      await waitForHealth(server.origin, server.child);
    }
    return running;
  } catch (error) {
    await stopServers(running);
    throw error;
  }
}

async function stopServers(running: RunningServer[]): Promise<void> {
  for (const { server, dataDir } of running) {
    await stopServer(server);
    await rm(dataDir, { recursive: true, force: true });
  }
}

const medianOf = (figures: Figures[]): Figures => ({
  rps: percentile(
    figures.map((f) => f.rps),
    50,
  ),
  p50: percentile(
    figures.map((f) => f.p50),
    50,
  ),
  p99: percentile(
    figures.map((f) => f.p99),
    50,
  ),
});

/**
 * Each endpoint in turn; per round, every server over HTTP then its raw statements, so a busy
 * moment of the machine hits all of them alike. The figures are the rounds' medians.
 */
async function drive(
  databaseUrl: string,
  running: RunningServer[],
  endpoints: Endpoint[],
): Promise<Map<string, EndpointResult[]>> {
  const results = new Map<string, EndpointResult[]>(running.map(({ root }) => [root, []]));
  const pool = new pg.Pool({ connectionString: databaseUrl, max: serverPoolSize });
  try {
    for (const [index, endpoint] of endpoints.entries()) {
      const runs = running.map(() => ({ http: [] as Figures[], raw: [] as Figures[] }));
      for (let round = 0; round < rounds; round += 1) {
        for (const [which, { server, token, statements }] of running.entries()) {
          // One pool replays every server's statements: a prepared statement's name is per
          // connection, and two checkouts may prepare different texts under one name.
          const units = unitsOf(
            (statements[index] ?? []).map((statement) =>
              statement.name ? { ...statement, name: `${which}_${statement.name}` } : statement,
            ),
          );
          if (round === 0) {
            await httpLoad(server.origin, endpoint, token, warmUpSeconds);
            await rawLoad(pool, units, warmUpSeconds);
          }
          runs[which]?.http.push(await httpLoad(server.origin, endpoint, token, runSeconds));
          runs[which]?.raw.push(await rawLoad(pool, units, runSeconds));
        }
      }
      for (const [which, { root, statements }] of running.entries()) {
        const { http, raw } = runs[which] ?? { http: [], raw: [] };
        results
          .get(root)
          ?.push({ endpoint, statements: statements[index] ?? [], http: medianOf(http), raw: medianOf(raw) });
      }
    }
    return results;
  } finally {
    await pool.end();
  }
}

const fixed = (value: number, digits = 1) => value.toFixed(digits);

function printResults(root: string, results: EndpointResult[]): void {
  console.log(`\nserver: ${root === checkoutRoot ? 'this checkout' : root}`);
  for (const { endpoint, statements, http, raw } of results) {
    const units = unitsOf(statements);
    console.log(
      `  ${endpoint.label}: ${statements.length} statements in ${units.length} ` +
        `${units.length === 1 ? 'unit' : 'units'} (one connection each)`,
    );
    if (options.statements) for (const statement of statements) console.log(`      ${describeStatement(statement)}`);
    console.log(
      `    HTTP ${fixed(http.rps, 0).padStart(6)} req/s  p50 ${fixed(http.p50)} ms  p99 ${fixed(http.p99)} ms` +
        `   raw ${fixed(raw.rps, 0).padStart(6)} /s  p50 ${fixed(raw.p50)} ms  p99 ${fixed(raw.p99)} ms` +
        `   HTTP/raw ${fixed(http.rps / raw.rps, 2)}×`,
    );
  }
}

async function main() {
  const search = options.search;
  console.log(
    `http bench on PostgreSQL: ${patientCount.toLocaleString('en')} patients, ` +
      `${attendanceCount.toLocaleString('en')} attendances; ${connections} connections, ` +
      `median of ${rounds} runs of ${runSeconds} s ` +
      `(raw: ${connections} callers on a pg.Pool of ${serverPoolSize}, the server's pool size)`,
  );
  const { db, drop, url } = await openBenchDatabase({ pglite: false, keep: options.keep });
  try {
    if (!url) throw new Error('the http bench needs PostgreSQL');
    const clinic = await createBenchClinic(db);
    const started = performance.now();
    await seedPatients(db, clinic, {
      patients: patientCount,
      attendances: attendanceCount,
      heavy: Math.min(300, Math.floor(attendanceCount / 4)),
      heavyPatients: 3,
    });
    console.log(`  seeded in ${seconds(started)}`);
    const [patient] = (
      await db.orm.execute<{ id: string }>(sql`
        select id from patients where account_id = ${clinic.accountId}
        order by sku_patient offset ${Math.floor(patientCount / 2)} limit 1`)
    ).rows;
    if (!patient) throw new Error('no patients were seeded');
    const endpoints: Endpoint[] = [
      { label: 'GET /api/patients/:id', path: `/api/patients/${patient.id}`, signedIn: true },
      {
        label: `GET /api/patients?q=${search}`,
        path: `/api/patients?q=${encodeURIComponent(search)}&pageSize=20`,
        signedIn: true,
      },
      { label: 'GET /api/health', path: '/api/health', signedIn: false },
    ];

    const running = await startServers(url, { email: clinic.email, password: clinic.password }, endpoints);
    let all: Map<string, EndpointResult[]>;
    try {
      all = await drive(url, running, endpoints);
    } finally {
      await stopServers(running);
    }
    for (const root of serverRoots) printResults(root, all.get(root) ?? []);
    const ours = all.get(checkoutRoot) ?? [];
    for (const root of serverRoots.slice(1)) {
      const theirs = all.get(root) ?? [];
      console.log(`\nthis checkout against ${root}:`);
      for (const [index, result] of ours.entries()) {
        const other = theirs[index];
        if (!other) continue;
        console.log(
          `  ${result.endpoint.label}: ${fixed(result.http.rps / other.http.rps, 2)}× the requests/s ` +
            `(${fixed(result.http.rps, 0)} against ${fixed(other.http.rps, 0)}), ` +
            `${result.statements.length} statements against ${other.statements.length}`,
        );
      }
    }
  } finally {
    await drop();
  }
}

await main();
