import type { PaymentListQuery } from '@odontia/shared/schemas/payments';
import { and, asc, count, eq, getTableColumns, inArray, isNotNull, isNull, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { findPageIds, inIdOrder, searchCondition, usesTrigramIndex } from '../../db/indexed-search.ts';
import { sortedBy } from '../../db/list-query.ts';
import { commercialDocuments, paymentAllocations, payments, providers, users } from '../../db/schema/index.ts';
import type { RequestContext } from '../../plugins/routes.ts';
import { nextCounterValue } from '../patients/patients.repository.ts';

/**
 * Payments to providers (issue 17): hand-written SQL, every statement naming the clinic (RLS checks
 * it again). Only provider-side payments come out of these queries.
 */

type Ctx = Pick<RequestContext, 'tx' | 'accountId'>;
const { searchText: _searchText, ...paymentColumns } = getTableColumns(payments);
export type PaymentRow = Omit<typeof payments.$inferSelect, 'searchText'>;
export type PaymentRowWithNames = PaymentRow & {
  providerName: string | null;
  createdByName: string | null;
  updatedByName: string | null;
  reversedByName: string | null;
};

const creator = alias(users, 'creator');
const updater = alias(users, 'updater');
const reverser = alias(users, 'reverser');

/** The clinic's next proof-of-payment number: OP-000001, OP-000002… (account_counters 'payment_provider'). */
export async function nextPaymentNumber(ctx: Ctx): Promise<string> {
  const value = await nextCounterValue(ctx, 'payment_provider');
  return `OP-${String(value).padStart(6, '0')}`;
}

/** A live provider of the clinic. */
export async function findProvider(ctx: Ctx, id: string) {
  const [row] = await ctx.tx
    .select()
    .from(providers)
    .where(and(eq(providers.accountId, ctx.accountId), eq(providers.id, id), isNull(providers.deletedAt)));
  return row;
}

function withNames(ctx: Ctx) {
  return ctx.tx
    .select({
      ...paymentColumns,
      providerName: sql<string | null>`coalesce(${providers.fantasyName}, ${payments.counterpartySnapshot} ->> 'name')`,
      createdByName: creator.completeName,
      updatedByName: updater.completeName,
      reversedByName: reverser.completeName,
    })
    .from(payments)
    .leftJoin(providers, and(eq(providers.accountId, payments.accountId), eq(providers.id, payments.providerId)))
    .leftJoin(creator, and(eq(creator.accountId, payments.accountId), eq(creator.id, payments.createdBy)))
    .leftJoin(updater, and(eq(updater.accountId, payments.accountId), eq(updater.id, payments.updatedBy)))
    .leftJoin(reverser, and(eq(reverser.accountId, payments.accountId), eq(reverser.id, payments.reversedBy)));
}

const livePayment = (accountId: string) =>
  and(eq(payments.accountId, accountId), eq(payments.side, 'provider'), isNull(payments.deletedAt));

export async function findPayment(ctx: Ctx, id: string): Promise<PaymentRowWithNames | undefined> {
  const [row] = await withNames(ctx).where(and(livePayment(ctx.accountId), eq(payments.id, id)));
  return row;
}

/** The payment's row, locked for a change of state. */
export async function lockPayment(ctx: Ctx, id: string): Promise<PaymentRow | undefined> {
  const [row] = await ctx.tx
    .select(paymentColumns)
    .from(payments)
    .where(and(livePayment(ctx.accountId), eq(payments.id, id)))
    .for('update');
  return row;
}

export async function insertPayment(
  ctx: Pick<RequestContext, 'tx' | 'accountId' | 'userId'>,
  row: Omit<typeof payments.$inferInsert, 'accountId' | 'createdBy' | 'updatedBy' | 'side'>,
): Promise<void> {
  await ctx.tx
    .insert(payments)
    .values({ ...row, accountId: ctx.accountId, side: 'provider', createdBy: ctx.userId, updatedBy: ctx.userId });
}

export async function updatePayment(
  ctx: Pick<RequestContext, 'tx' | 'accountId' | 'userId'>,
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
      documentType: commercialDocuments.documentType,
      pointOfService: commercialDocuments.pointOfService,
      documentNumber: commercialDocuments.documentNumber,
      date: commercialDocuments.date,
      dueDate: commercialDocuments.dueDate,
      total: commercialDocuments.total,
    })
    .from(paymentAllocations)
    .innerJoin(
      commercialDocuments,
      and(
        eq(commercialDocuments.accountId, paymentAllocations.accountId),
        eq(commercialDocuments.id, paymentAllocations.documentId),
      ),
    )
    .where(and(eq(paymentAllocations.accountId, ctx.accountId), inArray(paymentAllocations.paymentId, paymentIds)))
    .orderBy(asc(paymentAllocations.createdAt), asc(commercialDocuments.date), asc(paymentAllocations.id));
}

const sortColumns = { date: payments.date, number: payments.number, amount: payments.amount };

function filterOf(query: PaymentListQuery): SQL | undefined {
  return and(
    eq(payments.side, 'provider'),
    isNull(payments.deletedAt),
    query.providerId ? eq(payments.providerId, query.providerId) : undefined,
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
  // The indexes' order (payments_list_idx, payments_provider_idx: date desc nulls last, id desc
  // nulls last), written as they are or the planner sorts every match; numbers are unique.
  const direction = (value: unknown) => (descending ? sql`${value} desc nulls last` : sql`${value} asc nulls first`);
  return [direction(column), direction(payments.id)];
}

/** Past this many matches the list says "more than 1,000". */
export const paymentCountCap = 1000;

/** One page of the clinic's payments to providers (search through the clinic's search index). */
export async function listPayments(ctx: Ctx, query: PaymentListQuery) {
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
      countCap: paymentCountCap,
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
  if (ids.length === 0) return { rows: [] as PaymentRowWithNames[], total, totalIsLowerBound };
  const rows = await withNames(ctx).where(and(livePayment(ctx.accountId), inArray(payments.id, ids)));
  return { rows: inIdOrder(ids, rows), total, totalIsLowerBound };
}

/** A provider's registered documents with something still owed (positive open amount), oldest due first. */
export async function openDocumentsOf(ctx: Ctx, providerId: string) {
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
        eq(commercialDocuments.side, 'purchase'),
        eq(commercialDocuments.providerId, providerId),
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

/** The clinic's name and contact for a printed header, and the reader's language. */
export async function readerOf(ctx: Pick<RequestContext, 'tx' | 'accountId' | 'userId'>) {
  const { rows } = await ctx.tx.execute<{ clinic_name: string; contact: string | null; language: string | null }>(sql`
    select a.clinic_name, a.contact,
      (select u.system_language from users u where u.account_id = ${ctx.accountId}::uuid and u.id = ${ctx.userId}::uuid) as language
    from accounts a where a.id = ${ctx.accountId}::uuid`);
  const row = rows[0];
  return {
    clinicName: row?.clinic_name ?? '',
    clinicContact: row?.contact ?? '',
    readerLanguage: row?.language ?? null,
  };
}
