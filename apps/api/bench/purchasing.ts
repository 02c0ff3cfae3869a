/**
 * `npm run bench -- purchasing [--pglite] [--providers N] [--documents N] [--payments N] [--runs N] [--keep]`
 *
 * Seeds one clinic (Buenos Aires, pesos) with 200 providers, 200 supplies, 200,000 registered
 * purchase documents over three years (85 % invoices of two lines, 10 % delivery notes, 5 % credit
 * notes) and 150,000 payments, each settling one of the provider's older invoices; the ledger,
 * the allocations, the open amounts and the parties' balances are written as the services write
 * them (generated in SQL; the checks at the end prove the invariant). Then it prints the
 * server-side p50/p95 (the real routes through app.inject: authentication, the transaction,
 * validation, the answer) of:
 *   - the providers' current accounts list (GET /api/current-accounts/providers: balance, overdue
 *     and aging of every provider of the page, with the totals of all of them);
 *   - one provider's ledger for a year (GET /api/current-accounts/providers/:id?startDate&endDate);
 *   - registering a 20-line invoice (POST /api/purchases with register: true: totals, snapshots,
 *     stock in with the average cost, the SKU memory, the ledger, the audit).
 * Goal on PostgreSQL: p95 under 50 ms, 30 ms and 40 ms.
 */
import { addDays, clinicToday } from '@odontia/shared/clinic-time';
import { sql } from 'drizzle-orm';
import {
  benchCaller,
  benchOptions,
  benchTimer,
  closeMoneySeed,
  createBenchClinic,
  report,
  runBench,
  seconds,
  seededMoneySides,
  settleSeededMoney,
  withBenchApp,
  withBenchDatabase,
} from './bench-kit.ts';
import { insertItems } from './inventory-seed.ts';

const { options, sizes, runs } = benchOptions(200, {
  providers: 200,
  documents: 200_000,
  payments: 150_000,
  items: 200,
});
const zone = 'America/Argentina/Buenos_Aires';

async function main() {
  await withBenchDatabase(
    options,
    (backend) =>
      `purchasing bench on ${backend}: ${sizes.providers} providers, ${sizes.documents.toLocaleString('en')} purchase documents, ${sizes.payments.toLocaleString('en')} payments`,
    async (db) => {
      const clinic = await createBenchClinic(db);
      const { accountId, userId } = clinic;
      const today = clinicToday(zone);
      const firstDay = addDays(today, -3 * 365);
      let started = performance.now();
      await db.orm.execute(sql`
      update accounts set legal_name = 'Clínica Benchmark S.R.L.', country = 'AR', tax_id_kind = 'cuit',
        tax_id = '30712345671', fiscal_condition = 'ar_responsable_inscripto' where id = ${accountId}`);
      await insertItems(
        db.orm,
        sql`(select ${accountId}::uuid as account_id, ${userId}::uuid as user_id, 2 * i + 1 as i from generate_series(0, ${sizes.items - 1}) as i) as source`,
      );
      await db.orm.execute(sql`
      insert into providers (account_id, id, nif, tax_id_kind, fantasy_name, bussines_name, currency, payment_term_days,
        created_by, updated_by)
      select ${accountId}::uuid, uuid_generate_v7_bench(p), '30' || lpad(p::text, 8, '0') || (p % 10), 'cuit',
        'Proveedor ' || p, 'Proveedor ' || p || ' S.A.', 'argentine_peso', 30, ${userId}::uuid, ${userId}::uuid
      from generate_series(1, ${sizes.providers}) as p`);
      console.log(`  ${sizes.providers} providers and ${sizes.items} supplies in ${seconds(started)}`);

      // Documents: n-th document of the clinic, its provider by n, its date spread over three years.
      // The triggers that keep registered rows final are switched off for the bulk load only.
      started = performance.now();
      await db.orm.transaction(async (tx) => {
        await tx.execute(sql`set local session_replication_role = replica`);
        await tx.execute(sql`
        create temporary table bench_documents on commit drop as
        select n, uuid_generate_v7_bench(1000000 + n) as id,
          (select array_agg(id order by id) from providers where account_id = ${accountId}::uuid)[1 + n % ${sizes.providers}] as provider_id,
          case when n % 20 = 0 then 'credit_note' when n % 10 = 1 then 'delivery_note' else 'invoice' end as document_type,
          (${firstDay}::date + ((n::bigint * ${3 * 365}) / ${sizes.documents})::int) as date,
          ((1000 + (n * 37) % 90000) / 100.0)::numeric(14,2) as net
        from generate_series(1, ${sizes.documents}) as n`);
        await tx.execute(sql`
        insert into commercial_documents (account_id, id, side, status, document_type, provider_id, point_of_service,
          document_number, date, due_date, currency, condition_sale, subtotal1, subtotal2, vat_total, total,
          vat_breakdown, open_amount, issuer_snapshot, counterparty_snapshot, registered_at, registered_by,
          moved_stock, created_by, updated_by)
        select ${accountId}::uuid, d.id, 'purchase', 'registered', d.document_type, d.provider_id, '0001',
          lpad(d.n::text, 8, '0'), d.date, d.date + 30, 'argentine_peso', 'current_account',
          d.net * 2, d.net * 2, round(d.net * 2 * 0.21, 2), d.net * 2 + round(d.net * 2 * 0.21, 2),
          jsonb_build_array(jsonb_build_object('rate', '21.00', 'base', (d.net * 2)::text, 'vat', round(d.net * 2 * 0.21, 2)::text)),
          case d.document_type when 'invoice' then d.net * 2 + round(d.net * 2 * 0.21, 2)
            when 'credit_note' then -(d.net * 2 + round(d.net * 2 * 0.21, 2)) else 0 end,
          jsonb_build_object('name', 'Proveedor'), jsonb_build_object('name', 'Clínica Benchmark'),
          d.date::timestamptz, ${userId}::uuid, d.document_type = 'delivery_note', ${userId}::uuid, ${userId}::uuid
        from bench_documents d`);
        await tx.execute(sql`
        insert into document_lines (account_id, id, document_id, position, item_id, description, quantity, unit_price,
          vat_rate, subtotal1, discount, subtotal, vat, total)
        select ${accountId}::uuid, uuid_generate_v7_bench(3000000 + d.n * 2 + l), d.id, l,
          (select array_agg(id order by id) from inventory_items where account_id = ${accountId}::uuid)[1 + (d.n + l) % ${sizes.items}],
          'Insumo', 1, d.net, 21, d.net, 0, d.net, round(d.net * 0.21, 2), d.net + round(d.net * 0.21, 2)
        from bench_documents d cross join generate_series(0, 1) as l`);
        await tx.execute(sql`
        insert into ledger_entries (account_id, id, party_kind, party_id, date, kind, document_id, description, debit, credit, created_by)
        select ${accountId}::uuid, uuid_generate_v7_bench(6000000 + d.n), 'provider', d.provider_id, d.date, 'document', d.id,
          d.document_type,
          case when d.document_type = 'credit_note' then d.net * 2 + round(d.net * 2 * 0.21, 2) else 0 end,
          case when d.document_type = 'invoice' then d.net * 2 + round(d.net * 2 * 0.21, 2) else 0 end,
          ${userId}::uuid
        from bench_documents d where d.document_type <> 'delivery_note'`);

        // Payments: each settles one invoice in full, the older invoices of every provider first,
        // 15 days after the invoice's date.
        await tx.execute(sql`
        create temporary table bench_payments on commit drop as
        select row_number() over (order by c.date, c.id) as n, c.id as document_id, c.provider_id, c.total,
          uuid_generate_v7_bench(8000000 + row_number() over (order by c.date, c.id)) as payment_id,
          least(c.date + 15, ${today}::date) as date
        from commercial_documents c
        where c.account_id = ${accountId}::uuid and c.document_type = 'invoice'
        order by c.date, c.id
        limit ${sizes.payments}`);
        await tx.execute(sql`
        insert into payments (account_id, id, side, number, provider_id, date, amount, currency, method, parts, status,
          paid_on, allocated_amount, counterparty_snapshot, created_by, updated_by)
        select ${accountId}::uuid, p.payment_id, 'provider', 'OP-' || lpad(p.n::text, 6, '0'),
          p.provider_id, p.date, p.total, 'argentine_peso', 'bank_transfer',
          jsonb_build_array(jsonb_build_object('method', 'bank_transfer', 'amount', p.total::numeric(14,2)::text)),
          'paid', p.date, p.total,
          jsonb_build_object('name', 'Proveedor'), ${userId}::uuid, ${userId}::uuid
        from bench_payments p`);
        await settleSeededMoney(tx, { accountId, userId, count: sizes.payments, ...seededMoneySides.provider });
      });
      const counts = await closeMoneySeed(db, accountId, ['providers', 'inventory_items']);
      console.log(
        `  ${counts.documents} documents, ${counts.payments} payments, ${counts.entries} ledger entries (${counts.open} documents still open) in ${seconds(started)}`,
      );

      await withBenchApp(db, clinic, async (app, headers) => {
        const call = benchCaller(app, headers, { idempotencyKeys: true });
        const time = benchTimer(runs);

        // The invariant on the seeded data: every balance equals its ledger and its open items.
        const { rows: broken } = await db.orm.execute<{ n: number }>(sql`
        select count(*)::int as n from party_balances b
        where b.account_id = ${accountId} and (b.credits - b.debits) <> (
          (select coalesce(sum(open_amount), 0) from commercial_documents d
            where d.account_id = b.account_id and d.provider_id = b.party_id)
          - (select coalesce(sum(amount - allocated_amount), 0) from payments p
            where p.account_id = b.account_id and p.provider_id = b.party_id and p.reversed_at is null))`);
        if (Number(broken[0]?.n) !== 0)
          throw new Error(`${broken[0]?.n} providers whose balance is not their open items`);

        const sorts = ['name', '-balance', '-overdue'];
        const list = await time(async (run) => {
          await call('GET', `/api/current-accounts/providers?page=${1 + (run % 5)}&pageSize=20&sort=${sorts[run % 3]}`);
        });
        report(`providers' current accounts, a page of 20 of ${sizes.providers} with aging and totals`, list);

        const providers = (
          await db.orm.execute<{ id: string }>(
            sql`select id from providers where account_id = ${accountId} order by id`,
          )
        ).rows.map((row) => row.id);
        let entriesSeen = 0;
        const ledger = await time(async (run) => {
          const answer = await call(
            'GET',
            `/api/current-accounts/providers/${providers[run % providers.length]}?startDate=${addDays(today, -365)}&endDate=${today}`,
          );
          entriesSeen += (answer as { data: { entries: unknown[] } }).data.entries.length;
        });
        report(
          `one provider's ledger for a year (~${Math.round(entriesSeen / (runs + Math.min(10, runs)))} entries, opening balance carried in)`,
          ledger,
        );

        const items = (
          await db.orm.execute<{ id: string }>(
            sql`select id from inventory_items where account_id = ${accountId} order by id limit 40`,
          )
        ).rows.map((row) => row.id);
        const register = await time(async (run) => {
          await call(
            'POST',
            '/api/purchases',
            {
              providerId: providers[run % providers.length],
              documentType: 'invoice',
              pointOfService: '0009',
              documentNumber: String(100000 + run),
              date: today,
              currency: 'argentine_peso',
              conditionSale: 'current_account',
              register: true,
              lines: Array.from({ length: 20 }, (_, line) => ({
                itemId: items[(run + line) % items.length],
                description: `Insumo ${line + 1}`,
                skuProvider: `PRV-${(run + line) % items.length}`,
                quantity: String(1 + (line % 5)),
                unitPrice: `${100 + line}.50`,
                discountRate: line % 4 === 0 ? '5' : '0',
                vatRate: line % 3 === 0 ? '10.5' : '21',
              })),
            },
            201,
          );
        });
        report('registering a 20-line invoice (POST /api/purchases, stock in, ledger, audit)', register);
      });
    },
  );
}

runBench(main);
