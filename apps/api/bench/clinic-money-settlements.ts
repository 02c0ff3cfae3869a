/**
 * `node --import tsx apps/api/bench/clinic-money-settlements.ts [--pglite] [--lines N] [--small N] [--runs N] [--keep]`
 * (issue 40, the settlements part of `npm run bench -- clinic-money`).
 *
 * Seeds one clinic (Buenos Aires, pesos) with two professionals: one with a month of 100,000
 * issued invoice lines (50,000 invoices of two lines, 40 treatments in 6 groups, a lab cost on
 * a third of them), the other with a month of 1,000; each with a default percentage rule, a group
 * rule and fixed per-treatment rules with the lab cost deducted. Then it times confirming the
 * month (the one statement that computes and stores every line, the numbered settlement, its
 * payable in the professional's provider account and the audit) through the service, each run in
 * a transaction rolled back afterwards so every run settles the same month. Printed side by side:
 * the p50/p95 of 100,000 lines and of 1,000 lines. Goal on PostgreSQL: p95 ≤ 2 s for 100,000.
 */
import { parseArgs } from 'node:util';
import { confirmSettlementSchema } from '@odontia/shared/schemas/settlements';
import { sql } from 'drizzle-orm';
import type { RequestContext } from '../src/context.ts';
import { settlementsService } from '../src/features/settlements/settlements.service.ts';
import { newId } from '../src/lib/ids.ts';
import { createBenchClinic, measureConditions, openBenchDatabase, report, runBench, seconds } from './bench-kit.ts';

const { values } = parseArgs({
  options: {
    pglite: { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
    runs: { type: 'string', default: '7' },
    /** The big professional's month (the goal's size) and the small one's, in invoice lines (two per invoice). */
    lines: { type: 'string', default: '100000' },
    small: { type: 'string', default: '1000' },
  },
});
const runs = Number(values.runs);
const bigInvoices = Math.max(1, Math.round(Number(values.lines) / 2));
const smallInvoices = Math.max(1, Math.round(Number(values.small) / 2));
const from = '2026-10-01';
const to = '2026-10-31';

class Rollback extends Error {}

runBench(async () => {
  const { db, drop } = await openBenchDatabase({ pglite: values.pglite, keep: values.keep });
  try {
    const clinic = await createBenchClinic(db);
    const { accountId, userId } = clinic;
    const big = newId();
    const small = newId();
    let started = performance.now();
    await db.orm.execute(sql`
      insert into logins (id, email, password_hash, last_account_id)
      values (${big}, ${`cien.mil.${big}@odontia.bench`}, 'x', ${accountId}), (${small}, ${`mil.${small}@odontia.bench`}, 'x', ${accountId})`);
    await db.orm.execute(sql`
      insert into users (account_id, id, login_id, complete_name, email, level, system_language, date_format, system_currency, activated_at)
      values (${accountId}, ${big}, ${big}, 'Dra. Cien Mil', 'cien.mil@odontia.bench', 'user', 'es', 'DD/MM/YYYY', 'argentine_peso', now()),
             (${accountId}, ${small}, ${small}, 'Dr. Mil', 'mil@odontia.bench', 'user', 'es', 'DD/MM/YYYY', 'argentine_peso', now())`);
    const customerId = newId();
    await db.orm.execute(sql`
      insert into customers (account_id, id, kind, name, language, created_by, updated_by)
      values (${accountId}, ${customerId}, 'company', 'Obra Social Benchmark', 'es', ${userId}, ${userId})`);
    await db.orm.execute(sql`
      insert into treatments (account_id, id, code, name, group_name, price, vat_rate, lab_cost, duration_minutes, created_by, updated_by)
      select ${accountId}::uuid, uuid_generate_v7_bench(400000000 + t), 'T' || lpad(t::text, 3, '0'), 'Tratamiento ' || t,
        'Grupo ' || (t % 6), 10000 + t * 1500, 0, case when t % 3 = 0 then 2000 + t * 100 else 0 end, 30, ${userId}::uuid, ${userId}::uuid
      from generate_series(1, 40) as t`);
    for (const professional of [big, small]) {
      await db.orm.execute(sql`
        insert into settlement_rules (account_id, id, professional_id, scope, treatment_id, group_name, method, value, basis,
          deduct_lab_cost, valid_from, created_by, updated_by)
        select ${accountId}::uuid, uuid_generate_v7_bench(300000000 + r), ${professional}::uuid, scope, treatment_id, group_name,
          method, value, 'invoiced', deduct, '2026-01-01', ${userId}::uuid, ${userId}::uuid
        from (
          select 1 as r, 'default' as scope, null::uuid as treatment_id, null as group_name, 'percentage' as method, 35 as value, false as deduct
          union all select 2, 'group', null, 'Grupo 1', 'percentage', 45, true
          union all select 2 + t, 'treatment', (select id from treatments where account_id = ${accountId}::uuid and code = 'T' || lpad(t::text, 3, '0')),
            null, 'fixed', 5000 + t * 100, true
          from generate_series(3, 39, 3) as t
        ) as rules`);
    }
    // A month of invoices of two lines: the first `bigInvoices` for the big professional, then the small one's.
    await db.orm.transaction(async (tx) => {
      await tx.execute(sql`set local session_replication_role = replica`);
      await tx.execute(sql`
        insert into commercial_documents (account_id, id, side, status, document_type, customer_id, point_of_service,
          document_number, sequence_number, date, currency, subtotal1, subtotal2, total, open_amount, created_by, updated_by)
        select ${accountId}::uuid, uuid_generate_v7_bench(1000000000 + n), 'sale', 'issued', 'invoice', ${customerId}::uuid, '0001',
          lpad(n::text, 8, '0'), n, (${from}::date + (n % 31)), 'argentine_peso', 40000, 40000, 40000, 40000, ${userId}::uuid, ${userId}::uuid
        from generate_series(1, ${bigInvoices + smallInvoices}::int) as n`);
      await tx.execute(sql`
        insert into document_lines (account_id, id, document_id, position, treatment_id, professional_id, description,
          quantity, unit_price, vat_rate, subtotal1, discount, subtotal, vat, total)
        select d.account_id, uuid_generate_v7_bench(2000000000 + d.sequence_number * 2 + p), d.id, p,
          t.id, case when d.sequence_number <= ${bigInvoices}::int then ${big}::uuid else ${small}::uuid end, t.name,
          1, 20000, 0, 20000, 0, 20000, 0, 20000
        from commercial_documents d
        cross join generate_series(1, 2) as p
        join treatments t on t.account_id = d.account_id and t.code = 'T' || lpad((1 + (d.sequence_number * 2 + p) % 40)::text, 3, '0')
        where d.account_id = ${accountId}::uuid`);
    });
    await db.orm.execute(sql`analyze`);
    console.log(
      `seeded ${(2 * (bigInvoices + smallInvoices)).toLocaleString('en')} invoice lines of October for two professionals in ${seconds(started)}`,
    );

    const settle = async (professionalId: string) => {
      const begun = performance.now();
      let lines = 0;
      await db
        .withTenant(accountId, async (tx) => {
          const ctx: RequestContext = {
            tx,
            accountId,
            userId,
            level: 'administrator',
            timeZone: 'America/Argentina/Buenos_Aires',
            ip: '127.0.0.1',
          };
          const { data } = await settlementsService.confirm({
            ctx,
            input: confirmSettlementSchema.parse({ professionalId, from, to }),
          });
          lines = data.lineCount;
          throw new Rollback();
        })
        .catch((error) => {
          if (!(error instanceof Rollback)) throw error;
        });
      return { ms: performance.now() - begun, lines };
    };
    started = performance.now();
    const bigTimes: number[] = [];
    const smallTimes: number[] = [];
    let bigLines = 0;
    let smallLines = 0;
    const conditions = await measureConditions(db, ['settlement_lines', 'document_lines', 'commercial_documents']);
    // One warm-up each, then the runs interleaved.
    await settle(big);
    await settle(small);
    for (let run = 0; run < runs; run += 1) {
      const b = await settle(big);
      bigTimes.push(b.ms);
      bigLines = b.lines;
      const s = await settle(small);
      smallTimes.push(s.ms);
      smallLines = s.lines;
    }
    console.log(
      `settled in ${seconds(started)} (${bigLines.toLocaleString('en')} and ${smallLines.toLocaleString('en')} lines)`,
    );
    report(`confirm a month of ${smallLines.toLocaleString('en')} invoice lines`, smallTimes, 'runs');
    report(
      `confirm a month of ${bigLines.toLocaleString('en')} invoice lines`,
      bigTimes,
      'runs',
      values.pglite ? undefined : 2000,
    );
    await conditions.print();
  } finally {
    await drop();
  }
});
