/**
 * `node --import tsx apps/api/bench/clinic-money-cash.ts [--pglite] [--movements N] [--small N] [--history N]
 *   [--runs N] [--keep]` (issue 40, `npm run bench -- clinic-money`: the cash part)
 *
 * Closing a register's session: the real route (POST /api/cash-sessions/:id/close through
 * app.inject: authentication, the transaction, validation, the idempotency row, the aggregate of
 * the session's movements per method, the gapless Z number, the counts, the trigger-guarded
 * update and the audit) on sessions of 10,000 movements (cash, cards, transfers, in and out),
 * printed beside the same closing of a 100-movement session measured in the same run. Every timed
 * closing is of its own session (a closing is final), seeded straight in SQL; the clinic also has
 * `--history` movements of closed sessions around them (a year of other closings), so the aggregate reads
 * one session's movements among many. Goal on PostgreSQL: p95 ≤ 200 ms for 10,000 movements.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../src/db/client.ts';
import {
  type BenchClinic,
  benchCaller,
  benchOptions,
  benchTimer,
  createBenchClinic,
  measureConditions,
  report,
  runBench,
  seconds,
  vacuumAnalyze,
  withBenchApp,
  withBenchDatabase,
} from './bench-kit.ts';

const { options, sizes, runs } = benchOptions(30, { movements: 10_000, small: 100, history: 2_000_000 });
const count = (value: number) => value.toLocaleString('en');
const methods = ['cash_payment', 'debit_card', 'credit_card', 'bank_transfer'];

/**
 * `sessions` registers, each with one open session of `movements` movements: the opening float,
 * then collections (in) and payments, expenses and withdrawals (out) across four methods.
 */
async function seedOpenSessions(db: Database, clinic: BenchClinic, label: string, sessions: number, movements: number) {
  const { rows } = await db.orm.execute<{ session_id: string }>(sql`
    with registers as (
      insert into cash_registers (account_id, id, name, kind, created_by, updated_by)
      select ${clinic.accountId}::uuid, odontia_bench_id(i), ${label} || ' ' || i, 'front_desk', ${clinic.userId}::uuid, ${clinic.userId}::uuid
      from generate_series(1, ${sessions}) i
      returning id
    )
    insert into cash_sessions (account_id, id, register_id, opened_by, opening_float, carried_balance, opening_difference)
    select ${clinic.accountId}::uuid, odontia_bench_id(row_number() over ()), r.id, ${clinic.userId}::uuid, 50000, 50000, 0
    from registers r
    returning id as session_id`);
  const ids = rows.map((row) => row.session_id);
  await db.orm.execute(sql`
    insert into cash_movements (account_id, id, session_id, register_id, kind, method, amount, description, created_by, created_at)
    select s.account_id, odontia_bench_id(m), s.id, s.register_id,
      case when m = 1 then 'opening' when m % 10 = 0 then 'payment' when m % 17 = 0 then 'expense' else 'collection' end,
      case when m = 1 then 'cash_payment' else (${sql.raw(`array['${methods.join("','")}']`)})[1 + m % 4] end,
      case when m = 1 then 50000
        when m % 10 = 0 or m % 17 = 0 then -(100 + (m * 37) % 9000) / 100.0
        else (500 + (m * 7919) % 250000) / 100.0 end,
      'RC-' || lpad(m::text, 6, '0'), ${clinic.userId}::uuid, now() - interval '8 hours' + m * interval '1 ms'
    from cash_sessions s, generate_series(1, ${movements}) m
    where s.account_id = ${clinic.accountId}::uuid and s.id = any(${`{${ids.join(',')}}`}::uuid[])`);
  return ids;
}

/** A year of closed history: closed sessions of other registers (their movements inserted while open). */
async function seedHistory(db: Database, clinic: BenchClinic, movements: number) {
  const perSession = 500;
  const sessions = Math.max(1, Math.floor(movements / perSession));
  const ids = await seedOpenSessions(db, clinic, 'Histórica', sessions, perSession);
  await db.orm.execute(sql`
    update cash_sessions s set status = 'closed', number = 'H-' || lpad(n.i::text, 7, '0'), closed_at = now() - n.i * interval '1 hour',
      closed_by = ${clinic.userId}::uuid, closed_on = (now() - n.i * interval '1 hour')::date,
      expected_total = 0, counted_total = 0, difference_total = 0, cash_left = 0
    from (select id, row_number() over (order by id) as i from cash_sessions
          where account_id = ${clinic.accountId}::uuid and id = any(${`{${ids.join(',')}}`}::uuid[])) n
    where s.account_id = ${clinic.accountId}::uuid and s.id = n.id`);
}

async function main() {
  await withBenchDatabase(
    options,
    (backend) =>
      `cash registers bench on ${backend}: closing a session of ${count(sizes.movements)} movements beside one of ${count(sizes.small)}, ${runs} closings each, among ${count(sizes.history)} movements of closed sessions`,
    async (db) => {
      const clinic = await createBenchClinic(db);
      // Time-ordered ids for the generated rows (the app's are UUID v7): a sequence-based helper.
      await db.orm.execute(sql`create sequence if not exists odontia_bench_seq`);
      await db.orm.execute(sql`
        create or replace function odontia_bench_id(n bigint) returns uuid language sql volatile as $$
          select (lpad(to_hex((extract(epoch from clock_timestamp()) * 1000)::bigint), 12, '0')
            || '7' || lpad(to_hex(nextval('odontia_bench_seq') % 4096), 3, '0')
            || '8' || lpad(to_hex(nextval('odontia_bench_seq')), 15, '0'))::uuid
        $$`);
      const started = performance.now();
      await seedHistory(db, clinic, sizes.history);
      const warm = Math.min(10, runs);
      const big = await seedOpenSessions(db, clinic, 'Grande', runs + warm, sizes.movements);
      const small = await seedOpenSessions(db, clinic, 'Chica', runs + warm, sizes.small);
      await vacuumAnalyze(db, ['cash_movements', 'cash_sessions', 'cash_registers', 'cash_session_counts']);
      console.log(`  seeded in ${seconds(started)}`);

      await withBenchApp(db, clinic, async (app, headers) => {
        const call = benchCaller(app, headers, { idempotencyKeys: true });
        const time = benchTimer(runs);
        const conditions = await measureConditions(db, ['cash_movements', 'cash_sessions']);
        /** The counted amounts of a session (what its movements add up to, one cent short in cash), read before the timing. */
        const countsOf = async (sessionId: string) => {
          const { rows } = await db.orm.execute<{ method: string; amount: string }>(sql`
            select method, (sum(amount) - case when method = 'cash_payment' then 0.01 else 0 end)::numeric(20, 2)::text as amount
            from cash_movements where session_id = ${sessionId}::uuid group by method`);
          return rows;
        };
        const closing = async (ids: string[], label: string, goal?: number) => {
          // One after another: the bench database's pool is small, and 40 sums at once waited for a connection.
          const bodies: { id: string; counted: Awaited<ReturnType<typeof countsOf>> }[] = [];
          for (const id of ids) bodies.push({ id, counted: await countsOf(id) });
          let movementsSeen = 0;
          const times = await time(async (run) => {
            const body = bodies[run];
            if (!body) throw new Error(`no session for run ${run}`);
            const answer = (await call(
              'POST',
              `/api/cash-sessions/${body.id}/close`,
              { version: 1, counted: body.counted, explanation: 'Un centavo de menos en el cambio' },
              200,
            )) as { data: { movementCount: number; differenceTotal: string } };
            if (answer.data.differenceTotal !== '-0.01')
              throw new Error(`unexpected difference ${answer.data.differenceTotal}`);
            movementsSeen = answer.data.movementCount;
          });
          report(`closing a session of ${count(movementsSeen)} movements (${label})`, times, 'closings', goal);
        };
        await closing(big, 'the goal', 200);
        await closing(small, 'the same closing, small');
        await conditions.print();
      });
    },
  );
}

runBench(main);
