import { and, asc, count, eq, getTableColumns, inArray, isNotNull, isNull, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { TxContext as Ctx, WriterContext as WriteCtx } from '../../context.ts';
import { findPageIds, inIdOrder, searchCondition, usesTrigramIndex } from '../../db/indexed-search.ts';
import { sortedBy } from '../../db/list-query.ts';
import { sameClinicRow } from '../../db/records.ts';
import { commercialDocuments, paymentAllocations, payments, users } from '../../db/schema/index.ts';
import type { PartyJoin } from './party-join.ts';
import type { PaymentSide } from './payment-side.ts';

/**
 * The `payments` table of one side (issue 17 payments to providers, issue 18 collections from
 * customers): hand-written SQL, every statement naming the clinic (RLS checks it again) and the
 * side, so a provider's payment never comes out of a collection's query and the other way round.
 * What differs by side (the party's name, a list's own filters) is the caller's.
 */

const { searchText: _searchText, ...paymentColumns } = getTableColumns(payments);
export type PaymentRow = Omit<typeof payments.$inferSelect, 'searchText'>;
export interface PeopleNames {
  createdByName: string | null;
  updatedByName: string | null;
  reversedByName: string | null;
}

const creator = alias(users, 'creator');
const updater = alias(users, 'updater');
const reverser = alias(users, 'reverser');

export type PaymentWithNames<TParty> = PaymentRow & PeopleNames & TParty;

/** The live payments of the side that match, with their party's fields and people's names. */
async function withNames<TParty>(
  ctx: Ctx,
  side: PaymentSide,
  party: PartyJoin<TParty>,
  where: SQL | undefined,
): Promise<PaymentWithNames<TParty>[]> {
  const rows = await ctx.tx
    .select({
      ...paymentColumns,
      ...party.fields,
      createdByName: creator.completeName,
      updatedByName: updater.completeName,
      reversedByName: reverser.completeName,
    })
    .from(payments)
    .leftJoin(party.table, party.on)
    .leftJoin(creator, sameClinicRow(creator, payments, payments.createdBy))
    .leftJoin(updater, sameClinicRow(updater, payments, payments.updatedBy))
    .leftJoin(reverser, sameClinicRow(reverser, payments, payments.reversedBy))
    .where(and(livePayment(side, ctx.accountId), where));
  return rows as unknown as PaymentWithNames<TParty>[];
}

export async function findPayment<TParty>(ctx: Ctx, side: PaymentSide, party: PartyJoin<TParty>, id: string) {
  const [row] = await withNames(ctx, side, party, eq(payments.id, id));
  return row;
}

/** The clinic's live payments of the side. */
export const livePayment = (side: PaymentSide, accountId: string) =>
  and(eq(payments.accountId, accountId), eq(payments.side, side.party), isNull(payments.deletedAt));

/** The payment's row, locked for a change of state. */
export async function lockPayment(ctx: Ctx, side: PaymentSide, id: string): Promise<PaymentRow | undefined> {
  const [row] = await ctx.tx
    .select(paymentColumns)
    .from(payments)
    .where(and(livePayment(side, ctx.accountId), eq(payments.id, id)))
    .for('no key update');
  return row;
}

export async function insertPayment(
  ctx: WriteCtx,
  side: PaymentSide,
  row: Omit<typeof payments.$inferInsert, 'accountId' | 'createdBy' | 'updatedBy' | 'side'>,
): Promise<void> {
  await ctx.tx
    .insert(payments)
    .values({ ...row, accountId: ctx.accountId, side: side.party, createdBy: ctx.userId, updatedBy: ctx.userId });
}

export async function updatePayment(
  ctx: WriteCtx,
  id: string,
  changes: Partial<
    Pick<PaymentRow, 'status' | 'paidOn' | 'allocatedAmount' | 'reversedAt' | 'reversedBy' | 'reversalReason'>
  >,
): Promise<void> {
  await ctx.tx
    .update(payments)
    .set({ ...changes, version: sql`${payments.version} + 1`, updatedAt: new Date(), updatedBy: ctx.userId })
    .where(and(eq(payments.accountId, ctx.accountId), eq(payments.id, id)));
}

/** A document that payments settle, as its allocations and the open list show it. */
const settledDocumentColumns = {
  documentType: commercialDocuments.documentType,
  pointOfService: commercialDocuments.pointOfService,
  documentNumber: commercialDocuments.documentNumber,
  date: commercialDocuments.date,
  dueDate: commercialDocuments.dueDate,
  total: commercialDocuments.total,
};

/** The payments' allocations with their documents, oldest first. */
export async function allocationsOf(ctx: Ctx, paymentIds: string[]) {
  if (paymentIds.length === 0) return [];
  return ctx.tx
    .select({
      id: paymentAllocations.id,
      paymentId: paymentAllocations.paymentId,
      amount: paymentAllocations.amount,
      createdAt: paymentAllocations.createdAt,
      reversedAt: paymentAllocations.reversedAt,
      documentId: commercialDocuments.id,
      ...settledDocumentColumns,
    })
    .from(paymentAllocations)
    .innerJoin(
      commercialDocuments,
      sameClinicRow(commercialDocuments, paymentAllocations, paymentAllocations.documentId),
    )
    .where(and(eq(paymentAllocations.accountId, ctx.accountId), inArray(paymentAllocations.paymentId, paymentIds)))
    .orderBy(asc(paymentAllocations.createdAt), asc(commercialDocuments.date), asc(paymentAllocations.id));
}
export type AllocationRow = Awaited<ReturnType<typeof allocationsOf>>[number];

/** What every list of payments filters by; `partyFilters` are the side's own (its party, a patient, a method). */
export interface PaymentListFilter {
  status?: 'pending' | 'paid' | 'reversed';
  from?: string;
  to?: string;
}

function filterOf(side: PaymentSide, query: PaymentListFilter, partyFilters: (SQL | undefined)[]): SQL | undefined {
  return and(
    eq(payments.side, side.party),
    isNull(payments.deletedAt),
    ...partyFilters,
    query.status === 'reversed'
      ? isNotNull(payments.reversedAt)
      : query.status
        ? and(eq(payments.status, query.status), isNull(payments.reversedAt))
        : undefined,
    query.from ? sql`${payments.date} >= ${query.from}` : undefined,
    query.to ? sql`${payments.date} <= ${query.to}` : undefined,
  );
}

const sortColumns = { date: payments.date, number: payments.number, amount: payments.amount };

function orderOf(sort: string | undefined): SQL[] {
  const { column, descending } = sortedBy(sort ?? '-date', sortColumns, 'date');
  // The indexes' order (payments_list_idx, payments_provider_idx, payments_customer_idx: date desc
  // nulls last, id desc nulls last), written as they are or the planner sorts every match; numbers
  // are unique.
  const direction = (value: unknown) => (descending ? sql`${value} desc nulls last` : sql`${value} asc nulls first`);
  return [direction(column), direction(payments.id)];
}

/** Past this many matches the list says "more than 1,000". */
export const paymentCountCap = 1000;

export interface PaymentListRequest<TParty> {
  query: PaymentListFilter & { q?: string; sort?: string; page: number; pageSize: number };
  partyFilters: (SQL | undefined)[];
  party: PartyJoin<TParty>;
}

/** One page of the clinic's payments of the side (search through the clinic's search index). */
export async function listPayments<TParty>(
  ctx: Ctx,
  side: PaymentSide,
  { query, partyFilters, party }: PaymentListRequest<TParty>,
) {
  const filter = filterOf(side, query, partyFilters);
  let ids: string[];
  let total: number;
  let totalIsLowerBound = false;
  if (usesTrigramIndex(query.q)) {
    const page = await findPageIds(ctx.tx, ctx.accountId, {
      table: payments,
      id: payments.id,
      q: query.q ?? '',
      filter,
      orderBy: orderOf(query.sort),
      page: query.page,
      pageSize: query.pageSize,
      countCap: paymentCountCap,
    });
    ids = page.ids;
    total = page.total;
    totalIsLowerBound = page.totalIsLowerBound;
  } else {
    const where = and(eq(payments.accountId, ctx.accountId), searchCondition(payments.searchText, query.q), filter);
    const rows = await ctx.tx
      .select({ id: payments.id })
      .from(payments)
      .where(where)
      .orderBy(...orderOf(query.sort))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize);
    ids = rows.map((row) => row.id);
    // Counted up to the cap: a clinic's every payment is not worth counting for a page number.
    const matches = ctx.tx
      .select({ one: sql`1`.as('one') })
      .from(payments)
      .where(where)
      .limit(paymentCountCap + 1)
      .as('matches');
    const [counted] = await ctx.tx.select({ n: count() }).from(matches);
    total = Math.min(counted?.n ?? 0, paymentCountCap);
    totalIsLowerBound = (counted?.n ?? 0) > paymentCountCap;
  }
  if (ids.length === 0) return { rows: [], total, totalIsLowerBound };
  const rows = await withNames(ctx, side, party, inArray(payments.id, ids));
  return { rows: inIdOrder(ids, rows), total, totalIsLowerBound };
}

/** The party's final documents of the side with something still owed (positive open amount), oldest due first. */
export async function openDocumentsOf(ctx: Ctx, side: PaymentSide, partyId: string) {
  const partyColumn = side.party === 'provider' ? commercialDocuments.providerId : commercialDocuments.customerId;
  return ctx.tx
    .select({
      id: commercialDocuments.id,
      ...settledDocumentColumns,
      currency: commercialDocuments.currency,
      openAmount: commercialDocuments.openAmount,
    })
    .from(commercialDocuments)
    .where(
      and(
        eq(commercialDocuments.accountId, ctx.accountId),
        eq(commercialDocuments.side, side.documentSide),
        eq(partyColumn, partyId),
        sql`${commercialDocuments.openAmount} <> 0`,
        isNull(commercialDocuments.deletedAt),
        sql`${commercialDocuments.openAmount} > 0`,
        sql`${commercialDocuments.status} <> 'draft'`,
      ),
    )
    .orderBy(
      sql`coalesce(${commercialDocuments.dueDate}, ${commercialDocuments.date}) asc`,
      asc(commercialDocuments.date),
      asc(commercialDocuments.id),
    );
}
