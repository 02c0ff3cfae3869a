import type { CustomerLookupItem, CustomerLookupQuery } from '@odontia/shared/schemas/customers';
import Big from 'big.js';
import { and, asc, eq, inArray, isNull, ne, type SQL, sql } from 'drizzle-orm';
import type { TxContext as Ctx } from '../../context.ts';
import {
  findPageIds,
  type IndexedPageQuery,
  inIdOrder,
  searchCondition,
  usesTrigramIndex,
} from '../../db/indexed-search.ts';
import { customers, partyBalances, patients, payments } from '../../db/schema/index.ts';
import { balanceOf } from '../commercial/ledger.ts';

/**
 * GET /api/customers/lookup (issue 18): the clinic's patients and its companies and insurers in
 * one search as you type, for the sale and collection forms. Each side is read through its own
 * clinic search index (a few ms on 100,000 patients); the two short lists are merged by name.
 * Balances come from `party_balances` and the credit on account from the customers' unallocated
 * collections index — three small reads, none per row.
 */

const patientOrder = [asc(sql`lower(${patients.lastName})`), asc(sql`lower(${patients.firstName})`), asc(patients.id)];
const customerOrder = [asc(sql`lower(${customers.name})`), asc(customers.id)];

/**
 * The first `limit` matches of `q` that pass `filter`, in the search's order: the clinic's search
 * index finds their ids when the search uses it (none: nothing matches), else `searchCondition`
 * filters the read. `read` runs the side's query under the whole condition.
 */
async function searchedRows<Row extends { id: string }>(
  ctx: Ctx,
  q: string | undefined,
  limit: number,
  search: Pick<IndexedPageQuery, 'table' | 'id' | 'orderBy'>,
  filter: IndexedPageQuery['filter'],
  read: (where: SQL | undefined) => Promise<Row[]>,
): Promise<Row[]> {
  const ids = usesTrigramIndex(q)
    ? (await findPageIds(ctx.tx, ctx.accountId, { ...search, filter, q: q ?? '', page: 1, pageSize: limit })).ids
    : undefined;
  if (ids?.length === 0) return [];
  const { table, id } = search;
  const rows = await read(
    and(eq(table.accountId, ctx.accountId), filter, ids ? inArray(id, ids) : searchCondition(table.searchText, q)),
  );
  return ids ? inIdOrder(ids, rows) : rows;
}

function matchingPatients(ctx: Ctx, q: string | undefined, limit: number) {
  const live = and(isNull(patients.deletedAt), eq(patients.active, true));
  return searchedRows(ctx, q, limit, { table: patients, id: patients.id, orderBy: patientOrder }, live, (where) =>
    ctx.tx
      .select({
        id: patients.id,
        firstName: patients.firstName,
        lastName: patients.lastName,
        skuPatient: patients.skuPatient,
        ssn: patients.ssn,
        email: patients.email,
        language: patients.language,
        customerId: customers.id,
      })
      .from(patients)
      .leftJoin(customers, and(eq(customers.accountId, patients.accountId), eq(customers.patientId, patients.id)))
      .where(where)
      .orderBy(...patientOrder)
      .limit(limit),
  );
}

function matchingCompanies(ctx: Ctx, q: string | undefined, limit: number) {
  const live = and(isNull(customers.deletedAt), ne(customers.kind, 'patient'));
  return searchedRows(ctx, q, limit, { table: customers, id: customers.id, orderBy: customerOrder }, live, (where) =>
    ctx.tx
      .select()
      .from(customers)
      .where(where)
      .orderBy(...customerOrder)
      .limit(limit),
  );
}

/** Each customer's balance and credit on account, in two reads. */
async function moneyOf(ctx: Ctx, customerIds: string[]) {
  const money = new Map<string, { balance: string; onAccount: string }>();
  if (customerIds.length === 0) return money;
  const balances = await ctx.tx
    .select({ partyId: partyBalances.partyId, debits: partyBalances.debits, credits: partyBalances.credits })
    .from(partyBalances)
    .where(
      and(
        eq(partyBalances.accountId, ctx.accountId),
        eq(partyBalances.partyKind, 'customer'),
        inArray(partyBalances.partyId, customerIds),
      ),
    );
  const unallocated = await ctx.tx
    .select({
      customerId: payments.customerId,
      onAccount: sql<string>`sum(${payments.amount} - ${payments.allocatedAmount})`,
    })
    .from(payments)
    .where(
      and(
        eq(payments.accountId, ctx.accountId),
        eq(payments.side, 'customer'),
        inArray(payments.customerId, customerIds),
        sql`${payments.allocatedAmount} < ${payments.amount} and ${payments.reversedAt} is null`,
      ),
    )
    .groupBy(payments.customerId);
  const onAccountOf = new Map(unallocated.map((row) => [row.customerId, row.onAccount]));
  for (const id of customerIds) {
    const totals = balances.find((row) => row.partyId === id);
    money.set(id, {
      balance: totals ? balanceOf('customer', totals) : '0.00',
      onAccount: new Big(onAccountOf.get(id) ?? '0').toFixed(2),
    });
  }
  return money;
}

export async function lookupCustomers(ctx: Ctx, query: CustomerLookupQuery): Promise<CustomerLookupItem[]> {
  const [people, companies] = [
    await matchingPatients(ctx, query.q, query.limit),
    await matchingCompanies(ctx, query.q, query.limit),
  ];
  const items: CustomerLookupItem[] = [
    ...people.map((patient) => ({
      customerId: patient.customerId,
      patientId: patient.id,
      kind: 'patient' as const,
      name: `${patient.lastName}, ${patient.firstName}`,
      detail: [patient.skuPatient, patient.ssn].filter(Boolean).join(' · ') || null,
      email: patient.email,
      language: patient.language,
      active: true,
      balance: '0.00',
      onAccount: '0.00',
    })),
    ...companies.map((customer) => ({
      customerId: customer.id,
      patientId: null,
      kind: customer.kind,
      name: customer.name,
      detail: customer.taxId,
      email: customer.email,
      language: customer.language,
      active: customer.active,
      balance: '0.00',
      onAccount: '0.00',
    })),
  ]
    .sort((a, b) => a.name.localeCompare(b.name, 'es', { sensitivity: 'base' }))
    .slice(0, query.limit);
  const money = await moneyOf(
    ctx,
    items.flatMap((item) => (item.customerId ? [item.customerId] : [])),
  );
  return items.map((item) => ({ ...item, ...(item.customerId ? money.get(item.customerId) : {}) }));
}
