/**
 * `npm run bench -- inventory [--pglite] [--items N] [--movements N]`
 *
 * Seeds one clinic with 50,000 items (medicines and supplies) and 2,000,000 stock movements,
 * then prints the server-side p50/p95 of:
 *   - the list search as you type (GET /api/supplies?q=… through the real route, app.inject):
 *     3-letter prefixes and middle-of-word fragments;
 *   - a 5-item stock decrement (the stock service in its own clinic transaction, as an
 *     attendance will call it).
 * Goal on the CI machine with PostgreSQL: search p95 < 20 ms, decrement p95 < 15 ms.
 *
 * PostgreSQL: a throw-away database on BENCH_DATABASE_URL / DATABASE_URL
 * (default postgres://postgres@127.0.0.1:5432/postgres), dropped at the end.
 * --pglite: the embedded database, in memory.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { buildApp } from '../src/app.ts';
import { type Database, openDatabase } from '../src/db/client.ts';
import { loadEnv } from '../src/env.ts';
import { applyStockMovements } from '../src/features/stock/stock.service.ts';
import { newId } from '../src/lib/ids.ts';
import { hashPassword } from '../src/lib/passwords.ts';

const { values: options } = parseArgs({
  options: {
    pglite: { type: 'boolean', default: false },
    items: { type: 'string', default: '50000' },
    movements: { type: 'string', default: '2000000' },
    runs: { type: 'string', default: '300' },
    /** Keep the PostgreSQL database afterwards (its name is printed), to look at query plans. */
    keep: { type: 'boolean', default: false },
  },
});
const itemCount = Number(options.items);
const movementCount = Number(options.movements);
const runs = Number(options.runs);
const movementsPerItem = Math.max(1, Math.round(movementCount / itemCount));

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}
const ms = (value: number) => `${value.toFixed(2)} ms`;
const elapsed = (started: number) => `${((performance.now() - started) / 1000).toFixed(1)} s`;

async function openBenchDatabase(): Promise<{ db: Database; drop: () => Promise<void> }> {
  if (options.pglite) {
    const db = await openDatabase({});
    return { db, drop: async () => db.close() };
  }
  const serverUrl =
    process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `odontia_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const db = await openDatabase({ databaseUrl: url.toString(), poolMax: 10 });
  return {
    db,
    drop: async () => {
      await db.close();
      if (options.keep) {
        console.log(`kept database ${name}`);
        await admin.end();
        return;
      }
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

// Words staff type: the catalogue is built from them, so searches find realistic shares of it.
const medicineWords = [
  'Lidocaína',
  'Articaína',
  'Mepivacaína',
  'Prilocaína',
  'Amoxicilina',
  'Clindamicina',
  'Metronidazol',
  'Ibuprofeno',
  'Ketorolac',
  'Paracetamol',
  'Dexametasona',
  'Clorhexidina',
  'Benzocaína',
  'Diclofenac',
  'Azitromicina',
  'Cefalexina',
];
const supplyWords = [
  'Guantes de nitrilo',
  'Composite',
  'Ionómero vítreo',
  'Fresa diamantada',
  'Lima K',
  'Cono de papel',
  'Eyector de saliva',
  'Babero descartable',
  'Barbijo triple capa',
  'Aguja dental',
  'Hilo retractor',
  'Implante cónico',
  'Gasa estéril',
  'Algodón en rollos',
  'Resina fluida',
  'Adhesivo universal',
];
const variants = [
  'A1',
  'A2',
  'A3',
  'B1',
  '2%',
  '4%',
  '500 mg',
  '400 mg',
  'talle S',
  'talle M',
  'talle L',
  'x100',
  'x50',
];
const manufacturers = ['Bagó', 'Roemmers', 'Elea', 'Densell', '3M', 'Ivoclar', 'Dentsply', 'Medix', 'Voco', 'Coltene'];

const sqlArray = (words: string[]) =>
  sql.raw(`array[${words.map((word) => `'${word.replace(/'/g, "''")}'`).join(',')}]`);

async function seed(db: Database): Promise<{ accountId: string; email: string; password: string }> {
  const accountId = newId();
  const userId = newId();
  const email = `bench.${randomBytes(3).toString('hex')}@odontia.bench`;
  const password = 'bench-password-2026';
  const passwordHash = await hashPassword(password);
  await db.orm.execute(sql`
    insert into accounts (id, clinic_name, contact, system_currency, time_zone, activated_at)
    values (${accountId}, 'Clínica Benchmark', '+54 11 5555-0000', 'argentine_peso', 'America/Argentina/Buenos_Aires', now())`);
  await db.orm.execute(sql`
    insert into users (account_id, id, complete_name, email, password_hash, level, system_language, date_format, system_currency, activated_at)
    values (${accountId}, ${userId}, 'Bench Admin', ${email}, ${passwordHash}, 'administrator', 'es', 'DD/MM/YYYY', 'argentine_peso', now())`);

  let started = performance.now();
  // Items: even numbers medicines, odd supplies; names from the word lists, a variant and a number.
  await db.orm.execute(sql`
    insert into inventory_items (account_id, id, kind, name, manufacturer, sku, bar_code, cost_price, base_price, tax_rate,
      total_stock, min_stock, reorder_stock, max_stock, product_status, active_principle, approval_status,
      prescription_required, application_type, consumable, unit_measurement, created_by, updated_by)
    select ${accountId}::uuid,
      uuid_generate_v7_bench(i),
      case when i % 2 = 0 then 'medication' else 'supply' end,
      case when i % 2 = 0
        then (${sqlArray(medicineWords)})[1 + (i / 2) % ${medicineWords.length}]
        else (${sqlArray(supplyWords)})[1 + (i / 2) % ${supplyWords.length}] end
        || ' ' || (${sqlArray(variants)})[1 + (i / 7) % ${variants.length}] || ' ' || i,
      (${sqlArray(manufacturers)})[1 + i % ${manufacturers.length}],
      'SKU-' || lpad(i::text, 6, '0'),
      '779' || lpad(i::text, 10, '0'),
      (100 + (i % 900))::numeric(14,2), (180 + (i % 1500))::numeric(14,2), case when i % 3 = 0 then 10.5 else 21 end,
      0, 5, 10, 200, 'active',
      case when i % 2 = 0 then lower((${sqlArray(medicineWords)})[1 + (i / 2) % ${medicineWords.length}]) end,
      case when i % 2 = 0 then 'approved' end,
      case when i % 2 = 0 then (i % 4 = 0) end,
      case when i % 2 = 0 then 'oral' end,
      case when i % 2 = 1 then true end,
      case when i % 2 = 1 then 'unit' end,
      ${userId}::uuid, ${userId}::uuid
    from generate_series(1, ${itemCount}) as i`);
  console.log(`  ${itemCount.toLocaleString('en')} items in ${elapsed(started)}`);

  started = performance.now();
  // Movements per item: an initial +500, then purchases of +5 and consumptions of -3 in turn,
  // so stock never goes below zero; stock_after is the running sum.
  await db.orm.execute(sql`
    insert into stock_movements (account_id, id, item_id, kind, quantity, stock_after, reason, user_id, created_at)
    select account_id, uuid_generate_v7_bench(n * ${movementsPerItem} + m), id,
      case when m = 0 then 'initial' when m % 2 = 1 then 'purchase' else 'consumption' end,
      q, sum(q) over (partition by id order by m), null, ${userId}::uuid,
      now() - interval '1 minute' * (${movementsPerItem} - m)
    from (
      select it.account_id, it.id, row_number() over (order by it.id) as n, m,
        case when m = 0 then 500 when m % 2 = 1 then 5 else -3 end as q
      from inventory_items it, generate_series(0, ${movementsPerItem - 1}) as m
      where it.account_id = ${accountId}::uuid
    ) s`);
  await db.orm.execute(sql`
    update inventory_items it set total_stock = s.total
    from (select item_id, sum(quantity) as total from stock_movements group by item_id) s
    where it.account_id = ${accountId}::uuid and it.id = s.item_id`);
  // What autovacuum does on a running server: the stock update above left a dead version of every item.
  await db.orm.execute(sql`vacuum analyze inventory_items`);
  await db.orm.execute(sql`vacuum analyze stock_movements`);
  const [counted] = (
    await db.orm.execute<{ n: string }>(
      sql`select count(*)::text as n from stock_movements where account_id = ${accountId}`,
    )
  ).rows;
  console.log(`  ${Number(counted?.n).toLocaleString('en')} stock movements in ${elapsed(started)}`);
  return { accountId, email, password };
}

async function main() {
  const backend = options.pglite ? 'PGlite (embedded, in memory)' : 'PostgreSQL';
  console.log(
    `inventory bench on ${backend}: ${itemCount.toLocaleString('en')} items, ~${movementCount.toLocaleString('en')} movements`,
  );
  const { db, drop } = await openBenchDatabase();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'odontia-bench-'));
  try {
    // Time-ordered ids for generated rows, like the app's UUID v7 (keeps the primary key compact).
    await db.orm.execute(sql`
      create or replace function uuid_generate_v7_bench(n bigint) returns uuid language sql as $$
        select (lpad(to_hex((extract(epoch from clock_timestamp()) * 1000)::bigint), 12, '0')
          || '7' || lpad(to_hex(n % 4096), 3, '0') || '8' || lpad(to_hex(n), 15, '0'))::uuid $$`);
    const clinic = await seed(db);
    await db.orm.execute(sql`drop function uuid_generate_v7_bench(bigint)`);

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
    const token = signIn.json().data.token as string;
    const headers = { authorization: `Bearer ${token}` };

    async function timeSearch(terms: string[]): Promise<{ times: number[]; matches: number[] }> {
      const times: number[] = [];
      const matches: number[] = [];
      for (let run = 0; run < runs; run += 1) {
        const term = terms[run % terms.length] as string;
        const kind = run % 2 === 0 ? 'supplies' : 'medications';
        const started = performance.now();
        const response = await app.inject({
          method: 'GET',
          url: `/api/${kind}?q=${encodeURIComponent(term)}&pageSize=20`,
          headers,
        });
        times.push(performance.now() - started);
        if (response.statusCode !== 200) throw new Error(`search answered ${response.statusCode}: ${response.body}`);
        matches.push(response.json().total);
      }
      return { times, matches };
    }

    // Warm-up, as a server that has been running is.
    await timeSearch(['gua', 'lid']);
    const baseline: number[] = [];
    for (let run = 0; run < runs; run += 1) {
      const started = performance.now();
      await app.inject({ method: 'GET', url: '/api/auth/system/me', headers });
      baseline.push(performance.now() - started);
    }
    console.log(
      `baseline, an authenticated request that reads one row (GET /api/auth/system/me): ` +
        `p50 ${ms(percentile(baseline, 50))}, p95 ${ms(percentile(baseline, 95))}`,
    );
    const prefixes = ['lid', 'gua', 'com', 'amo', 'ibu', 'fre', 'imp', 'anes', 'clo', 'ket'];
    const fragments = ['ocai', 'trilo', 'xicil', 'dazol', 'amant', 'fenac', 'rofen', 'tract'];
    const prefix = await timeSearch(prefixes);
    const fragment = await timeSearch(fragments);
    const avg = (values: number[]) => Math.round(values.reduce((a, b) => a + b, 0) / values.length);
    console.log(
      `search as you type, 3-letter prefix (${prefixes.join(', ')}; ~${avg(prefix.matches)} matches each): ` +
        `p50 ${ms(percentile(prefix.times, 50))}, p95 ${ms(percentile(prefix.times, 95))} (${runs} requests)`,
    );
    console.log(
      `search as you type, middle-of-word fragment (${fragments.join(', ')}; ~${avg(fragment.matches)} matches each): ` +
        `p50 ${ms(percentile(fragment.times, 50))}, p95 ${ms(percentile(fragment.times, 95))} (${runs} requests)`,
    );

    // 5-item decrement: random distinct items, one clinic transaction each, through the stock service.
    const { rows: itemRows } = await db.orm.execute<{ id: string }>(
      sql`select id from inventory_items where account_id = ${clinic.accountId} order by random() limit 5000`,
    );
    const ids = itemRows.map((row) => row.id);
    const userId = signIn.json().data.user.id as string;
    const decrementTimes: number[] = [];
    for (let run = 0; run < runs + 20; run += 1) {
      const chosen = new Set<string>();
      while (chosen.size < 5) chosen.add(ids[Math.floor(Math.random() * ids.length)] as string);
      const started = performance.now();
      await db.withTenant(clinic.accountId, (tx) =>
        applyStockMovements(
          tx,
          { accountId: clinic.accountId, userId },
          [...chosen].map((itemId) => ({ itemId, kind: 'consumption' as const, quantity: -1, reason: 'bench' })),
        ),
      );
      if (run >= 20) decrementTimes.push(performance.now() - started);
    }
    console.log(
      `5-item stock decrement (lock, check, update, ledger rows, commit): p50 ${ms(percentile(decrementTimes, 50))}, ` +
        `p95 ${ms(percentile(decrementTimes, 95))} (${runs} transactions)`,
    );
    await app.close();
  } finally {
    await drop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
