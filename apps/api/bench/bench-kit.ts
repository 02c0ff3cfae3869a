/**
 * What the benchmarks share: a throw-away database (PostgreSQL or PGlite), a clinic with an
 * administrator signed in through the real endpoint, the real app for `app.inject`, and the
 * percentiles they print.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type ParseArgsOptionDescriptor, parseArgs } from 'node:util';
import { type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.ts';
import { type Database, openDatabase } from '../src/db/client.ts';
import { loadEnv } from '../src/env.ts';
import { newId } from '../src/lib/ids.ts';
import { hashPassword } from '../src/lib/passwords.ts';
import { createServerDatabase } from '../test/server-database.ts';

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

export const ms = (value: number) => `${value.toFixed(2)} ms`;
export const seconds = (started: number) => `${((performance.now() - started) / 1000).toFixed(1)} s`;

/** `label: p50 …, p95 … (n …)` */
export function report(label: string, times: number[], unit = 'requests'): void {
  console.log(`${label}: p50 ${ms(percentile(times, 50))}, p95 ${ms(percentile(times, 95))} (${times.length} ${unit})`);
}

/**
 * PostgreSQL: a new database on BENCH_DATABASE_URL / DATABASE_URL (default
 * postgres://postgres@127.0.0.1:5432/postgres), dropped at the end unless `keep`; `url` names it.
 * PGlite: in memory.
 */
export async function openBenchDatabase(options: {
  pglite: boolean;
  keep: boolean;
  /** A database kept by an earlier run (`--keep`): opened as it is, never dropped. */
  reuse?: string;
}): Promise<{ db: Database; drop: () => Promise<void>; url?: string }> {
  let opened: { db: Database; drop: () => Promise<void>; url?: string };
  if (options.reuse) {
    const url = new URL(
      process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    );
    url.pathname = `/${options.reuse}`;
    const db = await openDatabase({ databaseUrl: url.toString(), poolMax: 10 });
    return { db, url: url.toString(), drop: () => db.close() };
  }
  if (options.pglite) {
    const db = await openDatabase({});
    opened = { db, drop: () => db.close() };
  } else {
    const serverUrl =
      process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
    const { name, url, admin } = await createServerDatabase(serverUrl, 'odontia_bench');
    const db = await openDatabase({ databaseUrl: url, poolMax: 10 });
    opened = {
      db,
      url,
      drop: async () => {
        await db.close();
        if (options.keep) console.log(`kept database ${name}`);
        else await admin.query(`drop database if exists ${name} with (force)`);
        await admin.end();
      },
    };
  }
  // Time-ordered ids for generated rows, like the app's UUID v7 (keeps primary keys compact). Each
  // call reads the clock: two calls with the same n give two ids, so a row that another references
  // keeps its id in a table (the seeds' temporary tables) rather than calling this again.
  await opened.db.orm.execute(sql`
    create or replace function uuid_generate_v7_bench(n bigint) returns uuid language sql as $$
      select (lpad(to_hex((extract(epoch from clock_timestamp()) * 1000)::bigint), 12, '0')
        || '7' || lpad(to_hex(n % 4096), 3, '0') || '8' || lpad(to_hex(n), 15, '0'))::uuid $$`);
  return opened;
}

export interface BenchClinic {
  accountId: string;
  userId: string;
  email: string;
  password: string;
}

/** A clinic and its administrator, written directly (superuser connection). */
export async function createBenchClinic(db: Database): Promise<BenchClinic> {
  const accountId = newId();
  const userId = newId();
  const email = `bench.${randomBytes(3).toString('hex')}@odontia.bench`;
  const password = 'bench-password-2026'; // findBenchClinic signs in with it again
  const passwordHash = await hashPassword(password);
  await db.orm.execute(sql`
    insert into accounts (id, clinic_name, contact, system_currency, time_zone, activated_at)
    values (${accountId}, 'Clínica Benchmark', '+54 11 5555-0000', 'argentine_peso', 'America/Argentina/Buenos_Aires', now())`);
  await db.orm.execute(sql`
    insert into logins (id, email, password_hash, last_account_id) values (${userId}, ${email}, ${passwordHash}, ${accountId})`);
  await db.orm.execute(sql`
    insert into users (account_id, id, login_id, complete_name, email, level, system_language, date_format, system_currency, activated_at)
    values (${accountId}, ${userId}, ${userId}, 'Bench Admin', ${email}, 'administrator', 'es', 'DD/MM/YYYY', 'argentine_peso', now())`);
  return { accountId, userId, email, password };
}

/** The clinic of a kept bench database (`--reuse`): its administrator, with the bench's password. */
export async function findBenchClinic(db: Database): Promise<BenchClinic> {
  const { rows } = await db.orm.execute<{ account_id: string; id: string; email: string }>(sql`
    select account_id, id, email from users where level = 'administrator' and email like 'bench.%' limit 1`);
  const admin = rows[0];
  if (!admin) throw new Error('no bench clinic in this database');
  return { accountId: admin.account_id, userId: admin.id, email: admin.email, password: 'bench-password-2026' };
}

/** The real application, signed in as the clinic's administrator. */
export async function startBenchApp(
  db: Database,
  clinic: BenchClinic,
): Promise<{ app: FastifyInstance; headers: Record<string, string>; close: () => Promise<void> }> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'odontia-bench-'));
  const env = loadEnv({
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    WEB_DIST_DIR: path.join(dataDir, 'no-web'),
  });
  const app = await buildApp({ env, db });
  await app.ready();
  const signIn = await app.inject({
    method: 'POST',
    url: '/api/auth/sign-in',
    payload: { email: clinic.email, password: clinic.password },
  });
  if (signIn.statusCode !== 200) throw new Error(`bench sign-in failed: ${signIn.body}`);
  return {
    app,
    headers: { authorization: `Bearer ${signIn.json().data.token as string}` },
    close: async () => {
      await app.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Calls the app with the administrator's headers and answers the JSON body; any status but
 * `expected` throws. With `idempotencyKeys`, every call carries a fresh Idempotency-Key (the
 * creates that move money require one).
 */
export function benchCaller(
  app: FastifyInstance,
  headers: Record<string, string>,
  { idempotencyKeys }: { idempotencyKeys: boolean },
) {
  return async (method: 'GET' | 'POST', url: string, payload?: object, expected = 200) => {
    const response = await app.inject({
      method,
      url,
      headers: idempotencyKeys
        ? { ...headers, 'idempotency-key': `bench-${Math.random().toString(36).slice(2)}-${Date.now()}` }
        : headers,
      ...(payload ? { payload } : {}),
    });
    if (response.statusCode !== expected)
      throw new Error(`${method} ${url} answered ${response.statusCode}: ${response.body}`);
    return response.json();
  };
}

/** Times `runs` runs of `work` (run 0, 1…) after up to ten warm-up runs (numbered from `runs` on). */
export function benchTimer(runs: number) {
  return async (work: (run: number) => Promise<unknown>): Promise<number[]> => {
    for (let run = 0; run < Math.min(10, runs); run += 1) await work(run + runs); // warm-up
    const times: number[] = [];
    for (let run = 0; run < runs; run += 1) {
      const begun = performance.now();
      await work(run);
      times.push(performance.now() - begun);
    }
    return times;
  };
}

/** What autovacuum does on a running server: bulk updates leave dead row versions behind. */
export async function vacuumAnalyze(db: Database, tables: string[]): Promise<void> {
  for (const table of tables) await db.orm.execute(sql.raw(`vacuum analyze ${table}`));
}

/** Where bulk SQL runs: the database's ORM or one of its transactions. */
export interface SqlRunner {
  execute(query: SQL): Promise<unknown>;
}

/** `array['a','b']` for SQL built from constant word lists. */
export const sqlArray = (words: readonly string[]) =>
  sql.raw(`array[${words.map((word) => `'${word.replace(/'/g, "''")}'`).join(',')}]`);

/**
 * The clinics' day figures (migration 0020) recomputed from their rows, the changes the triggers
 * appended during the load dropped: bulk loads run with the triggers off
 * (`session_replication_role = replica`) or append one change per row, so the figures are
 * rebuilt once at the end, as a clinic's are when its time zone changes. The rebuild also sets
 * each patient's first and latest attendance (`patients.first_attended_at`, `last_attended_at`:
 * migrations 0023 and 0026), which the attendances' trigger keeps otherwise. Every clinic by default.
 */
export async function keepDayFigures(runner: SqlRunner, accountId?: string): Promise<void> {
  await runner.execute(
    accountId
      ? sql`select odontia_rebuild_day_figures(${accountId}::uuid)`
      : sql`select odontia_rebuild_day_figures(id) from accounts`,
  );
}

/** What settling the seeded money differs in by side (providers' payments, customers' collections). */
export interface SeededMoney {
  accountId: string;
  userId: string;
  /** The temporary table of the money (`n`, `payment_id`, `document_id`, the party column, `date`, `total`). */
  table: 'bench_payments' | 'bench_collections';
  party: 'provider' | 'customer';
  /** Where the allocations' and the ledger entries' generated ids start. */
  allocationIds: number;
  entryIds: number;
  /** The ledger entries' text, and the column the money posts to (a payment debits, a collection credits). */
  description: string;
  entry: 'debit' | 'credit';
  /** The clinic's counter of the money's numbers and its last value. */
  counter: 'payment' | 'collection';
  count: number;
}

/** What each side's seed settles: the providers' payments and the customers' collections. */
export const seededMoneySides = {
  provider: {
    table: 'bench_payments',
    party: 'provider',
    allocationIds: 9000000,
    entryIds: 11000000,
    description: 'Pago',
    entry: 'debit',
    counter: 'payment',
  },
  customer: {
    table: 'bench_collections',
    party: 'customer',
    allocationIds: 9000000000,
    entryIds: 11000000000,
    description: 'Cobranza',
    entry: 'credit',
    counter: 'collection',
  },
} as const satisfies Record<string, Omit<SeededMoney, 'accountId' | 'userId' | 'count'>>;

/**
 * Each seeded payment or collection settles its one document in full: the allocation, the
 * document's open amount to zero, the ledger entry, the party's kept balance, the day figures and
 * the clinic's counter, written once for both sides' seeds.
 */
export async function settleSeededMoney(runner: SqlRunner, money: SeededMoney): Promise<void> {
  const { accountId, userId } = money;
  const table = sql.raw(money.table);
  const partyColumn = sql.raw(`${money.party}_id`);
  const entry = sql.raw(money.entry);
  await runner.execute(sql`
    insert into payment_allocations (account_id, id, payment_id, document_id, amount, created_by)
    select ${accountId}::uuid, uuid_generate_v7_bench(${sql.raw(String(money.allocationIds))} + p.n), p.payment_id,
      p.document_id, p.total, ${userId}::uuid
    from ${table} p`);
  await runner.execute(sql`
    update commercial_documents c set open_amount = 0
    from ${table} p where c.account_id = ${accountId}::uuid and c.id = p.document_id`);
  await runner.execute(sql`
    insert into ledger_entries (account_id, id, party_kind, party_id, date, kind, payment_id, description, ${entry}, created_by)
    select ${accountId}::uuid, uuid_generate_v7_bench(${sql.raw(String(money.entryIds))} + p.n), ${money.party}, p.${partyColumn}, p.date, 'payment',
      p.payment_id, ${money.description}, p.total, ${userId}::uuid
    from ${table} p`);
  await runner.execute(sql`
    insert into party_balances (account_id, party_kind, party_id, debits, credits)
    select ${accountId}::uuid, ${money.party}, party_id, sum(debit), sum(credit)
    from ledger_entries where account_id = ${accountId}::uuid and party_kind = ${money.party} group by party_id`);
  await keepDayFigures(runner, accountId);
  await runner.execute(sql`
    insert into account_counters (account_id, name, value) values (${accountId}::uuid, ${money.counter}, ${money.count})
    on conflict do nothing`);
}

const moneyTables = [
  'commercial_documents',
  'document_lines',
  'payments',
  'payment_allocations',
  'ledger_entries',
  'party_balances',
  'day_figures',
];

/**
 * After a money seed (purchases and payments, sales and collections): its tables vacuumed and
 * analysed after the side's own (`partyTables`), and what it wrote counted, formatted for printing.
 */
export async function closeMoneySeed(db: Database, accountId: string, partyTables: string[]) {
  await vacuumAnalyze(db, [...partyTables, ...moneyTables]);
  const [counts] = (
    await db.orm.execute<{ documents: number; payments: number; entries: number; open: number }>(sql`
      select (select count(*)::int from commercial_documents where account_id = ${accountId}) as documents,
        (select count(*)::int from payments where account_id = ${accountId}) as payments,
        (select count(*)::int from ledger_entries where account_id = ${accountId}) as entries,
        (select count(*)::int from commercial_documents where account_id = ${accountId} and open_amount <> 0) as open`)
  ).rows;
  const printed = (value: number | undefined) => Number(value).toLocaleString('en');
  return {
    documents: printed(counts?.documents),
    payments: printed(counts?.payments),
    entries: printed(counts?.entries),
    open: printed(counts?.open),
  };
}

/** Which database a bench runs on, as its headline prints it. */
export const benchBackend = (options: { pglite: boolean }) =>
  options.pglite ? 'PGlite (embedded, in memory)' : 'PostgreSQL';

/**
 * A bench's frame: prints its headline, opens the throw-away database and runs `bench` on it,
 * dropping it afterwards (unless `--keep`) even when a step throws.
 */
export async function withBenchDatabase(
  options: Parameters<typeof openBenchDatabase>[0],
  headline: (backend: string) => string,
  bench: (db: Database) => Promise<void>,
): Promise<void> {
  console.log(headline(benchBackend(options)));
  const { db, drop } = await openBenchDatabase(options);
  try {
    await bench(db);
  } finally {
    await drop();
  }
}

/** Times on the real app signed in as the clinic's administrator, closed afterwards. */
export async function withBenchApp(
  db: Database,
  clinic: BenchClinic,
  timing: (app: FastifyInstance, headers: Record<string, string>) => Promise<void>,
): Promise<void> {
  const { app, headers, close } = await startBenchApp(db, clinic);
  try {
    await timing(app, headers);
  } finally {
    await close();
  }
}

/** Runs a bench's `main`, printing any failure and exiting with 1. */
export function runBench(main: () => Promise<void>): void {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}

/** The FROM item the seeds read (`account_id`, `user_id`, `i`): the clinic's rows 1 to `count`. */
export const clinicRows = ({ accountId, userId }: { accountId: string; userId: string }, count: number) =>
  sql`(select ${accountId}::uuid as account_id, ${userId}::uuid as user_id, i from generate_series(1, ${count}) as i) as source`;

type SizeOptions<Size extends string> = Record<Size, { type: 'string'; default: string }>;

/**
 * Sizes given on the command line, `--<size> N` each (`defaults` when absent), read as numbers;
 * `own` are the bench's other options, read as given.
 */
export function parseSizes<Size extends string, Own extends Record<string, ParseArgsOptionDescriptor>>(
  defaults: Record<Size, number>,
  own: Own,
) {
  const names = Object.keys(defaults) as Size[];
  const sizeOptions = Object.fromEntries(
    names.map((name) => [name, { type: 'string', default: String(defaults[name]) }]),
  ) as SizeOptions<Size>;
  const { values } = parseArgs({ options: { ...sizeOptions, ...own } });
  const read = values as Record<string, unknown>;
  const sizes = Object.fromEntries(names.map((name) => [name, Number(read[name])])) as Record<Size, number>;
  return { options: values, sizes };
}

/**
 * The command line of a bench: every bench's `--pglite`, `--runs N` (default `runs`) and `--keep`,
 * its sizes (see parseSizes) and its own options.
 */
export function benchOptions<Size extends string, Own extends Record<string, ParseArgsOptionDescriptor>>(
  runs: number,
  defaults: Record<Size, number>,
  own: Own = {} as Own,
) {
  const { options, sizes } = parseSizes(
    { runs, ...defaults },
    { pglite: { type: 'boolean', default: false }, keep: { type: 'boolean', default: false }, ...own },
  );
  return { options, sizes: sizes as Record<Size, number>, runs: sizes.runs };
}
