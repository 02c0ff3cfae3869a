import { type SQL, sql } from 'drizzle-orm';
import type { RequestContext } from '../../plugins/routes.ts';
import {
  type AccountTotalsRow,
  accountFigureColumns,
  accountSortOrders,
  listedFigures,
  openDocumentSums,
  type PartyIdColumn,
  pageFromBalances,
  pageWithTotals,
  partyLedgerOf,
  searchWordsOf,
  serially,
} from './party-accounts.repository.ts';

/**
 * The current accounts of one side, written once for providers (issue 17) and customers (issue 18):
 * one statement per answer whatever the number of parties. The balance from `party_balances`;
 * aging from the side's documents with something open (the partial indexes on `open_amount` hold
 * only those, so the aggregate never reads the clinic's whole history); on account from money not
 * allocated and not reversed (the side's partial index on `payments`) plus credit notes not yet
 * applied (negative open amounts). Every statement names the clinic; RLS checks it again. What
 * differs by side is the descriptor: the party's table and columns, the balance's sign, its filters.
 */

type Ctx = Pick<RequestContext, 'tx' | 'accountId'>;

export interface AccountSide {
  /** `party_balances.party_kind`, `payments.side` and the ledger's party kind. */
  party: 'provider' | 'customer';
  documentSide: 'purchase' | 'sale';
  idColumn: PartyIdColumn;
  /** The party table's alias in the statements. */
  alias: 'p' | 'c';
  /** The party's table with its alias. */
  from: SQL;
  /** The party's listed columns (read from the alias), its id as `idColumn` first. */
  partyColumns: SQL;
  /** The same columns read back from the listed rows (`l.`). */
  listedColumns: SQL;
  /** What the party owes (customers: debits − credits) or is owed (providers: credits − debits). */
  balance: SQL;
  /** The money that counts beyond "not allocated, not reversed" (a collection may be deleted). */
  liveMoney: SQL;
  /** The order of one day's ledger entries. */
  sameDayOrder: SQL;
}

export interface AccountFilters {
  q?: string | undefined;
  withBalance?: boolean;
  partyId?: string;
  /** The side's own filter on its parties (a customer's kind). */
  partyFilter?: SQL;
}

/** The accounts' statement: every live party of the side that matches, with its figures as of `today`. */
export function accountsStatement(ctx: Ctx, side: AccountSide, today: string, filters: AccountFilters) {
  const one = (column: string) => (filters.partyId ? sql`and ${sql.raw(column)} = ${filters.partyId}::uuid` : sql``);
  const id = sql.raw(side.idColumn);
  const a = side.alias;
  return sql`
    with open_documents as (
      select d.${id},${openDocumentSums(today)}
      from commercial_documents d
      where d.account_id = ${ctx.accountId}::uuid and d.side = ${sql.raw(`'${side.documentSide}'`)}
        and d.open_amount <> 0 and d.deleted_at is null
        ${one(`d.${side.idColumn}`)}
      group by d.${id}
    ), unallocated as (
      select y.${id}, sum(y.amount - y.allocated_amount) as amount
      from payments y
      where y.account_id = ${ctx.accountId}::uuid and y.side = ${sql.raw(`'${side.party}'`)}
        and y.allocated_amount < y.amount and y.reversed_at is null${side.liveMoney}
        ${one(`y.${side.idColumn}`)}
      group by y.${id}
    ), accounts as (
      select ${side.partyColumns},
        ${side.balance} as balance,${accountFigureColumns}
      from ${side.from}
      left join party_balances b
        on b.account_id = ${sql.raw(a)}.account_id and b.party_kind = ${sql.raw(`'${side.party}'`)} and b.party_id = ${sql.raw(a)}.id
      left join open_documents o on o.${id} = ${sql.raw(a)}.id
      left join unallocated u on u.${id} = ${sql.raw(a)}.id
      where ${sql.raw(a)}.account_id = ${ctx.accountId}::uuid and ${sql.raw(a)}.deleted_at is null
        ${one(`${a}.id`)}
        ${filters.partyFilter ?? sql``}
        ${searchWordsOf(a, filters.q)}
    )
    select * from accounts ${filters.withBalance ? sql`where balance <> 0` : sql``}`;
}

/** The parties that match with their kept balance, no aging (`pageFromBalances`). */
function partiesStatement(ctx: Ctx, side: AccountSide, filters: AccountFilters) {
  const a = sql.raw(side.alias);
  return sql`
    select * from (
      select ${side.partyColumns},
        ${side.balance} as balance
      from ${side.from}
      left join party_balances b
        on b.account_id = ${a}.account_id and b.party_kind = ${sql.raw(`'${side.party}'`)} and b.party_id = ${a}.id
      where ${a}.account_id = ${ctx.accountId}::uuid and ${a}.deleted_at is null
        ${filters.partyFilter ?? sql``}
        ${searchWordsOf(side.alias, filters.q)}
    ) matched ${filters.withBalance ? sql`where balance <> 0` : sql``}`;
}

const pageColumns = (ctx: Ctx, side: AccountSide) => sql`
  ${side.listedColumns}, ${listedFigures(ctx, side.party, side.idColumn)}`;

export interface AccountsRequest extends AccountFilters {
  sort?: string | undefined;
  page: number;
  pageSize: number;
}

/** The side's accounts, read through its descriptor. */
export function sideAccounts<TRow>(side: AccountSide) {
  const sortOrders = accountSortOrders(side.idColumn);
  return {
    side,

    /** The page of accounts, the number that match and their totals (every match, not the page). */
    list(
      ctx: Ctx,
      today: string,
      query: AccountsRequest,
      paged = true,
      /** Whether a filter narrows the parties (then the page is read from the matches, not the kept balances' order). */
      narrowed = Boolean(query.q?.trim() || query.withBalance),
    ): Promise<{ rows: TRow[]; totals: AccountTotalsRow }> {
      if (paged) {
        return pageFromBalances<TRow>(ctx, {
          parties: partiesStatement(ctx, side, query),
          columns: pageColumns(ctx, side),
          idColumn: side.idColumn,
          documentSide: side.documentSide,
          paymentSide: side.party,
          today,
          sort: query.sort ?? 'name',
          narrowed,
          page: query.page,
          pageSize: query.pageSize,
        });
      }
      return pageWithTotals<TRow>(ctx, {
        listed: accountsStatement(ctx, side, today, query),
        columns: pageColumns(ctx, side),
        idColumn: side.idColumn,
        order: sortOrders[query.sort ?? 'name'] ?? (sortOrders.name as SQL),
        paged,
        page: query.page,
        pageSize: query.pageSize,
      });
    },

    /** One party's account (also an inactive one), or undefined when it is not the clinic's. */
    async find(ctx: Ctx, today: string, partyId: string): Promise<TRow | undefined> {
      const { rows } = await serially(ctx, () =>
        ctx.tx.execute<TRow & { [key: string]: unknown }>(sql`
    with listed as (${accountsStatement(ctx, side, today, { partyId })})
    select ${pageColumns(ctx, side)} from listed l`),
      );
      return rows[0] as TRow | undefined;
    },

    /** The balance before `startDate` and the entries from `startDate` to `endDate`, in order. */
    ledger: (ctx: Ctx, partyId: string, startDate: string, endDate: string) =>
      partyLedgerOf(ctx, { kind: side.party, id: partyId, sameDayOrder: side.sameDayOrder }, startDate, endDate),
  };
}
