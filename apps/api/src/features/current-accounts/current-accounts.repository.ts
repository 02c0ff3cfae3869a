import type { ProviderAccountsQuery } from '@odontia/shared/schemas/current-accounts';
import { type SQL, sql } from 'drizzle-orm';
import type { TxContext as Ctx } from '../../context.ts';
import {
  type AccountFiguresRow,
  type AccountTotalsRow,
  accountFigureColumns,
  accountSortOrders,
  listedFigures,
  openDocumentSums,
  pageFromBalances,
  pageWithTotals,
  partyLedgerOf,
  searchWordsOf,
  serially,
} from './party-accounts.repository.ts';

/**
 * Provider current accounts (issue 17), one statement per answer whatever the number of providers:
 * the balance from `party_balances`, aging from the open documents (the partial index
 * `commercial_documents_open_idx` holds only documents with something open, so the aggregate reads
 * those, never the clinic's whole history), what is on account from unallocated, non-reversed
 * payments (partial index `payments_unallocated_idx`) and credit notes not yet applied (negative
 * open amounts). Every statement names the clinic; RLS checks it again.
 */

export interface ProviderAccountRow extends AccountFiguresRow {
  provider_id: string;
  name: string;
  nif: string | null;
  tax_id_kind: string | null;
  currency: string;
  active: boolean;
}

const sortOrders = accountSortOrders('provider_id');

/** The accounts' statement: every live provider that matches, with its figures as of `today`. */
export function accountsQuery(
  ctx: Ctx,
  today: string,
  filters: { q?: string | undefined; withBalance?: boolean; providerId?: string },
) {
  return sql`
    with open_documents as (
      select d.provider_id,${openDocumentSums(today)}
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
        coalesce(b.credits, 0) - coalesce(b.debits, 0) as balance,${accountFigureColumns}
      from providers p
      left join party_balances b
        on b.account_id = p.account_id and b.party_kind = 'provider' and b.party_id = p.id
      left join open_documents o on o.provider_id = p.id
      left join unallocated u on u.provider_id = p.id
      where p.account_id = ${ctx.accountId}::uuid and p.deleted_at is null
        ${filters.providerId ? sql`and p.id = ${filters.providerId}::uuid` : sql``}
        ${searchWordsOf('p', filters.q)}
    )
    select * from accounts ${filters.withBalance ? sql`where balance <> 0` : sql``}`;
}

/** The providers that match with their kept balance, no aging (`pageFromBalances`). */
function providersQuery(ctx: Ctx, filters: { q?: string | undefined; withBalance?: boolean }) {
  return sql`
    select * from (
      select p.id as provider_id, p.fantasy_name as name, p.nif, p.tax_id_kind, p.currency, p.active,
        coalesce(b.credits, 0) - coalesce(b.debits, 0) as balance
      from providers p
      left join party_balances b
        on b.account_id = p.account_id and b.party_kind = 'provider' and b.party_id = p.id
      where p.account_id = ${ctx.accountId}::uuid and p.deleted_at is null
        ${searchWordsOf('p', filters.q)}
    ) matched ${filters.withBalance ? sql`where balance <> 0` : sql``}`;
}

const pageColumns = (ctx: Ctx) => sql`
  l.provider_id, l.name, l.nif, l.tax_id_kind, l.currency, l.active, ${listedFigures(ctx, 'provider', 'provider_id')}`;

/** The page of accounts, the number that match and their totals (every match, not the page). */
export function listAccounts(
  ctx: Ctx,
  today: string,
  query: Pick<ProviderAccountsQuery, 'q' | 'sort' | 'page' | 'pageSize'> & { withBalance: boolean },
  paged = true,
): Promise<{ rows: ProviderAccountRow[]; totals: AccountTotalsRow }> {
  if (paged) {
    return pageFromBalances<ProviderAccountRow>(ctx, {
      parties: providersQuery(ctx, query),
      columns: pageColumns(ctx),
      idColumn: 'provider_id',
      documentSide: 'purchase',
      paymentSide: 'provider',
      today,
      sort: query.sort ?? 'name',
      narrowed: Boolean(query.q?.trim() || query.withBalance),
      page: query.page,
      pageSize: query.pageSize,
    });
  }
  return pageWithTotals<ProviderAccountRow>(ctx, {
    listed: accountsQuery(ctx, today, { q: query.q, withBalance: query.withBalance }),
    columns: pageColumns(ctx),
    idColumn: 'provider_id',
    order: sortOrders[query.sort ?? 'name'] ?? (sortOrders.name as SQL),
    paged,
    page: query.page,
    pageSize: query.pageSize,
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
    select ${pageColumns(ctx)} from listed l`),
  );
  return rows[0] as ProviderAccountRow | undefined;
}

/** The balance before `startDate` (credits − debits) and the entries from `startDate` to `endDate`, in order. */
export const ledgerOf = (ctx: Ctx, providerId: string, startDate: string, endDate: string) =>
  partyLedgerOf(ctx, { kind: 'provider', id: providerId, sameDayOrder: sql`e.id` }, startDate, endDate);
