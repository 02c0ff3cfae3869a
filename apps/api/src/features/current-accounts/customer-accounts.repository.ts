import { sql } from 'drizzle-orm';
import type { RequestContext } from '../../plugins/routes.ts';
import type { AccountFiguresRow } from './party-accounts.repository.ts';
import { accountsStatement, sideAccounts } from './side-accounts.repository.ts';

/**
 * Customers' current accounts (issue 18) on the statements of either side
 * (side-accounts.repository.ts), the providers' turned round. balance = debits − credits (`party_balances`, party
 * kind customer); aging from the customer's issued sales with something open (an index-only
 * scan of `commercial_documents_customer_open_idx`: a draft's open amount is always 0, so the
 * index's predicate is the whole filter — a status test would read every row of the table); on account = collections not allocated and not reversed
 * (`payments_customer_unallocated_idx`) + credit notes not yet applied (negative open amounts).
 * balance = Σ aging − onAccount, always. Every statement names the clinic; RLS checks it again;
 * the aggregates run without parallel workers, as the providers' do (`serially`).
 */

type Ctx = Pick<RequestContext, 'tx' | 'accountId'>;

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

export interface CustomerAccountFilters {
  q?: string | undefined;
  withBalance?: boolean;
  kind?: 'patient' | 'company' | 'insurer' | undefined;
  customerId?: string;
}

const customerAccounts = sideAccounts<CustomerAccountRow>({
  party: 'customer',
  documentSide: 'sale',
  idColumn: 'customer_id',
  alias: 'c',
  from: sql`customers c`,
  partyColumns: sql`c.id as customer_id, c.kind, c.patient_id, c.name, c.name_key, c.tax_id, c.tax_id_kind, c.email, c.language, c.active`,
  listedColumns: sql`l.customer_id, l.kind, l.patient_id, l.name, l.tax_id, l.tax_id_kind, l.email, l.language, l.active`,
  balance: sql`coalesce(b.debits, 0) - coalesce(b.credits, 0)`,
  liveMoney: sql` and y.deleted_at is null`,
  sameDayOrder: sql`e.created_at, e.id`,
});

/** The customers' filters as either side's statements take them (a kind is the customers' own). */
const sideFilters = ({ kind, customerId, ...filters }: CustomerAccountFilters) => ({
  ...filters,
  ...(customerId ? { partyId: customerId } : {}),
  ...(kind ? { partyFilter: sql`and c.kind = ${kind}` } : {}),
});

/** The accounts' statement: every live customer that matches, with its figures as of `today` (reports read it). */
export const accountsQuery = (ctx: Ctx, today: string, filters: CustomerAccountFilters) =>
  accountsStatement(ctx, customerAccounts.side, today, sideFilters(filters));

/** The page of accounts, the number that match and their totals (every match, not the page). */
export function listCustomerAccounts(
  ctx: Ctx,
  today: string,
  query: { q?: string | undefined; sort?: string | undefined; page: number; pageSize: number } & CustomerAccountFilters,
  paged = true,
) {
  const { sort, page, pageSize } = query;
  return customerAccounts.list(
    ctx,
    today,
    { ...sideFilters(query), sort, page, pageSize },
    paged,
    Boolean(query.q?.trim() || query.kind || query.withBalance),
  );
}

/** One customer's account (also an inactive one), or undefined when it is not the clinic's. */
export const findCustomerAccount = (ctx: Ctx, today: string, customerId: string) =>
  customerAccounts.find(ctx, today, customerId);

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
export const customerLedgerOf = customerAccounts.ledger;

/** The clinic's currency (customers have none of their own: they pay in the clinic's). */
export async function clinicCurrency(ctx: Ctx): Promise<string> {
  const { rows } = await ctx.tx.execute<{ currency: string }>(
    sql`select system_currency as currency from accounts where id = ${ctx.accountId}::uuid`,
  );
  return rows[0]?.currency ?? 'argentine_peso';
}
