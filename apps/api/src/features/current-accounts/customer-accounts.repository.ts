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
 * Customers' current accounts (issue 18), the providers' statement turned round: one statement per
 * answer whatever the number of customers. balance = debits − credits (`party_balances`, party
 * kind customer); aging from the customer's issued sales with something open (an index-only
 * scan of `commercial_documents_customer_open_idx`: a draft's open amount is always 0, so the
 * index's predicate is the whole filter — a status test would read every row of the table); on account = collections not allocated and not reversed
 * (`payments_customer_unallocated_idx`) + credit notes not yet applied (negative open amounts).
 * balance = Σ aging − onAccount, always. Every statement names the clinic; RLS checks it again;
 * the aggregates run without parallel workers, as the providers' do (`serially`).
 */

export interface CustomerAccountRow extends AccountFiguresRow {
  customer_id: string;
  kind: 'patient' | 'company' | 'insurer';
  patient_id: string | null;
  name: string;
  tax_id: string | null;
  tax_id_kind: string | null;
  email: string | null;
  language: string;
  active: boolean;
}

const sortOrders = accountSortOrders('customer_id');

export interface CustomerAccountFilters {
  q?: string | undefined;
  withBalance?: boolean;
  kind?: 'patient' | 'company' | 'insurer' | undefined;
  customerId?: string;
}

export function accountsQuery(ctx: Ctx, today: string, filters: CustomerAccountFilters) {
  const one = (column: string) =>
    filters.customerId ? sql`and ${sql.raw(column)} = ${filters.customerId}::uuid` : sql``;
  return sql`
    with open_documents as (
      select d.customer_id,${openDocumentSums(today)}
      from commercial_documents d
      where d.account_id = ${ctx.accountId}::uuid and d.side = 'sale'
        and d.open_amount <> 0 and d.deleted_at is null
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
        coalesce(b.debits, 0) - coalesce(b.credits, 0) as balance,${accountFigureColumns}
      from customers c
      left join party_balances b
        on b.account_id = c.account_id and b.party_kind = 'customer' and b.party_id = c.id
      left join open_documents o on o.customer_id = c.id
      left join unallocated u on u.customer_id = c.id
      where c.account_id = ${ctx.accountId}::uuid and c.deleted_at is null
        ${one('c.id')}
        ${filters.kind ? sql`and c.kind = ${filters.kind}` : sql``}
        ${searchWordsOf('c', filters.q)}
    )
    select * from accounts ${filters.withBalance ? sql`where balance <> 0` : sql``}`;
}

/** The customers that match with their kept balance, no aging (`pageFromBalances`). */
function customersQuery(ctx: Ctx, filters: CustomerAccountFilters) {
  return sql`
    select * from (
      select c.id as customer_id, c.kind, c.patient_id, c.name, c.tax_id, c.tax_id_kind, c.email, c.language, c.active,
        coalesce(b.debits, 0) - coalesce(b.credits, 0) as balance
      from customers c
      left join party_balances b
        on b.account_id = c.account_id and b.party_kind = 'customer' and b.party_id = c.id
      where c.account_id = ${ctx.accountId}::uuid and c.deleted_at is null
        ${filters.kind ? sql`and c.kind = ${filters.kind}` : sql``}
        ${searchWordsOf('c', filters.q)}
    ) matched ${filters.withBalance ? sql`where balance <> 0` : sql``}`;
}

const pageColumns = (ctx: Ctx) => sql`
  l.customer_id, l.kind, l.patient_id, l.name, l.tax_id, l.tax_id_kind, l.email, l.language, l.active,
  ${listedFigures(ctx, 'customer', 'customer_id')}`;

/** The page of accounts, the number that match and their totals (every match, not the page). */
export function listCustomerAccounts(
  ctx: Ctx,
  today: string,
  query: { q?: string | undefined; sort?: string | undefined; page: number; pageSize: number } & CustomerAccountFilters,
  paged = true,
): Promise<{ rows: CustomerAccountRow[]; totals: AccountTotalsRow }> {
  if (paged) {
    return pageFromBalances<CustomerAccountRow>(ctx, {
      parties: customersQuery(ctx, query),
      columns: pageColumns(ctx),
      idColumn: 'customer_id',
      documentSide: 'sale',
      paymentSide: 'customer',
      today,
      sort: query.sort ?? 'name',
      narrowed: Boolean(query.q?.trim() || query.kind || query.withBalance),
      page: query.page,
      pageSize: query.pageSize,
    });
  }
  return pageWithTotals<CustomerAccountRow>(ctx, {
    listed: accountsQuery(ctx, today, query),
    columns: pageColumns(ctx),
    idColumn: 'customer_id',
    order: sortOrders[query.sort ?? 'name'] ?? (sortOrders.name as SQL),
    paged,
    page: query.page,
    pageSize: query.pageSize,
  });
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
export const customerLedgerOf = (ctx: Ctx, customerId: string, startDate: string, endDate: string) =>
  partyLedgerOf(ctx, { kind: 'customer', id: customerId, sameDayOrder: sql`e.created_at, e.id` }, startDate, endDate);

/** The clinic's currency (customers have none of their own: they pay in the clinic's). */
export async function clinicCurrency(ctx: Ctx): Promise<string> {
  const { rows } = await ctx.tx.execute<{ currency: string }>(
    sql`select system_currency as currency from accounts where id = ${ctx.accountId}::uuid`,
  );
  return rows[0]?.currency ?? 'argentine_peso';
}
