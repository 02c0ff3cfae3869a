import { type SQL, sql } from 'drizzle-orm';
import type { TxContext as Ctx } from '../../context.ts';
import type { PartyKind } from '../commercial/ledger.ts';
import { openAmountsByDue } from '../figures/day-figures.repository.ts';

/**
 * The statements both kinds of current account share (providers, issue 17; customers, issue 18):
 * the aging sums of open documents, the search, the sort, one statement for a page and the totals
 * of every match, and a party's ledger from its opening balance. What each side selects (its
 * party's table and columns, which documents and payments count) stays in its repository.
 */

/** What is owed by days past the due date (numbers as text). */
interface AgingRow {
  current: string;
  days_0_30: string;
  days_31_60: string;
  days_61_90: string;
  days_over_90: string;
}

/** The figures of one account as the statements answer them (numbers as text). */
export interface AccountFiguresRow extends AgingRow {
  balance: string;
  credit_on_account: string;
  unallocated: string;
  last_movement_on: string | null;
}

export interface AccountTotalsRow extends AgingRow {
  total: number;
  balance: string;
  on_account: string;
}

/** The party kind written into the statement, as the index sees it (a closed set: no injection). */
const kindLiteral = (kind: PartyKind) => sql.raw(`'${kind}'`);

/** The party's column in an account's row. */
export type PartyIdColumn = 'provider_id' | 'customer_id';

/**
 * The aging of the open documents `d` as of `today` (days past the due date, none: the
 * document's date) and the credit notes not yet applied; for `… from commercial_documents d`.
 */
export const openDocumentSums = (today: string) => sql`
        sum(case when d.open_amount > 0 and coalesce(d.due_date, d.date) >= ${today}::date then d.open_amount else 0 end) as current,
        sum(case when d.open_amount > 0 and ${today}::date - coalesce(d.due_date, d.date) between 1 and 30 then d.open_amount else 0 end) as days_0_30,
        sum(case when d.open_amount > 0 and ${today}::date - coalesce(d.due_date, d.date) between 31 and 60 then d.open_amount else 0 end) as days_31_60,
        sum(case when d.open_amount > 0 and ${today}::date - coalesce(d.due_date, d.date) between 61 and 90 then d.open_amount else 0 end) as days_61_90,
        sum(case when d.open_amount > 0 and ${today}::date - coalesce(d.due_date, d.date) > 90 then d.open_amount else 0 end) as days_over_90,
        sum(case when d.open_amount < 0 then -d.open_amount else 0 end) as credit_on_account`;

/** The account's figures out of its open documents `o` and unallocated payments `u`. */
export const accountFigureColumns = sql`
        coalesce(o.current, 0) as current,
        coalesce(o.days_0_30, 0) as days_0_30,
        coalesce(o.days_31_60, 0) as days_31_60,
        coalesce(o.days_61_90, 0) as days_61_90,
        coalesce(o.days_over_90, 0) as days_over_90,
        coalesce(o.credit_on_account, 0) as credit_on_account,
        coalesce(u.amount, 0) as unallocated`;

/** ` and <party>.search_text like '%word%'` for every word of `q` (the party's alias, `p` or `c`). */
export function searchWordsOf(party: 'p' | 'c', q: string | undefined): SQL {
  const words = (q ?? '').split(/\s+/).filter(Boolean);
  const column = sql.raw(`${party}.search_text`);
  return sql.join(
    words.map((word) => {
      const escaped = word.replace(/[\\%_]/g, (char) => `\\${char}`);
      return sql` and ${column} like '%' || odontia_search_text(${escaped}::text) || '%'`;
    }),
    sql``,
  );
}

/**
 * The list's sorts over the listed accounts `l`; ties by name, then the party. Qualified: an
 * ORDER BY name matches the select's output first, where the figures are text ('60.50' > '121.00').
 */
export function accountSortOrders(idColumn: PartyIdColumn): Record<string, SQL> {
  const id = sql.raw(`l.${idColumn}`);
  const overdue = sql`(l.days_0_30 + l.days_31_60 + l.days_61_90 + l.days_over_90)`;
  return {
    name: sql`l.name_key collate "C" asc, ${id} asc`,
    '-name': sql`l.name_key collate "C" desc, ${id} desc`,
    balance: sql`l.balance asc, l.name_key collate "C" asc, ${id} asc`,
    '-balance': sql`l.balance desc, l.name_key collate "C" asc, ${id} asc`,
    overdue: sql`${overdue} asc, l.name_key collate "C" asc, ${id} asc`,
    '-overdue': sql`${overdue} desc, l.name_key collate "C" asc, ${id} asc`,
  };
}

/** The figures of a listed account `l` as text, and its last movement. */
export const listedFigures = (ctx: Ctx, partyKind: PartyKind, idColumn: PartyIdColumn) => sql`
  l.balance::text, l.current::text, l.days_0_30::text, l.days_31_60::text, l.days_61_90::text,
  l.days_over_90::text, l.credit_on_account::text, l.unallocated::text,
  (select max(e.date) from ledger_entries e
    where e.account_id = ${ctx.accountId}::uuid and e.party_kind = ${kindLiteral(partyKind)} and e.party_id = l.${sql.raw(idColumn)})::text
    as last_movement_on`;

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

export interface AccountsPage {
  /** The accounts that match (a statement selecting every column of an account). */
  listed: SQL;
  /** What the page selects of a listed account `l`. */
  columns: SQL;
  idColumn: PartyIdColumn;
  order: SQL;
  /** Without it, every match (the CSV export). */
  paged: boolean;
  page: number;
  pageSize: number;
}

/** The page of accounts, the number that match and their totals (every match, not the page). */
export async function pageWithTotals<TRow>(
  ctx: Ctx,
  { listed, columns, idColumn, order, paged, page, pageSize }: AccountsPage,
): Promise<{ rows: TRow[]; totals: AccountTotalsRow }> {
  // One statement: the matches are computed once (a CTE read twice is materialised), the totals
  // over all of them and the page beside them; a page past the end still answers the totals.
  const { rows } = await serially(ctx, () =>
    ctx.tx.execute<{ [key: string]: unknown }>(sql`
    with listed as (${listed}),
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
      select ${columns}
      from listed l
      order by ${order}
      ${paged ? sql`limit ${pageSize} offset ${(page - 1) * pageSize}` : sql``}
    ) page on true`),
  );
  return pageAnswer<TRow>(rows, idColumn);
}

/** The rows of a page statement: the totals (`t_…`, on every row) and the accounts (none past the end). */
function pageAnswer<TRow>(
  rows: { [key: string]: unknown }[],
  idColumn: PartyIdColumn,
): { rows: TRow[]; totals: AccountTotalsRow } {
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
  const accounts = rows.filter((row) => row[idColumn] !== null) as unknown as TRow[];
  return { rows: accounts, totals };
}

/** Sorts by what is overdue: the page first still sums every party's overdue documents. */
const overdueSorts = new Set(['overdue', '-overdue']);

/** `accountSortOrders`' overdue sorts over a party `l` and its overdue sum `o.overdue`. */
const overdueOrders = (idColumn: PartyIdColumn): Record<string, SQL> => {
  const id = sql.raw(`l.${idColumn}`);
  return {
    overdue: sql`coalesce(o.overdue, 0) asc, l.name_key collate "C" asc, ${id} asc`,
    '-overdue': sql`coalesce(o.overdue, 0) desc, l.name_key collate "C" asc, ${id} asc`,
  };
};

export interface BalancePage {
  /** The parties that match, each with its kept `balance` (no aging): `select <id>, name, …, balance`. */
  parties: SQL;
  /** What the page selects of a listed account `l` (as `AccountsPage.columns`). */
  columns: SQL;
  idColumn: PartyIdColumn;
  /** The documents' and the payments' side of the party. */
  documentSide: 'sale' | 'purchase';
  paymentSide: 'customer' | 'provider';
  today: string;
  /** One of `accountSortOrders`' keys (an unknown one sorts by name). */
  sort: string;
  /**
   * Whether a filter narrows the parties. When none does, the matches are every live party, and
   * a party with documents is never deleted: the totals' aging comes from the side's open amounts
   * kept per due date (`openAmountsByDue`, a few hundred rows) and the unallocated payments are
   * read whole, instead of looking each party up.
   */
  narrowed: boolean;
  page: number;
  pageSize: number;
}

/**
 * The number and the balance of every live party of a side, without listing them: the parties
 * counted through their table's index, the balances summed from `party_balances` whole (a party
 * with movements is never deleted, so every row there is a live party's). With `listed` read
 * once, for the page only, the planner walks the name index for a page sorted by name.
 */
function everyParty(ctx: Ctx, side: 'sale' | 'purchase') {
  const table = sql.raw(side === 'sale' ? 'customers' : 'providers');
  const kind = side === 'sale' ? kindLiteral('customer') : kindLiteral('provider');
  const balance = side === 'sale' ? sql`b.debits - b.credits` : sql`b.credits - b.debits`;
  return sql`
      select (select count(*)::int from ${table} x where x.account_id = ${ctx.accountId}::uuid and x.deleted_at is null) as t_total,
        (select coalesce(sum(${balance}), 0)::text from party_balances b
          where b.account_id = ${ctx.accountId}::uuid and b.party_kind = ${kind}) as t_balance`;
}

/** The aging totals (`t_…`) and the credit of `by_due`'s rows (`due, owed, credit`) on `today`. */
const agingOfDues = (today: string) => sql`
        coalesce(sum(owed) filter (where due >= ${today}::date), 0)::text as t_current,
        coalesce(sum(owed) filter (where ${today}::date - due between 1 and 30), 0)::text as t_days_0_30,
        coalesce(sum(owed) filter (where ${today}::date - due between 31 and 60), 0)::text as t_days_31_60,
        coalesce(sum(owed) filter (where ${today}::date - due between 61 and 90), 0)::text as t_days_61_90,
        coalesce(sum(owed) filter (where ${today}::date - due > 90), 0)::text as t_days_over_90,
        coalesce(sum(credit), 0) as credit`;

/** The side's payments `y` with something not allocated (live, not reversed). */
const unallocatedPayments = (ctx: Ctx, paymentSide: 'customer' | 'provider') =>
  sql`y.account_id = ${ctx.accountId}::uuid and y.side = ${paymentSide}
        and y.allocated_amount < y.amount and y.reversed_at is null and y.deleted_at is null`;

/**
 * The totals of every account of a side (the current accounts' unfiltered totals, the
 * dashboard's receivables): from the kept figures and balances, a handful of rows read.
 */
export async function sideTotals(ctx: Ctx, side: 'sale' | 'purchase', today: string): Promise<AccountTotalsRow> {
  const { rows } = await ctx.tx.execute<{ [key: string]: unknown }>(sql`
    with counted as (${everyParty(ctx, side)}),
    aging as (select ${agingOfDues(today)} from (${openAmountsByDue(ctx, side)}) by_due),
    unallocated_total as (
      select coalesce(sum(y.amount - y.allocated_amount), 0) as amount
      from payments y where ${unallocatedPayments(ctx, side === 'sale' ? 'customer' : 'provider')}
    )
    select c.t_total, c.t_balance, a.t_current, a.t_days_0_30, a.t_days_31_60, a.t_days_61_90, a.t_days_over_90,
      (a.credit + u.amount)::text as t_on_account
    from counted c cross join aging a cross join unallocated_total u`);
  return pageAnswer(rows, side === 'sale' ? 'customer_id' : 'provider_id').totals;
}

/**
 * The page of accounts and the totals of every match, the page first: the matches and their
 * order come from the parties and their kept balances (`party_balances`), aging only for the
 * page's accounts (a few open documents each, through the open documents' index), and the
 * totals' aging from the matches' open documents summed per due date first (a few hundred dates
 * instead of one sum per party). What `pageWithTotals` answers, without aging every party: at
 * 20,000 customers and 100,000 open sales, ~4× faster. The sorts by overdue still age them all.
 */
export async function pageFromBalances<TRow>(
  ctx: Ctx,
  { parties, columns, idColumn, documentSide, paymentSide, today, sort, narrowed, page, pageSize }: BalancePage,
): Promise<{ rows: TRow[]; totals: AccountTotalsRow }> {
  const id = sql.raw(idColumn);
  const sorts = accountSortOrders(idColumn);
  const order = sorts[sort] ?? (sorts.name as SQL);
  // The page's parties in the list's order; by overdue, what each party owes past its due dates
  // (the aging's four overdue columns) out of its owed open documents, ordered over the parties'
  // keys alone (id and name key: an index-only scan, no balance joined), then the page's rows
  // read. `listed` is inlined wherever it is named (not materialized), so each reading keeps
  // only the columns and joins it needs.
  const byOverdue = overdueSorts.has(sort);
  const partyOrder = byOverdue ? (overdueOrders(idColumn)[sort] as SQL) : order;
  const openOf = sql`d.account_id = ${ctx.accountId}::uuid and d.side = ${documentSide}
        and d.open_amount <> 0 and d.deleted_at is null`;
  const unallocatedOf = unallocatedPayments(ctx, paymentSide);
  const { rows } = await serially(ctx, () =>
    ctx.tx.execute<{ [key: string]: unknown }>(sql`
    with listed as not materialized (${parties}),
    counted as (${
      narrowed
        ? sql`
      select count(*)::int as t_total, coalesce(sum(balance), 0)::text as t_balance from listed`
        : everyParty(ctx, documentSide)
    }), by_due as (${
      narrowed
        ? sql`
      select coalesce(d.due_date, d.date) as due,
        coalesce(sum(d.open_amount) filter (where d.open_amount > 0), 0) as owed,
        coalesce(sum(-d.open_amount) filter (where d.open_amount < 0), 0) as credit
      from commercial_documents d
      where ${openOf} and d.${id} in (select ${id} from listed)
      group by 1`
        : openAmountsByDue(ctx, documentSide)
    }), aging as (
      select ${agingOfDues(today)} from by_due
    ), unallocated_total as (
      select coalesce(sum(y.amount - y.allocated_amount), 0) as amount
      from payments y
      where ${unallocatedOf} ${narrowed ? sql`and y.${id} in (select ${id} from listed)` : sql``}
    ), page_parties as (${
      byOverdue
        ? sql`
      select l.* from listed l
      join (
        select l.${id}, o.overdue, l.name_key from listed l
        left join (
          select d.${id}, sum(d.open_amount) as overdue
          from commercial_documents d
          where ${openOf} and d.open_amount > 0 and coalesce(d.due_date, d.date) < ${today}::date
          group by d.${id}
        ) o on o.${id} = l.${id}
        order by ${partyOrder} limit ${pageSize} offset ${(page - 1) * pageSize}
      ) keys on keys.${id} = l.${id}`
        : sql`
      select * from listed l order by ${partyOrder} limit ${pageSize} offset ${(page - 1) * pageSize}`
    }), paged as (
      select l.*,${accountFigureColumns}
      from page_parties l
      left join lateral (
        select ${openDocumentSums(today)}
        from commercial_documents d where ${openOf} and d.${id} = l.${id}
      ) o on true
      left join lateral (
        select sum(y.amount - y.allocated_amount) as amount
        from payments y where ${unallocatedOf} and y.${id} = l.${id}
      ) u on true
    )
    select c.t_total, c.t_balance, a.t_current, a.t_days_0_30, a.t_days_31_60, a.t_days_61_90, a.t_days_over_90,
      (a.credit + u.amount)::text as t_on_account, page.*
    from counted c cross join aging a cross join unallocated_total u
    left join lateral (select ${columns} from paged l order by ${order}) page on true`),
  );
  return pageAnswer<TRow>(rows, idColumn);
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

/**
 * The party's balance before `startDate`, in its own sign (a provider's credits − debits, a
 * customer's debits − credits), and its entries from `startDate` to `endDate` in date order.
 * `sameDayOrder` orders the entries of one day (ids are UUID v7: creation order).
 */
export async function partyLedgerOf(
  ctx: Ctx,
  party: { kind: PartyKind; id: string; sameDayOrder: SQL },
  startDate: string,
  endDate: string,
) {
  const openingSum = party.kind === 'provider' ? sql`e.credit - e.debit` : sql`e.debit - e.credit`;
  const { rows: opening } = await ctx.tx.execute<{ balance: string }>(sql`
    select coalesce(sum(${openingSum}), 0)::text as balance
    from ledger_entries e
    where e.account_id = ${ctx.accountId}::uuid and e.party_kind = ${kindLiteral(party.kind)} and e.party_id = ${party.id}::uuid
      and e.date < ${startDate}::date`);
  const { rows } = await ctx.tx.execute<LedgerRow & { [key: string]: unknown }>(sql`
    select e.id, e.date::text as date, e.kind, e.document_id, d.document_type, d.point_of_service, d.document_number,
      d.due_date::text as due_date, e.payment_id, y.number as payment_number, e.description,
      e.debit::text as debit, e.credit::text as credit
    from ledger_entries e
    left join commercial_documents d on d.account_id = e.account_id and d.id = e.document_id
    left join payments y on y.account_id = e.account_id and y.id = e.payment_id
    where e.account_id = ${ctx.accountId}::uuid and e.party_kind = ${kindLiteral(party.kind)} and e.party_id = ${party.id}::uuid
      and e.date between ${startDate}::date and ${endDate}::date
    order by e.date, ${party.sameDayOrder}`);
  return { openingBalance: opening[0]?.balance ?? '0', rows: rows as LedgerRow[] };
}
