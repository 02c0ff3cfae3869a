/**
 * `npm run bench -- installation [--clinics N] [--patients N] [--items N] [--other-patients N]
 *   [--other-items N] [--runs N] [--keep]` (PostgreSQL only)
 *
 * Whether a clinic pays for the others' data (issue 21). The bench clinic (100,000 patients,
 * 50,000 items, three heavy patients) is written to two databases of the one server: one where it
 * stays alone, and the installation, where 299 other clinics are then added in SQL (20,000
 * patients and 10,000 items each: 300 clinics, 6,080,000 patients, 3,040,000 items, and an
 * attendance for every other patient). Through the real routes (app.inject), one request at a
 * time, the two copies in alternating rounds (so the machine's drift over the ten minutes of
 * generation cannot pass for a difference), after VACUUM ANALYZE and a checkpoint, with the
 * secondary indexes built fresh in both (as after a restore), it prints p50/p95 of:
 * patient search (3-letter prefix, middle-of-word fragment, two words, ID number), inventory
 * search, and opening the heaviest patient's history; then the ratio of the p95s per operation
 * (goal: within 1.2×) and how long the data generation took.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '../src/db/client.ts';
import {
  type BenchClinic,
  createBenchClinic,
  keepDayFigures,
  ms,
  openBenchDatabase,
  parseSizes,
  percentile,
  type SqlRunner,
  seconds,
  startBenchApp,
  vacuumAnalyze,
} from './bench-kit.ts';
import { insertItems, itemFragments, itemPrefixes } from './inventory-seed.ts';
import {
  insertPatients,
  patientFragments,
  patientIdNumbers,
  patientPrefixes,
  patientTwoWords,
  seedPatients,
} from './patients-seed.ts';

const { options, sizes: given } = parseSizes(
  {
    clinics: 300,
    patients: 100_000,
    attendances: 200_000,
    items: 50_000,
    'other-patients': 20_000,
    'other-items': 10_000,
    runs: 500,
  },
  { keep: { type: 'boolean', default: false } },
);
const {
  clinics: clinicCount,
  patients: patientCount,
  attendances: attendanceCount,
  items: itemCount,
  'other-patients': otherPatients,
  'other-items': otherItems,
  runs,
} = given;
const goal = 1.2;

const tables = ['patients', 'inventory_items', 'attendances'];

/**
 * Runs `fill` without the tables' secondary indexes and triggers (foreign keys are not checked:
 * the rows are right by construction), then builds the indexes again, as `pg_restore` does: one
 * table per connection, two at a time (the machine's two cores).
 */
async function bulkLoad(db: Database, fill: (tx: SqlRunner) => Promise<void>): Promise<void> {
  const indexes = await db.orm.transaction(async (tx) => {
    await tx.execute(sql`set local session_replication_role = replica`);
    const { rows } = await tx.execute<{ table: string; name: string; definition: string }>(sql`
      select t.relname as table, i.relname as name, pg_get_indexdef(x.indexrelid) as definition
      from pg_index x join pg_class i on i.oid = x.indexrelid join pg_class t on t.oid = x.indrelid
      where t.relname in (${sql.join(
        tables.map((table) => sql`${table}`),
        sql`, `,
      )}) and t.relnamespace = 'public'::regnamespace
        and not exists (select 1 from pg_constraint c where c.conindid = x.indexrelid)`);
    for (const { name } of rows) await tx.execute(sql.raw(`drop index ${name}`));
    await fill(tx);
    return rows;
  });
  const queue = [...tables];
  const buildNext = async (): Promise<void> => {
    const table = queue.shift();
    if (!table) return;
    await db.orm.transaction(async (tx) => {
      await tx.execute(sql`set local maintenance_work_mem = '1GB'`);
      for (const index of indexes.filter((row) => row.table === table)) await tx.execute(sql.raw(index.definition));
    });
    await buildNext();
  };
  await Promise.all([buildNext(), buildNext()]);
}

/** What a running server has done by then: statistics, a clean visibility map, a checkpoint behind it. */
async function settle(db: Database): Promise<void> {
  await keepDayFigures(db.orm);
  await vacuumAnalyze(db, tables);
  await db.orm.execute(sql`checkpoint`);
}

interface Operation {
  label: string;
  times: number[];
  matches: number;
}

/** One copy of the bench clinic: its database's app, signed in, and its heaviest patient. */
interface Target {
  get: (url: string) => Promise<{ total?: number }>;
  heavyPatientId: string;
}

/**
 * The bench clinic's operations on each target: `runs` rounds, each one request of every
 * operation on every target in turn (the targets' order alternating), after 30 warm-up rounds, so
 * the machine's drift (another process, a checkpoint, a collection) falls on all of them alike.
 */
async function measure(targets: Target[]): Promise<Operation[][]> {
  const searches: [string, string, string[]][] = [
    ['patient search, 3-letter prefix', 'patients', patientPrefixes],
    ['patient search, middle-of-word fragment', 'patients', patientFragments],
    ['patient search, two words', 'patients', patientTwoWords],
    ['patient search, ID number', 'patients', patientIdNumbers],
    ['inventory search, prefix or fragment', 'supplies', [...itemPrefixes, ...itemFragments]],
  ];
  const operations = [
    ...searches.map(([label, path, terms]) => ({
      label: `${label} (${terms.join(', ')})`,
      run: async ({ get }: Target, round: number) => {
        const list = path === 'supplies' && round % 2 === 1 ? 'medications' : path;
        const term = terms[round % terms.length] as string;
        return (await get(`/api/${list}?q=${encodeURIComponent(term)}&pageSize=20`)).total ?? 0;
      },
    })),
    {
      label: 'opening the heaviest history (patient + first page of three tabs)',
      run: async ({ get, heavyPatientId }: Target) => {
        const base = `/api/patients/${heavyPatientId}`;
        await Promise.all([
          get(base),
          get(`${base}/attendances?page=1&pageSize=20`),
          get(`${base}/diagnoses?page=1&pageSize=20`),
          get(`${base}/laboratories?page=1&pageSize=20`),
        ]);
        return 0;
      },
    },
  ];
  const results: Operation[][] = targets.map(() => operations.map(({ label }) => ({ label, times: [], matches: 0 })));
  for (let round = -30; round < runs; round += 1) {
    for (const [index, operation] of operations.entries()) {
      const order = round % 2 === 0 ? targets.map((_, t) => t) : targets.map((_, t) => targets.length - 1 - t);
      for (const t of order) {
        const started = performance.now();
        const matches = await operation.run(targets[t] as Target, round + 30);
        if (round < 0) continue;
        const result = results[t]?.[index] as Operation;
        result.times.push(performance.now() - started);
        result.matches += matches / runs;
      }
    }
  }
  return results.map((operationsOfTarget) =>
    operationsOfTarget.map((result) => ({ ...result, matches: Math.round(result.matches) })),
  );
}

/** The disk the installation takes: the database, and each table with its indexes (the search index apart). */
async function diskSizes(db: Database): Promise<string> {
  const { rows } = await db.orm.execute<{ name: string; size: string }>(sql`
    select 'database' as name, pg_size_pretty(pg_database_size(current_database())) as size
    union all
    select t, pg_size_pretty(pg_total_relation_size(t::regclass)) || ' (search index ' ||
      pg_size_pretty(pg_relation_size((t || '_search_idx')::regclass)) || ')'
    from unnest(array['patients', 'inventory_items']) as t
    union all
    select 'attendances', pg_size_pretty(pg_total_relation_size('attendances'))`);
  return rows.map((row) => `${row.name} ${row.size}`).join(', ');
}

async function sizes(db: Database): Promise<string> {
  const { rows } = await db.orm.execute<{ clinics: string; patients: string; items: string; attendances: string }>(sql`
    select (select count(*) from accounts)::text as clinics, (select count(*) from patients)::text as patients,
      (select count(*) from inventory_items)::text as items, (select count(*) from attendances)::text as attendances`);
  const row = rows[0];
  const n = (value: string | undefined) => Number(value).toLocaleString('en');
  return `${n(row?.clinics)} clinics, ${n(row?.patients)} patients, ${n(row?.items)} items, ${n(row?.attendances)} attendances`;
}

/** The bench clinic in `db`, with fresh indexes, and its app signed in. */
async function benchClinicIn(
  db: Database,
): Promise<{ clinic: BenchClinic; target: Target; close: () => Promise<void> }> {
  const clinic = await createBenchClinic(db);
  await seedPatients(db, clinic, {
    patients: patientCount,
    attendances: attendanceCount,
    heavy: 1500,
    heavyPatients: 3,
  });
  await insertItems(
    db.orm,
    sql`(select ${clinic.accountId}::uuid as account_id, ${clinic.userId}::uuid as user_id, i
         from generate_series(1, ${itemCount}) as i) as source`,
  );
  // Fresh indexes, as the installation's will be after its bulk load: the copies compare like with like.
  for (const table of tables) await db.orm.execute(sql.raw(`reindex table ${table}`));
  const [heaviest] = (
    await db.orm.execute<{ id: string }>(sql`
      select patient_id as id from attendances where account_id = ${clinic.accountId}
      group by patient_id order by count(*) desc limit 1`)
  ).rows;
  if (!heaviest) throw new Error('no attendances were seeded');
  const { app, headers, close } = await startBenchApp(db, clinic);
  const get = async (url: string) => {
    const response = await app.inject({ method: 'GET', url, headers });
    if (response.statusCode !== 200) throw new Error(`GET ${url} answered ${response.statusCode}: ${response.body}`);
    return response.json() as { total?: number };
  };
  return { clinic, target: { get, heavyPatientId: heaviest.id }, close };
}

async function main() {
  console.log(
    `installation bench on PostgreSQL: the bench clinic (${patientCount.toLocaleString('en')} patients, ` +
      `${itemCount.toLocaleString('en')} items) alone, and the same clinic among ${clinicCount} clinics`,
  );
  // Two databases on the one server: the clinic alone, and the installation where the same clinic
  // is written first and the others are added after it. Both are measured in alternating rounds.
  const aloneDb = await openBenchDatabase({ pglite: false, keep: false });
  const installationDb = await openBenchDatabase({ pglite: false, keep: options.keep });
  const closing: (() => Promise<void>)[] = [];
  try {
    let started = performance.now();
    const alone = await benchClinicIn(aloneDb.db);
    closing.push(alone.close);
    const among = await benchClinicIn(installationDb.db);
    closing.push(among.close);
    const db = installationDb.db;
    console.log(`the bench clinic's data, twice: ${seconds(started)}`);

    started = performance.now();
    const others = clinicCount - 1;
    await bulkLoad(db, async (tx) => {
      await tx.execute(sql`
        create temporary table bench_others on commit drop as
        select gen_random_uuid() as account_id, gen_random_uuid() as user_id, n from generate_series(1, ${others}) as n`);
      await tx.execute(sql`
        insert into accounts (id, clinic_name, public_slug, contact, system_currency, time_zone, activated_at)
        select account_id, 'Clínica ' || n, 'clinica-bench-' || n, '+54 11 5555-' || lpad(n::text, 4, '0'),
          'argentine_peso', 'America/Argentina/Buenos_Aires', now()
        from bench_others`);
      await tx.execute(sql`
        insert into logins (id, email, password_hash, last_account_id)
        select user_id, 'admin' || n || '@clinica.bench', 'x', account_id from bench_others`);
      await tx.execute(sql`
        insert into users (account_id, id, login_id, complete_name, email, level, system_language, date_format,
          system_currency, activated_at)
        select account_id, user_id, user_id, 'Administración ' || n, 'admin' || n || '@clinica.bench', 'administrator', 'es',
          'DD/MM/YYYY', 'argentine_peso', now()
        from bench_others`);
      const everyOther = (count: number): SQL =>
        sql`(select account_id, user_id, i from bench_others, generate_series(1, ${count}) as i) as source`;
      await insertPatients(tx, everyOther(otherPatients));
      await insertItems(tx, everyOther(otherItems));
      // An attendance for every other patient of the other clinics.
      await tx.execute(sql`
        insert into attendances (account_id, id, patient_id, date, attendance_type, attendance_group, professional_id,
          title_resume, finished, billable, attendance_fee, total_billable, created_by, updated_by)
        select p.account_id, gen_random_uuid(), p.id, now() - interval '1 day' * (abs(hashtext(p.id::text)) % 2000),
          'checkup_control', 'medical_attendance', p.created_by, 'Control', true, false, 0, 0, p.created_by, p.created_by
        from patients p
        where p.account_id <> ${among.clinic.accountId}::uuid and right(p.sku_patient, 1) in ('0', '2', '4', '6', '8')`);
    });
    const generated = seconds(started);
    started = performance.now();
    await settle(aloneDb.db);
    await settle(db);
    console.log(
      `other clinics' data generated in ${generated} (the rows, then their indexes built fresh); ` +
        `vacuum analyze and checkpoint in ${seconds(started)}`,
    );
    console.log(`\nalone: ${await sizes(aloneDb.db)}; on disk: ${await diskSizes(aloneDb.db)}`);
    console.log(`among: ${await sizes(db)}; on disk: ${await diskSizes(db)}`);

    const [aloneTimes, amongTimes] = (await measure([alone.target, among.target])) as [Operation[], Operation[]];
    for (const close of closing.splice(0)) await close();
    console.log('\n| operation | alone p50 / p95 | among the others p50 / p95 | ratio of p95 |');
    console.log('|---|---|---|---|');
    let worst = 0;
    aloneTimes.forEach((before, index) => {
      const after = amongTimes[index] as Operation;
      const ratio = percentile(after.times, 95) / percentile(before.times, 95);
      worst = Math.max(worst, ratio);
      const matches = before.matches ? ` ~${before.matches} matches` : '';
      console.log(
        `| ${before.label}${matches} | ${ms(percentile(before.times, 50))} / ${ms(percentile(before.times, 95))} | ` +
          `${ms(percentile(after.times, 50))} / ${ms(percentile(after.times, 95))} | ${ratio.toFixed(2)}× |`,
      );
    });
    console.log(
      `\nworst ratio ${worst.toFixed(2)}× (goal: within ${goal}×); ${runs} requests per operation and copy, alternating`,
    );
    // Small runs (the CI smoke) only print: their p95s are a few requests and mostly noise.
    if (worst > goal && clinicCount >= 300) process.exitCode = 1;
  } finally {
    for (const close of closing) await close();
    await aloneDb.drop();
    await installationDb.drop();
  }
}

await main();
