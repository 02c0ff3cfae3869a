/**
 * `npm run bench -- sales [--pglite] [--patients N] [--documents N] [--collections N] [--runs N] [--keep]
 *   [--reuse NAME]`
 *
 * Seeds one clinic (Buenos Aires, pesos) with 20,000 patients who are customers, 40 price-list
 * treatments, 1,000,000 issued sales over three years on point of sale 0001 (85 % invoices of two
 * lines, 10 % budgets, 5 % credit notes; numbered per type without gaps and chained) and 800,000
 * collections, each settling one of the customer's older invoices; the ledger, the allocations,
 * the open amounts and the balances are written as the services write them (generated in SQL; the
 * invariant is checked before timing). Then it prints the server-side p50/p95 (the real routes
 * through app.inject: authentication, the transaction, validation, the answer) of:
 *   - issuing a 10-line invoice on current account (POST /api/sales with issue: true: totals,
 *     the number and the chain link under the point of sale's lock, snapshots, the ledger, the
 *     e-invoicing submission, the audit);
 *   - the sales list filtered by one customer (GET /api/sales?customerId=…);
 *   - one customer's statement for a year (opening balance carried in, running balance);
 *   - the customers' current accounts list (balance, overdue and aging of a page, with totals).
 * Goal on PostgreSQL: p95 under 30, 30, 50 and 80 ms. `--reuse NAME` times again a database an
 * earlier `--keep` run kept (no seeding: the bulk load takes minutes; each run adds its invoices).
 */
import { addDays, clinicToday } from '@odontia/shared/clinic-time';
import { sql } from 'drizzle-orm';
import {
  benchCaller,
  benchOptions,
  benchTimer,
  clinicRows,
  createBenchClinic,
  findBenchClinic,
  measureConditions,
  report,
  runBench,
  withBenchApp,
  withBenchDatabase,
} from './bench-kit.ts';
import { insertPatients } from './patients-seed.ts';
import { seedSales } from './sales-seed.ts';

const { options, sizes, runs } = benchOptions(
  200,
  { patients: 20_000, documents: 1_000_000, collections: 800_000 },
  { reuse: { type: 'string' } },
);
const zone = 'America/Argentina/Buenos_Aires';

async function main() {
  await withBenchDatabase(
    options,
    (backend) =>
      options.reuse
        ? `sales bench on ${backend}, the database ${options.reuse} kept by an earlier run (its sizes are that run's)`
        : `sales bench on ${backend}: ${sizes.patients.toLocaleString('en')} customers, ${sizes.documents.toLocaleString('en')} sales documents, ${sizes.collections.toLocaleString('en')} collections`,
    async (db) => {
      const clinic = options.reuse ? await findBenchClinic(db) : await createBenchClinic(db);
      const { accountId } = clinic;
      const today = clinicToday(zone);
      if (!options.reuse) {
        await insertPatients(db.orm, clinicRows(clinic, sizes.patients));
        await seedSales(db, clinic, {
          customers: sizes.patients,
          documents: sizes.documents,
          collections: sizes.collections,
          today,
        });
      }

      await withBenchApp(db, clinic, async (app, headers) => {
        const call = benchCaller(app, headers, { idempotencyKeys: true });
        const time = benchTimer(runs);

        // The invariant on the seeded data: every balance equals its open items.
        const { rows: broken } = await db.orm.execute<{ n: number }>(sql`
        with open_items as (
          select customer_id, sum(open_amount) as owed from commercial_documents
          where account_id = ${accountId}::uuid and side = 'sale' and deleted_at is null group by customer_id
        ), on_account as (
          select customer_id, sum(amount - allocated_amount) as credit from payments
          where account_id = ${accountId}::uuid and side = 'customer' and reversed_at is null group by customer_id
        )
        select count(*)::int as n from party_balances b
          left join open_items o on o.customer_id = b.party_id
          left join on_account p on p.customer_id = b.party_id
        where b.account_id = ${accountId}::uuid and b.party_kind = 'customer'
          and (b.debits - b.credits) <> coalesce(o.owed, 0) - coalesce(p.credit, 0)`);
        if (Number(broken[0]?.n) !== 0)
          throw new Error(`${broken[0]?.n} customers whose balance is not their open items`);

        const customerIds = (
          await db.orm.execute<{ id: string }>(
            sql`select id from customers where account_id = ${accountId} order by id limit 500`,
          )
        ).rows.map((row) => row.id);
        const treatmentIds = (
          await db.orm.execute<{ id: string }>(
            sql`select id from treatments where account_id = ${accountId} order by id`,
          )
        ).rows.map((row) => row.id);

        const conditions = await measureConditions(db, [
          'commercial_documents',
          'document_lines',
          'payments',
          'ledger_entries',
          'party_balances',
          'customers',
        ]);
        const issue = await time(async (run) => {
          await call(
            'POST',
            '/api/sales',
            {
              documentType: 'invoice',
              customerId: customerIds[run % customerIds.length],
              pointOfService: '0001',
              date: today,
              currency: 'argentine_peso',
              conditionSale: 'current_account',
              issue: true,
              lines: Array.from({ length: 10 }, (_, line) => ({
                treatmentId: treatmentIds[(run + line) % treatmentIds.length],
                tooth: String(11 + (line % 8)),
                description: `Tratamiento ${line + 1}`,
                quantity: '1',
                unitPrice: `${15000 + line * 250}.00`,
                discountRate: line % 4 === 0 ? '5' : '0',
                vatRate: line % 3 === 0 ? '0' : '21',
              })),
            },
            201,
          );
        });
        report(
          'issuing a 10-line invoice (POST /api/sales issue: true: number, chain, ledger, audit)',
          issue,
          'requests',
          30,
        );

        const list = await time(async (run) => {
          await call('GET', `/api/sales?customerId=${customerIds[run % customerIds.length]}&page=1&pageSize=20`);
        });
        report(
          `the sales list of one customer (~${Math.round(sizes.documents / sizes.patients)} documents each)`,
          list,
          'requests',
          30,
        );

        let entriesSeen = 0;
        const statement = await time(async (run) => {
          const answer = await call(
            'GET',
            `/api/current-accounts/customers/${customerIds[run % customerIds.length]}/ledger?startDate=${addDays(today, -365)}&endDate=${today}`,
          );
          entriesSeen += (answer as { data: { entries: unknown[] } }).data.entries.length;
        });
        report(
          `one customer's statement for a year (~${Math.round(entriesSeen / (runs + Math.min(10, runs)))} entries, opening balance carried in)`,
          statement,
          'requests',
          50,
        );

        const sorts = ['name', '-balance', '-overdue'];
        const accounts = await time(async (run) => {
          await call('GET', `/api/current-accounts/customers?page=${1 + (run % 5)}&pageSize=20&sort=${sorts[run % 3]}`);
        });
        report(
          `customers' current accounts, a page of 20 of ${sizes.patients.toLocaleString('en')} with aging and totals`,
          accounts,
          'requests',
          80,
        );
        await conditions.print();
      });
    },
  );
}

runBench(main);
