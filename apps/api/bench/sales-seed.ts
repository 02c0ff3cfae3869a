/**
 * The bench clinic's sales (the `sales` and `dashboard` benches): the first `customers` patients
 * (by P-number) as customers, 40 price-list treatments, `documents` issued sales over `spanDays`
 * (three years) up to `today` on point of sale 0001 (85 % invoices of two lines, 10 % budgets, 5 % credit notes;
 * numbered per type without gaps and chained) and `collections` collections, each settling one of
 * the customer's older invoices; the ledger, the allocations, the open amounts, the balances and
 * the day figures written as the services write them (generated in SQL, triggers off for the load).
 */
import { addDays } from '@odontia/shared/clinic-time';
import { sql } from 'drizzle-orm';
import type { Database } from '../src/db/client.ts';
import { type BenchClinic, closeMoneySeed, seconds, seededMoneySides, settleSeededMoney } from './bench-kit.ts';

export interface SalesSeedSizes {
  customers: number;
  documents: number;
  collections: number;
  /** The clinic's today: the last day of the period. */
  today: string;
  /** The days the sales spread over, up to today (default three years). */
  spanDays?: number;
}

export async function seedSales(db: Database, clinic: BenchClinic, sizes: SalesSeedSizes): Promise<void> {
  const { accountId, userId } = clinic;
  const { customers: customerCount, documents: documentCount, collections: collectionCount, today } = sizes;
  const spanDays = sizes.spanDays ?? 3 * 365;
  const firstDay = addDays(today, -spanDays);
  let started = performance.now();
  await db.orm.execute(sql`
    update accounts set legal_name = 'Clínica Benchmark S.R.L.', country = 'AR', tax_id_kind = 'cuit',
      tax_id = '30712345671', fiscal_condition = 'ar_responsable_inscripto' where id = ${accountId}`);
  await db.orm.execute(sql`
    insert into points_of_sale (account_id, id, code, name, created_by, updated_by)
    values (${accountId}::uuid, uuid_generate_v7_bench(1), '0001', 'Recepción', ${userId}::uuid, ${userId}::uuid)
    on conflict do nothing`);
  await db.orm.execute(sql`
    insert into customers (account_id, id, kind, patient_id, name, email, language, created_by, updated_by)
    select account_id, uuid_generate_v7_bench(500000000 + row_number() over (order by id)), 'patient', id,
      last_name || ', ' || first_name, email, 'es', ${userId}::uuid, ${userId}::uuid
    from (select * from patients where account_id = ${accountId}::uuid order by sku_patient limit ${customerCount}) as p`);
  await db.orm.execute(sql`
    insert into treatments (account_id, id, code, name, group_name, price, vat_rate, duration_minutes, created_by, updated_by)
    select ${accountId}::uuid, uuid_generate_v7_bench(400000000 + t), 'T' || lpad(t::text, 3, '0'), 'Tratamiento ' || t,
      'Grupo ' || (t % 6), 10000 + t * 1500, case when t % 4 = 0 then 0 else 21 end, 30, ${userId}::uuid, ${userId}::uuid
    from generate_series(1, 40) as t`);
  console.log(`  ${customerCount.toLocaleString('en')} patients as customers and 40 treatments in ${seconds(started)}`);

  // Documents: the n-th sale of the clinic, its customer by n, its date spread over three years,
  // its number the next of its type. The triggers that keep issued rows final are off for the load.
  started = performance.now();
  await db.orm.transaction(async (tx) => {
    await tx.execute(sql`set local session_replication_role = replica`);
    await tx.execute(sql`
      create temporary table bench_customers on commit drop as
      select row_number() over (order by id) - 1 as k, id, patient_id from customers where account_id = ${accountId}::uuid`);
    await tx.execute(sql`create index on bench_customers (k)`);
    await tx.execute(sql`
      create temporary table bench_sales on commit drop as
      select n, uuid_generate_v7_bench(1000000000 + n) as id, c.id as customer_id, c.patient_id,
        case when n % 20 = 0 then 'credit_note' when n % 10 = 1 then 'budget' else 'invoice' end as document_type,
        (${firstDay}::date + ((n::bigint * ${spanDays}) / ${documentCount})::int) as date,
        ((5000 + (n * 37) % 900000) / 100.0)::numeric(14,2) as net
      from generate_series(1, ${documentCount}) as n
      join bench_customers c on c.k = n % ${customerCount}`);
    // One statement per call: PGlite's extended protocol takes no batches.
    await tx.execute(sql`alter table bench_sales add column sequence_number int`);
    await tx.execute(sql`
      update bench_sales s set sequence_number = r.number
      from (select id, row_number() over (partition by document_type order by n) as number from bench_sales) r
      where r.id = s.id`);
    await tx.execute(sql`
      insert into commercial_documents (account_id, id, side, status, document_type, customer_id, patient_id,
        point_of_service, document_number, sequence_number, chain_index, previous_hash, content_hash, date, due_date,
        currency, condition_sale, subtotal1, subtotal2, vat_total, total, vat_breakdown, open_amount,
        issuer_snapshot, counterparty_snapshot, registered_at, registered_by, created_by, updated_by)
      select ${accountId}::uuid, d.id, 'sale', 'issued', d.document_type, d.customer_id, d.patient_id, '0001',
        lpad(d.sequence_number::text, 8, '0'), d.sequence_number, d.n,
        case when d.n > 1 then encode(sha256(convert_to((d.n - 1)::text, 'UTF8')), 'hex') end,
        encode(sha256(convert_to(d.n::text, 'UTF8')), 'hex'), d.date, d.date + 30, 'argentine_peso', 'current_account',
        d.net * 2, d.net * 2, round(d.net * 2 * 0.21, 2), d.net * 2 + round(d.net * 2 * 0.21, 2),
        jsonb_build_array(jsonb_build_object('rate', '21.00', 'base', (d.net * 2)::text, 'vat', round(d.net * 2 * 0.21, 2)::text)),
        case d.document_type when 'invoice' then d.net * 2 + round(d.net * 2 * 0.21, 2)
          when 'credit_note' then -(d.net * 2 + round(d.net * 2 * 0.21, 2)) else 0 end,
        jsonb_build_object('name', 'Clínica Benchmark'), jsonb_build_object('name', 'Paciente ' || d.n % ${customerCount}),
        d.date::timestamptz, ${userId}::uuid, ${userId}::uuid, ${userId}::uuid
      from bench_sales d`);
    await tx.execute(sql`
      insert into document_lines (account_id, id, document_id, position, treatment_id, tooth, description, quantity,
        unit_price, vat_rate, subtotal1, discount, subtotal, vat, total)
      select ${accountId}::uuid, uuid_generate_v7_bench(3000000000 + d.n * 2 + l), d.id, l,
        t.ids[1 + (d.n + l) % 40], (11 + (d.n + l) % 8)::text, 'Tratamiento', 1, d.net,
        21, d.net, 0, d.net, round(d.net * 0.21, 2), d.net + round(d.net * 0.21, 2)
      from bench_sales d cross join generate_series(0, 1) as l
      cross join (select array_agg(id order by code) as ids from treatments where account_id = ${accountId}::uuid) t`);
    await tx.execute(sql`
      insert into ledger_entries (account_id, id, party_kind, party_id, date, kind, document_id, description, debit, credit, created_by)
      select ${accountId}::uuid, uuid_generate_v7_bench(6000000000 + d.n), 'customer', d.customer_id, d.date, 'document',
        d.id, d.document_type,
        case when d.document_type = 'invoice' then d.net * 2 + round(d.net * 2 * 0.21, 2) else 0 end,
        case when d.document_type = 'credit_note' then d.net * 2 + round(d.net * 2 * 0.21, 2) else 0 end,
        ${userId}::uuid
      from bench_sales d where d.document_type <> 'budget'`);
    await tx.execute(sql`
      insert into sale_sequences (account_id, point_of_service, document_type, last_number, last_date)
      select ${accountId}::uuid, '0001', document_type, max(sequence_number), max(date) from bench_sales group by document_type`);
    await tx.execute(sql`
      insert into sale_chains (account_id, point_of_service, last_index, last_hash, last_document_id)
      select ${accountId}::uuid, '0001', n, encode(sha256(convert_to(n::text, 'UTF8')), 'hex'), id
      from bench_sales order by n desc limit 1`);

    // Collections: each settles one invoice in full, the older invoices first, 10 days after it.
    await tx.execute(sql`
      create temporary table bench_collections on commit drop as
      select row_number() over (order by c.date, c.id) as n, c.id as document_id, c.customer_id, c.patient_id, c.total,
        uuid_generate_v7_bench(8000000000 + row_number() over (order by c.date, c.id)) as payment_id,
        least(c.date + 10, ${today}::date) as date
      from commercial_documents c
      where c.account_id = ${accountId}::uuid and c.side = 'sale' and c.document_type = 'invoice'
      order by c.date, c.id
      limit ${collectionCount}`);
    await tx.execute(sql`
      insert into payments (account_id, id, side, number, customer_id, patient_id, date, amount, currency, method,
        parts, status, paid_on, allocated_amount, counterparty_snapshot, created_by, updated_by)
      select ${accountId}::uuid, p.payment_id, 'customer', 'RC-' || lpad(p.n::text, 7, '0'),
        p.customer_id, p.patient_id, p.date, p.total, 'argentine_peso',
        case when p.n % 3 = 0 then 'credit_card' else 'cash_payment' end,
        jsonb_build_array(jsonb_build_object('method', case when p.n % 3 = 0 then 'credit_card' else 'cash_payment' end,
          'amount', p.total::numeric(14,2)::text)),
        'paid', p.date, p.total,
        jsonb_build_object('name', 'Paciente'), ${userId}::uuid, ${userId}::uuid
      from bench_collections p`);
    await settleSeededMoney(tx, { accountId, userId, count: collectionCount, ...seededMoneySides.customer });
  });
  const counts = await closeMoneySeed(db, accountId, ['customers', 'treatments']);
  console.log(
    `  ${counts.documents} sales, ${counts.payments} collections, ${counts.entries} ledger entries (${counts.open} documents still open) in ${seconds(started)}`,
  );
}
