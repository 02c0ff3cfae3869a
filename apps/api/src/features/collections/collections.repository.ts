import type { CollectionListQuery } from '@odontia/shared/schemas/collections';
import { and, asc, count, eq, getTableColumns, inArray, isNotNull, isNull, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { findPageIds, inIdOrder, searchCondition, usesTrigramIndex } from '../../db/indexed-search.ts';
import { sortedBy } from '../../db/list-query.ts';
import { commercialDocuments, customers, payments, users } from '../../db/schema/index.ts';
import type { RequestContext } from '../../plugins/routes.ts';

/**
 * Collections (issue 18): the customer side of `payments`, hand-written SQL naming the clinic in
 * every statement (RLS checks it again). Writing a collection is record-collection.ts; this file
 * reads, locks and changes the state of one.
 */

type Ctx = Pick<RequestContext, 'tx' | 'accountId'>;
const { searchText: _searchText, ...paymentColumns } = getTableColumns(payments);
export type CollectionRow = Omit<typeof payments.$inferSelect, 'searchText'>;
export type CollectionRowWithNames = CollectionRow & {
  customerName: string | null;
  customerKind: 'patient' | 'company' | 'insurer' | null;
  createdByName: string | null;
  updatedByName: string | null;
  reversedByName: string | null;
};

const creator = alias(users, 'creator');
const updater = alias(users, 'updater');
const reverser = alias(users, 'reverser');

function withNames(ctx: Ctx) {
  return ctx.tx
    .select({
      ...paymentColumns,
      customerName: sql<string | null>`coalesce(${customers.name}, ${payments.counterpartySnapshot} ->> 'name')`,
      customerKind: customers.kind,
      createdByName: creator.completeName,
      updatedByName: updater.completeName,
      reversedByName: reverser.completeName,
    })
    .from(payments)
    .leftJoin(customers, and(eq(customers.accountId, payments.accountId), eq(customers.id, payments.customerId)))
    .leftJoin(creator, and(eq(creator.accountId, payments.accountId), eq(creator.id, payments.createdBy)))
    .leftJoin(updater, and(eq(updater.accountId, payments.accountId), eq(updater.id, payments.updatedBy)))
    .leftJoin(reverser, and(eq(reverser.accountId, payments.accountId), eq(reverser.id, payments.reversedBy)));
}

const liveCollection = (accountId: string) =>
  and(eq(payments.accountId, accountId), eq(payments.side, 'customer'), isNull(payments.deletedAt));

export async function findCollection(ctx: Ctx, id: string): Promise<CollectionRowWithNames | undefined> {
  const [row] = await withNames(ctx).where(and(liveCollection(ctx.accountId), eq(payments.id, id)));
  return row;
}

/** The collection's row, locked for a change of state. */
export async function lockCollection(ctx: Ctx, id: string): Promise<CollectionRow | undefined> {
  const [row] = await ctx.tx
    .select(paymentColumns)
    .from(payments)
    .where(and(liveCollection(ctx.accountId), eq(payments.id, id)))
    .for('update');
  return row;
}

export async function updateCollection(
  ctx: Pick<RequestContext, 'tx' | 'accountId' | 'userId'>,
  id: string,
  changes: Partial<
    Pick<CollectionRow, 'status' | 'paidOn' | 'allocatedAmount' | 'reversedAt' | 'reversedBy' | 'reversalReason'>
  >,
): Promise<void> {
  await ctx.tx
    .update(payments)
    .set({ ...changes, version: sql`${payments.version} + 1`, updatedAt: new Date(), updatedBy: ctx.userId })
    .where(and(eq(payments.accountId, ctx.accountId), eq(payments.id, id)));
}

const sortColumns = { date: payments.date, number: payments.number, amount: payments.amount };

function filterOf(query: CollectionListQuery): SQL | undefined {
  return and(
    eq(payments.side, 'customer'),
    isNull(payments.deletedAt),
    query.customerId ? eq(payments.customerId, query.customerId) : undefined,
    query.patientId ? eq(payments.patientId, query.patientId) : undefined,
    query.method ? eq(payments.method, query.method) : undefined,
    query.status === 'reversed'
      ? isNotNull(payments.reversedAt)
      : query.status
        ? and(eq(payments.status, query.status), isNull(payments.reversedAt))
        : undefined,
    query.from ? sql`${payments.date} >= ${query.from}` : undefined,
    query.to ? sql`${payments.date} <= ${query.to}` : undefined,
  );
}

function orderOf(sort: string | undefined): SQL[] {
  const { column, descending } = sortedBy(sort ?? '-date', sortColumns, 'date');
  // The indexes' order (payments_list_idx, payments_customer_idx: date desc, id desc).
  const direction = (value: unknown) => (descending ? sql`${value} desc nulls last` : sql`${value} asc nulls first`);
  return [direction(column), direction(payments.id)];
}

/** Past this many matches the list says "more than 1,000". */
export const collectionCountCap = 1000;

/** One page of the clinic's collections (search through the clinic's search index). */
export async function listCollections(ctx: Ctx, query: CollectionListQuery) {
  let ids: string[];
  let total: number;
  let totalIsLowerBound = false;
  if (usesTrigramIndex(query.q)) {
    const page = await findPageIds(ctx.tx, ctx.accountId, {
      table: payments,
      id: payments.id,
      q: query.q ?? '',
      filter: filterOf(query),
      orderBy: orderOf(query.sort),
      page: query.page,
      pageSize: query.pageSize,
      countCap: collectionCountCap,
    });
    ids = page.ids;
    total = page.total;
    totalIsLowerBound = page.totalIsLowerBound;
  } else {
    const where = and(
      eq(payments.accountId, ctx.accountId),
      searchCondition(payments.searchText, query.q),
      filterOf(query),
    );
    const rows = await ctx.tx
      .select({ id: payments.id })
      .from(payments)
      .where(where)
      .orderBy(...orderOf(query.sort))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize);
    ids = rows.map((row) => row.id);
    const matches = ctx.tx
      .select({ one: sql`1`.as('one') })
      .from(payments)
      .where(where)
      .limit(collectionCountCap + 1)
      .as('matches');
    const [counted] = await ctx.tx.select({ n: count() }).from(matches);
    total = Math.min(counted?.n ?? 0, collectionCountCap);
    totalIsLowerBound = (counted?.n ?? 0) > collectionCountCap;
  }
  if (ids.length === 0) return { rows: [] as CollectionRowWithNames[], total, totalIsLowerBound };
  const rows = await withNames(ctx).where(and(liveCollection(ctx.accountId), inArray(payments.id, ids)));
  return { rows: inIdOrder(ids, rows), total, totalIsLowerBound };
}

/** A customer's issued sales with something still owed (positive open amount), oldest due first. */
export async function openDocumentsOf(ctx: Ctx, customerId: string) {
  return ctx.tx
    .select({
      id: commercialDocuments.id,
      documentType: commercialDocuments.documentType,
      pointOfService: commercialDocuments.pointOfService,
      documentNumber: commercialDocuments.documentNumber,
      date: commercialDocuments.date,
      dueDate: commercialDocuments.dueDate,
      total: commercialDocuments.total,
      currency: commercialDocuments.currency,
      openAmount: commercialDocuments.openAmount,
    })
    .from(commercialDocuments)
    .where(
      and(
        eq(commercialDocuments.accountId, ctx.accountId),
        eq(commercialDocuments.side, 'sale'),
        eq(commercialDocuments.customerId, customerId),
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
