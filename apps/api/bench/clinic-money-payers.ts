/**
 * `node --import tsx apps/api/bench/clinic-money-payers.ts [--lines N] [--small N] [--runs N] [--pglite] [--keep]`
 *
 * Issue 40, third-party payers: "a payer's presentation of 50,000 lines — p95 on PostgreSQL, goal
 * ≤ 5 s as a background job with progress", side by side with a presentation of 500 lines in the
 * same run. A fresh database is migrated and seeded in SQL: a clinic, a payer (with its customer),
 * a plan, 50 affiliated patients, one attendance and one payer invoice they name, and for each run
 * its own month of `--lines` invoiced payer-part lines (and `--small` in another month), so every
 * run presents a month nobody presented. Timed per run, on the real app: POST
 * /api/payer-presentations (the presentation queued), then the job runs (`app.jobs.runDue()`, as
 * each instance's worker does: a chunk of 25,000 lines per run, its progress committed) until the
 * presentation is a draft; checked: its line count and total are the month's.
 */
import { sql } from 'drizzle-orm';
import { newId } from '../src/lib/ids.ts';
import {
  benchCaller,
  benchOptions,
  createBenchClinic,
  measureConditions,
  report,
  runBench,
  seconds,
  vacuumAnalyze,
  withBenchApp,
  withBenchDatabase,
} from './bench-kit.ts';

const { options, sizes, runs } = benchOptions(5, { lines: 50_000, small: 500 });

runBench(() =>
  withBenchDatabase(
    { pglite: Boolean(options.pglite), keep: Boolean(options.keep) },
    (backend) =>
      `clinic-money payers on ${backend}: a presentation of ${sizes.lines.toLocaleString('en')} lines and of ${sizes.small} lines, ${runs} runs each`,
    async (db) => {
      const clinic = await createBenchClinic(db);
      const { accountId, userId } = clinic;
      const started = performance.now();
      const customerId = newId();
      const payerId = newId();
      const planId = newId();
      const documentId = newId();
      const attendanceId = newId();
      await db.orm.execute(sql`
        insert into customers (account_id, id, kind, name, language, payment_term_days, created_by, updated_by)
        values (${accountId}, ${customerId}, 'insurer', 'Obra Social Bench', 'es', 30, ${userId}, ${userId})`);
      await db.orm.execute(sql`
        insert into payers (account_id, id, kind, name, customer_id, created_by, updated_by)
        values (${accountId}, ${payerId}, 'obra_social', 'Obra Social Bench', ${customerId}, ${userId}, ${userId})`);
      await db.orm.execute(sql`
        insert into payer_plans (account_id, id, payer_id, name, created_by, updated_by)
        values (${accountId}, ${planId}, ${payerId}, 'Plan Bench', ${userId}, ${userId})`);
      await db.orm.execute(sql`
        insert into patients (account_id, id, first_name, last_name, sex, birthdate, sku_patient, created_by, updated_by)
        select ${accountId}::uuid, uuid_generate_v7_bench(i), 'Paciente', 'Bench ' || i, 'female', '1980-01-01',
               'B-' || i, ${userId}::uuid, ${userId}::uuid
        from generate_series(1, 50) as i`);
      await db.orm.execute(sql`
        insert into patient_affiliations (account_id, id, patient_id, payer_id, plan_id, member_number, valid_from, created_by, updated_by)
        select account_id, uuid_generate_v7_bench(row_number() over ()), id, ${payerId}::uuid, ${planId}::uuid,
               '310-' || sku_patient, '2020-01-01', ${userId}::uuid, ${userId}::uuid
        from patients where account_id = ${accountId}::uuid`);
      const firstPatient = await db.orm.execute<{ id: string }>(
        sql`select id from patients where account_id = ${accountId}::uuid order by id limit 1`,
      );
      await db.orm.execute(sql`
        insert into attendances (account_id, id, patient_id, date, attendance_type, attendance_group, professional_id, title_resume, created_by, updated_by)
        values (${accountId}, ${attendanceId}, ${firstPatient.rows[0]?.id}, now(), 'dentistry', 'medical_attendance', ${userId}, 'Bench', ${userId}, ${userId})`);
      await db.orm.execute(sql`
        insert into commercial_documents (account_id, id, side, status, document_type, customer_id, date, currency, created_by, updated_by)
        values (${accountId}, ${documentId}, 'sale', 'draft', 'invoice', ${customerId}, '2020-01-01', 'argentine_peso', ${userId}, ${userId})`);
      // One month per run (and per warm-up run) of `lines` lines, another of `small` lines.
      const months = (count: number) => Array.from({ length: count }, (_, index) => index);
      const monthOf = (index: number, small: boolean) =>
        `${2000 + Math.floor(index / 12) + (small ? 10 : 0)}-${String((index % 12) + 1).padStart(2, '0')}-01`;
      const warmups = Math.min(10, runs);
      for (const small of [false, true]) {
        for (const index of months(runs + warmups)) {
          const count = small ? sizes.small : sizes.lines;
          await db.orm.execute(sql`
            insert into payer_split_lines (account_id, id, patient_id, payer_id, plan_id, affiliation_id, source_kind,
              source_id, attendance_id, date, treatment_code, description, member_number, quantity, covered_quantity,
              line_total, payer_amount, patient_amount, rounding, payer_document_id, created_by)
            select a.account_id, uuid_generate_v7_bench(i), a.patient_id, a.payer_id, a.plan_id, a.id, 'attendance_line',
              gen_random_uuid(), ${attendanceId}::uuid, ${monthOf(index, small)}::date + (i % 28), 'C' || (i % 40),
              'Consulta', a.member_number, 1, 1, 1000.00, 700.00, 300.00, 'exact', ${documentId}::uuid, ${userId}::uuid
            from generate_series(1, ${count}) as i
            join lateral (select * from patient_affiliations where account_id = ${accountId}::uuid
                          order by id offset (i % 50) limit 1) a on true`);
        }
      }
      await vacuumAnalyze(db, ['payer_split_lines', 'payer_presentations']);
      console.log(`seeded in ${seconds(started)}`);
      const conditions = await measureConditions(db, ['payer_split_lines', 'payer_presentations', 'jobs']);
      await withBenchApp(db, clinic, async (app, headers) => {
        const call = benchCaller(app, headers, { idempotencyKeys: true });
        const present = async (period: string, expected: number) => {
          const created = await call('POST', '/api/payer-presentations', { payerId, period }, 201);
          const id = created.data.id as string;
          let presentation = created.data;
          for (let round = 0; round < 1000 && presentation.status === 'building'; round++) {
            await app.jobs.runDue();
            presentation = (await call('GET', `/api/payer-presentations/${id}`)).data;
          }
          if (presentation.lineCount !== expected || presentation.total !== (expected * 700).toFixed(2)) {
            throw new Error(`presentation of ${period}: ${presentation.lineCount} lines, ${presentation.total}`);
          }
        };
        for (const small of [false, true]) {
          const count = small ? sizes.small : sizes.lines;
          for (let run = 0; run < warmups; run++) await present(monthOf(runs + run, small), count);
          const times: number[] = [];
          for (let run = 0; run < runs; run++) {
            const begun = performance.now();
            await present(monthOf(run, small), count);
            times.push(performance.now() - begun);
          }
          report(
            `presentation of ${count.toLocaleString('en')} lines (queued, built by the job, a draft)`,
            times,
            'presentations',
            small ? undefined : 5000,
          );
        }
      });
      await conditions.print();
    },
  ),
);
