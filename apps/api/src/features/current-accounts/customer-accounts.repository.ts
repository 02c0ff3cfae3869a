import { sql } from 'drizzle-orm';
import type { RequestContext } from '../../plugins/routes.ts';
import { type AccountTotalsRow, type LedgerRow, serially } from './current-accounts.repository.ts';

/**
 * Customers' current accounts (issue 18), the providers' statement turned round: one statement per
 * answer whatever the number of customers. balance = debits − credits (`party_balances`, party
 * kind customer); aging from the customer's issued sales with something open (partial index
 * `commercial_documents_open_idx`); on account = collections not allocated and not reversed
 * (`payments_customer_unallocated_idx`) + credit notes not yet applied (negative open amounts).
 * balance = Σ aging − onAccount, always. Every statement names the clinic; RLS checks it again;
 * the aggregates run without parallel workers, as the providers' do (`serially`).
 */

type Ctx = Pick<RequestContext, 'tx' | 'accountId'>;

export interface CustomerAccountRow {
  customer_id: string;
  kind: 'patient' | 'company' | 'insurer';
  patient_id: string | null;
  name: string;
  tax_id: string | null;
  tax_id_kind: string | null;
  email: string | null;
  language: string;
  active: boolean;
  balance: string;
  current: string;
  days_0_30: string;
  days_31_60: string;
  days_61_90: string;
  days_over_90: string;
  credit_on_account: string;
  unallocated: string;
  last_movement_on: string | null;
}

const sortOrders: Record<string, ReturnType<typeof sql>> = {
  name: sql`lower(name) asc, customer_id asc`,
  '-name': sql`lower(name) desc, customer_id desc`,
  balance: sql`balance asc, lower(name) asc, customer_id asc`,
  '-balance': sql`balance desc, lower(name) asc, customer_id asc`,
  overdue: sql`(days_0_30 + days_31_60 + days_61_90 + days_over_90) asc, lower(name) asc, customer_id asc`,
  '-overdue': sql`(days_0_30 + days_31_60 + days_61_90 + days_over_90) desc, lower(name) asc, customer_id asc`,
};

export interface CustomerAccountFilters {
  q?: string | undefined;
  withBalance?: boolean;
  kind?: 'patient' | 'company' | 'insurer' | undefined;
  customerId?: string;
}

function accountsQuery(ctx: Ctx, today: string, filters: CustomerAccountFilters) {
  const words = (filters.q ?? '').split(/\s+/).filter(Boolean);
  const search = words.map((word) => {
    const escaped = word.replace(/[\\%_]/g, (char) => `\\${char}`);
    return sql` and c.search_text like '%' || odontia_search_text(${escaped}::text) || '%'`;
  });
  const one = (column: string) =>
    filters.customerId ? sql`and ${sql.raw(column)} = ${filters.customerId}::uuid` : sql``;
  return sql`
    with open_documents as (
      select d.customer_id,
        sum(case when d.open_amount > 0 and coalesce(d.due_date, d.date) >= ${today}::date then d.open_amount else 0 end) as current,
        sum(case when d.open_amount > 0 and ${today}::date - coalesce(d.due_date, d.date) between 1 and 30 then d.open_amount else 0 end) as days_0_30,
        sum(case when d.open_amount > 0 and ${today}::date - coalesce(d.due_date, d.date) between 31 and 60 then d.open_amount else 0 end) as days_31_60,
        sum(case when d.open_amount > 0 and ${today}::date - coalesce(d.due_date, d.date) between 61 and 90 then d.open_amount else 0 end) as days_61_90,
        sum(case when d.open_amount > 0 and ${today}::date - coalesce(d.due_date, d.date) > 90 then d.open_amount else 0 end) as days_over_90,
        sum(case when d.open_amount < 0 then -d.open_amount else 0 end) as credit_on_account
      from commercial_documents d
      where d.account_id = ${ctx.accountId}::uuid and d.side = 'sale'
        and d.open_amount <> 0 and d.deleted_at is null and d.status <> 'draft'
        ${one('d.customer_id')}
      group by d.customer_id
    ), unallocated as (
      select y.customer_id, sum(y.amount - y.allocated_amount) as amount
      from payments y
      where y.account_id = ${ctx.accountId}::uuid and y.side = 'customer'
        and y.allocated_amount < y.amount and y.reversed_at is null and y.deleted_at is null
        ${one('y.customer_id')}
      group by y.customer_id
    ), accounts as (
      select c.id as customer_id, c.kind, c.patient_id, c.name, c.tax_id, c.tax_id_kind, c.email, c.language, c.active,
        coalesce(b.debits, 0) - coalesce(b.credits, 0) as balance,
        coalesce(o.current, 0) as current,
        coalesce(o.days_0_30, 0) as days_0_30,
        coalesce(o.days_31_60, 0) as days_31_60,
        coalesce(o.days_61_90, 0) as days_61_90,
        coalesce(o.days_over_90, 0) as days_over_90,
        coalesce(o.credit_on_account, 0) as credit_on_account,
        coalesce(u.amount, 0) as unallocated
      from customers c
      left join party_balances b
        on b.account_id = c.account_id and b.party_kind = 'customer' and b.party_id = c.id
      left join open_documents o on o.customer_id = c.id
      left join unallocated u on u.customer_id = c.id
      where c.account_id = ${ctx.accountId}::uuid and c.deleted_at is null
        ${one('c.id')}
        ${filters.kind ? sql`and c.kind = ${filters.kind}` : sql``}
        ${sql.join(search, sql``)}
    )
    select * from accounts ${filters.withBalance ? sql`where balance <> 0` : sql``}`;
}

const pageColumns = (ctx: Ctx) => sql`
  l.customer_id, l.kind, l.patient_id, l.name, l.tax_id, l.tax_id_kind, l.email, l.language, l.active,
  l.balance::text, l.current::text, l.days_0_30::text, l.days_31_60::text, l.days_61_90::text,
  l.days_over_90::text, l.credit_on_account::text, l.unallocated::text,
  (select max(e.date) from ledger_entries e
    where e.account_id = ${ctx.accountId}::uuid and e.party_kind = 'customer' and e.party_id = l.customer_id)::text
    as last_movement_on`;

/** The page of accounts, the number that match and their totals (every match, not the page). */
export async function listCustomerAccounts(
  ctx: Ctx,
  today: string,
  query: { q?: string | undefined; sort?: string | undefined; page: number; pageSize: number } & CustomerAccountFilters,
  paged = true,
): Promise<{ rows: CustomerAccountRow[]; totals: AccountTotalsRow }> {
  const base = accountsQuery(ctx, today, query);
  const order = sortOrders[query.sort ?? 'name'] ?? sortOrders.name;
  const { rows } = await serially(ctx, () =>
    ctx.tx.execute<{ [key: string]: unknown }>(sql`
    with listed as (${base}),
    totals as (
      select count(*)::int as t_total,
        coalesce(sum(balance), 0)::text as t_balance,
        coalesce(sum(current), 0)::text as t_current,
        coalesce(sum(days_0_30), 0)::text as t_days_0_30,
        coalesce(sum(days_31_60), 0)::text as t_days_31_60,
        coalesce(sum(days_61_90), 0)::text as t_days_61_90,
        coalesce(sum(days_over_90), 0)::text as t_days_over_90,
        coalesce(sum(credit_on_account + unallocated), 0)::text as t_on_account
      from listed
    )
    select t.*, page.* from totals t
    left join lateral (
      select ${pageColumns(ctx)}
      from listed l
      order by ${order}
      ${paged ? sql`limit ${query.pageSize} offset ${(query.page - 1) * query.pageSize}` : sql``}
    ) page on true`),
  );
  const first = rows[0] ?? {};
  const totals: AccountTotalsRow = {
    total: Number(first.t_total ?? 0),
    balance: String(first.t_balance ?? '0'),
    current: String(first.t_current ?? '0'),
    days_0_30: String(first.t_days_0_30 ?? '0'),
    days_31_60: String(first.t_days_31_60 ?? '0'),
    days_61_90: String(first.t_days_61_90 ?? '0'),
    days_over_90: String(first.t_days_over_90 ?? '0'),
    on_account: String(first.t_on_account ?? '0'),
  };
  const page = rows.filter((row) => row.customer_id !== null) as unknown as CustomerAccountRow[];
  return { rows: page, totals };
}

/** One customer's account (also an inactive one), or undefined when it is not the clinic's. */
export async function findCustomerAccount(
  ctx: Ctx,
  today: string,
  customerId: string,
): Promise<CustomerAccountRow | undefined> {
  const { rows } = await serially(ctx, () =>
    ctx.tx.execute<CustomerAccountRow & { [key: string]: unknown }>(sql`
    with listed as (${accountsQuery(ctx, today, { customerId })})
    select ${pageColumns(ctx)} from listed l`),
  );
  return rows[0] as CustomerAccountRow | undefined;
}

/** Whether the patient is a live patient of the clinic. */
export async function patientExists(ctx: Ctx, patientId: string): Promise<boolean> {
  const { rows } = await ctx.tx.execute<{ id: string }>(sql`
    select p.id from patients p
    where p.account_id = ${ctx.accountId}::uuid and p.id = ${patientId}::uuid and p.deleted_at is null`);
  return rows.length > 0;
}

/** The customer row of a patient, when the patient was ever billed. */
export async function customerIdOfPatient(ctx: Ctx, patientId: string): Promise<string | null> {
  const { rows } = await ctx.tx.execute<{ id: string }>(sql`
    select c.id from customers c
    where c.account_id = ${ctx.accountId}::uuid and c.patient_id = ${patientId}::uuid and c.deleted_at is null`);
  return rows[0]?.id ?? null;
}

/** The balance before `startDate` (debits − credits) and the entries from `startDate` to `endDate`, in order. */
export async function customerLedgerOf(ctx: Ctx, customerId: string, startDate: string, endDate: string) {
  const { rows: opening } = await ctx.tx.execute<{ balance: string }>(sql`
    select coalesce(sum(e.debit - e.credit), 0)::text as balance
    from ledger_entries e
    where e.account_id = ${ctx.accountId}::uuid and e.party_kind = 'customer' and e.party_id = ${customerId}::uuid
      and e.date < ${startDate}::date`);
  const { rows } = await ctx.tx.execute<LedgerRow & { [key: string]: unknown }>(sql`
    select e.id, e.date::text as date, e.kind, e.document_id, d.document_type, d.point_of_service, d.document_number,
      d.due_date::text as due_date, e.payment_id, y.number as payment_number, e.description,
      e.debit::text as debit, e.credit::text as credit
    from ledger_entries e
    left join commercial_documents d on d.account_id = e.account_id and d.id = e.document_id
    left join payments y on y.account_id = e.account_id and y.id = e.payment_id
    where e.account_id = ${ctx.accountId}::uuid and e.party_kind = 'customer' and e.party_id = ${customerId}::uuid
      and e.date between ${startDate}::date and ${endDate}::date
    order by e.date, e.created_at, e.id`);
  return { openingBalance: opening[0]?.balance ?? '0', rows: rows as LedgerRow[] };
}

/** The clinic's currency (customers have none of their own: they pay in the clinic's). */
export async function clinicCurrency(ctx: Ctx): Promise<string> {
  const { rows } = await ctx.tx.execute<{ currency: string }>(
    sql`select system_currency as currency from accounts where id = ${ctx.accountId}::uuid`,
  );
  return rows[0]?.currency ?? 'argentine_peso';
}
