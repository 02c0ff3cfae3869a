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
import { sql } from 'drizzle-orm';
import type { Database } from '../src/db/client.ts';
import { applyStockMovements } from '../src/features/stock/stock.service.ts';
import {
  type BenchClinic,
  benchBackend,
  benchOptions,
  clinicRows,
  createBenchClinic,
  openBenchDatabase,
  report,
  seconds,
  startBenchApp,
  vacuumAnalyze,
} from './bench-kit.ts';
import { insertItems, itemFragments, itemPrefixes } from './inventory-seed.ts';

const { options, sizes, runs } = benchOptions(300, { items: 50_000, movements: 2_000_000 });
const movementsPerItem = Math.max(1, Math.round(sizes.movements / sizes.items));

/** The catalogue and its ledger, written in bulk with SQL (superuser connection). */
async function seed(db: Database, clinic: BenchClinic): Promise<void> {
  const { accountId, userId } = clinic;
  let started = performance.now();
  await insertItems(db.orm, clinicRows(clinic, sizes.items));
  console.log(`  ${sizes.items.toLocaleString('en')} items in ${seconds(started)}`);

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
  await vacuumAnalyze(db, ['inventory_items', 'stock_movements']);
  const [counted] = (
    await db.orm.execute<{ n: string }>(
      sql`select count(*)::text as n from stock_movements where account_id = ${accountId}`,
    )
  ).rows;
  console.log(`  ${Number(counted?.n).toLocaleString('en')} stock movements in ${seconds(started)}`);
}

async function main() {
  const backend = benchBackend(options);
  console.log(
    `inventory bench on ${backend}: ${sizes.items.toLocaleString('en')} items, ~${sizes.movements.toLocaleString('en')} movements`,
  );
  const { db, drop } = await openBenchDatabase(options);
  try {
    const clinic = await createBenchClinic(db);
    await seed(db, clinic);
    const { app, headers, close } = await startBenchApp(db, clinic);

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
    report('baseline, an authenticated request that reads one row (GET /api/auth/system/me)', baseline);
    const prefixes = itemPrefixes;
    const fragments = itemFragments;
    const prefix = await timeSearch(prefixes);
    const fragment = await timeSearch(fragments);
    const avg = (values: number[]) => Math.round(values.reduce((a, b) => a + b, 0) / values.length);
    report(
      `search as you type, 3-letter prefix (${prefixes.join(', ')}; ~${avg(prefix.matches)} matches each)`,
      prefix.times,
    );
    report(
      `search as you type, middle-of-word fragment (${fragments.join(', ')}; ~${avg(fragment.matches)} matches each)`,
      fragment.times,
    );

    // 5-item decrement: random distinct items, one clinic transaction each, through the stock service.
    const { rows: itemRows } = await db.orm.execute<{ id: string }>(
      sql`select id from inventory_items where account_id = ${clinic.accountId} order by random() limit 5000`,
    );
    const ids = itemRows.map((row) => row.id);
    const userId = clinic.userId;
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
    report('5-item stock decrement (lock, check, update, ledger rows, commit)', decrementTimes, 'transactions');
    await close();
  } finally {
    await drop();
  }
}

await main();
