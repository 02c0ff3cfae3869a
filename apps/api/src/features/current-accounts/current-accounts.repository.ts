import type { ProviderAccountsQuery } from '@odontia/shared/schemas/current-accounts';
import { sql } from 'drizzle-orm';
import type { RequestContext } from '../../plugins/routes.ts';

/**
 * Provider current accounts (issue 17), one statement per answer whatever the number of providers:
 * the balance from `party_balances`, aging from the open documents (the partial index
 * `commercial_documents_open_idx` holds only documents with something open, so the aggregate reads
 * those, never the clinic's whole history), what is on account from unallocated, non-reversed
 * payments (partial index `payments_unallocated_idx`) and credit notes not yet applied (negative
 * open amounts). Every statement names the clinic; RLS checks it again.
 */

type Ctx = Pick<RequestContext, 'tx' | 'accountId'>;

export interface ProviderAccountRow {
  provider_id: string;
  name: string;
  nif: string | null;
  tax_id_kind: string | null;
  currency: string;
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

export interface AccountTotalsRow {
  total: number;
  balance: string;
  current: string;
  days_0_30: string;
  days_31_60: string;
  days_61_90: string;
  days_over_90: string;
  on_account: string;
}

const sortOrders: Record<string, ReturnType<typeof sql>> = {
  name: sql`lower(name) asc, provider_id asc`,
  '-name': sql`lower(name) desc, provider_id desc`,
  balance: sql`balance asc, lower(name) asc, provider_id asc`,
  '-balance': sql`balance desc, lower(name) asc, provider_id asc`,
  overdue: sql`(days_0_30 + days_31_60 + days_61_90 + days_over_90) asc, lower(name) asc, provider_id asc`,
  '-overdue': sql`(days_0_30 + days_31_60 + days_61_90 + days_over_90) desc, lower(name) asc, provider_id asc`,
};

/** The accounts' statement: every live provider that matches, with its figures as of `today`. */
function accountsQuery(
  ctx: Ctx,
  today: string,
  filters: { q?: string | undefined; withBalance?: boolean; providerId?: string },
) {
  const words = (filters.q ?? '').split(/\s+/).filter(Boolean);
  const search = words.map((word) => {
    const escaped = word.replace(/[\\%_]/g, (char) => `\\${char}`);
    return sql` and p.search_text like '%' || odontia_search_text(${escaped}::text) || '%'`;
  });
  return sql`
    with open_documents as (
      select d.provider_id,
        sum(case when d.open_amount > 0 and coalesce(d.due_date, d.date) >= ${today}::date then d.open_amount else 0 end) as current,
        sum(case when d.open_amount > 0 and ${today}::date - coalesce(d.due_date, d.date) between 1 and 30 then d.open_amount else 0 end) as days_0_30,
        sum(case when d.open_amount > 0 and ${today}::date - coalesce(d.due_date, d.date) between 31 and 60 then d.open_amount else 0 end) as days_31_60,
        sum(case when d.open_amount > 0 and ${today}::date - coalesce(d.due_date, d.date) between 61 and 90 then d.open_amount else 0 end) as days_61_90,
        sum(case when d.open_amount > 0 and ${today}::date - coalesce(d.due_date, d.date) > 90 then d.open_amount else 0 end) as days_over_90,
        sum(case when d.open_amount < 0 then -d.open_amount else 0 end) as credit_on_account
      from commercial_documents d
      where d.account_id = ${ctx.accountId}::uuid and d.side = 'purchase'
        and d.open_amount <> 0 and d.deleted_at is null
        ${filters.providerId ? sql`and d.provider_id = ${filters.providerId}::uuid` : sql``}
      group by d.provider_id
    ), unallocated as (
      select y.provider_id, sum(y.amount - y.allocated_amount) as amount
      from payments y
      where y.account_id = ${ctx.accountId}::uuid and y.side = 'provider'
        and y.allocated_amount < y.amount and y.reversed_at is null
        ${filters.providerId ? sql`and y.provider_id = ${filters.providerId}::uuid` : sql``}
      group by y.provider_id
    ), accounts as (
      select p.id as provider_id, p.fantasy_name as name, p.nif, p.tax_id_kind, p.currency, p.active,
        coalesce(b.credits, 0) - coalesce(b.debits, 0) as balance,
        coalesce(o.current, 0) as current,
        coalesce(o.days_0_30, 0) as days_0_30,
        coalesce(o.days_31_60, 0) as days_31_60,
        coalesce(o.days_61_90, 0) as days_61_90,
        coalesce(o.days_over_90, 0) as days_over_90,
        coalesce(o.credit_on_account, 0) as credit_on_account,
        coalesce(u.amount, 0) as unallocated
      from providers p
      left join party_balances b
        on b.account_id = p.account_id and b.party_kind = 'provider' and b.party_id = p.id
      left join open_documents o on o.provider_id = p.id
      left join unallocated u on u.provider_id = p.id
      where p.account_id = ${ctx.accountId}::uuid and p.deleted_at is null
        ${filters.providerId ? sql`and p.id = ${filters.providerId}::uuid` : sql``}
        ${sql.join(search, sql``)}
    )
    select * from accounts ${filters.withBalance ? sql`where balance <> 0` : sql``}`;
}

/**
 * Runs `fn` without parallel workers: the planner cannot tell how few rows a partial index holds
 * (it guesses a tenth of the table) and would start workers, ~30 ms each time, for a few thousand
 * open documents. The setting is the transaction's and is put back afterwards.
 */
export async function serially<T>(ctx: Ctx, fn: () => Promise<T>): Promise<T> {
  const { rows } = await ctx.tx.execute<{ workers: string }>(
    sql`select current_setting('max_parallel_workers_per_gather') as workers, set_config('max_parallel_workers_per_gather', '0', true)`,
  );
  const result = await fn();
  await ctx.tx.execute(sql`select set_config('max_parallel_workers_per_gather', ${rows[0]?.workers ?? '2'}, true)`);
  return result;
}

/** The page of accounts, the number that match and their totals (every match, not the page). */
export async function listAccounts(
  ctx: Ctx,
  today: string,
  query: Pick<ProviderAccountsQuery, 'q' | 'sort' | 'page' | 'pageSize'> & { withBalance: boolean },
  paged = true,
): Promise<{ rows: ProviderAccountRow[]; totals: AccountTotalsRow }> {
  const base = accountsQuery(ctx, today, { q: query.q, withBalance: query.withBalance });
  const order = sortOrders[query.sort ?? 'name'] ?? sortOrders.name;
  // One statement: the matches are computed once (a CTE read twice is materialised), the totals
  // over all of them and the page beside them; a page past the end still answers the totals.
  return serially(ctx, async () => {
    const { rows } = await ctx.tx.execute<{ [key: string]: unknown }>(sql`
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
      select l.provider_id, l.name, l.nif, l.tax_id_kind, l.currency, l.active,
        l.balance::text, l.current::text, l.days_0_30::text, l.days_31_60::text, l.days_61_90::text,
        l.days_over_90::text, l.credit_on_account::text, l.unallocated::text,
        (select max(e.date) from ledger_entries e
          where e.account_id = ${ctx.accountId}::uuid and e.party_kind = 'provider' and e.party_id = l.provider_id)::text
          as last_movement_on
      from listed l
      order by ${order}
      ${paged ? sql`limit ${query.pageSize} offset ${(query.page - 1) * query.pageSize}` : sql``}
    ) page on true`);
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
    const page = rows.filter((row) => row.provider_id !== null) as unknown as ProviderAccountRow[];
    return { rows: page, totals };
  });
}

/** One provider's account (also an inactive one), or undefined when it is not the clinic's. */
export async function findAccount(
  ctx: Ctx,
  today: string,
  providerId: string,
): Promise<ProviderAccountRow | undefined> {
  const { rows } = await serially(ctx, () =>
    ctx.tx.execute<ProviderAccountRow & { [key: string]: unknown }>(sql`
    with listed as (${accountsQuery(ctx, today, { providerId })})
    select l.provider_id, l.name, l.nif, l.tax_id_kind, l.currency, l.active,
      l.balance::text, l.current::text, l.days_0_30::text, l.days_31_60::text, l.days_61_90::text,
      l.days_over_90::text, l.credit_on_account::text, l.unallocated::text,
      (select max(e.date) from ledger_entries e
        where e.account_id = ${ctx.accountId}::uuid and e.party_kind = 'provider' and e.party_id = l.provider_id)::text
        as last_movement_on
    from listed l`),
  );
  return rows[0] as ProviderAccountRow | undefined;
}

export interface LedgerRow {
  id: string;
  date: string;
  kind: 'document' | 'payment' | 'payment_reversal';
  document_id: string | null;
  document_type: string | null;
  point_of_service: string | null;
  document_number: string | null;
  due_date: string | null;
  payment_id: string | null;
  payment_number: string | null;
  description: string;
  debit: string;
  credit: string;
}

/** The balance before `startDate` (credits − debits) and the entries from `startDate` to `endDate`, in order. */
export async function ledgerOf(ctx: Ctx, providerId: string, startDate: string, endDate: string) {
  const { rows: opening } = await ctx.tx.execute<{ balance: string }>(sql`
    select coalesce(sum(e.credit - e.debit), 0)::text as balance
    from ledger_entries e
    where e.account_id = ${ctx.accountId}::uuid and e.party_kind = 'provider' and e.party_id = ${providerId}::uuid
      and e.date < ${startDate}::date`);
  const { rows } = await ctx.tx.execute<LedgerRow & { [key: string]: unknown }>(sql`
    select e.id, e.date::text as date, e.kind, e.document_id, d.document_type, d.point_of_service, d.document_number,
      d.due_date::text as due_date, e.payment_id, y.number as payment_number, e.description,
      e.debit::text as debit, e.credit::text as credit
    from ledger_entries e
    left join commercial_documents d on d.account_id = e.account_id and d.id = e.document_id
    left join payments y on y.account_id = e.account_id and y.id = e.payment_id
    where e.account_id = ${ctx.accountId}::uuid and e.party_kind = 'provider' and e.party_id = ${providerId}::uuid
      and e.date between ${startDate}::date and ${endDate}::date
    order by e.date, e.id`);
  return { openingBalance: opening[0]?.balance ?? '0', rows: rows as LedgerRow[] };
}
