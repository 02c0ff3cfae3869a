import { and, asc, desc, eq, gt, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { TenantScope } from '../../db/list-query.ts';
import {
  commercialDocuments,
  customers,
  paymentAllocations,
  paymentPlanCollections,
  paymentPlanInstalments,
  paymentPlans,
  payments,
} from '../../db/schema/index.ts';

/**
 * Payment plans (issue 40): what the service reads and writes. What a plan has been paid is read
 * from its documents in the same statement (`paidSql`): the invoice's paid part since the plan
 * started plus its interest note's paid part. A budget's plan (issue 40) is paid by the collections
 * made against it (`payment_plan_collections`), live ones, whatever they were allocated to since.
 */

const invoice = alias(commercialDocuments, 'plan_invoice');
const interestNote = alias(commercialDocuments, 'plan_interest_note');

/** What the collections made against a (budget's) plan add up to, reversed ones left out. */
const collectedSql = sql`(select coalesce(sum(p.amount), 0) from payment_plan_collections c
  join payments p on p.account_id = c.account_id and p.id = c.payment_id
  where c.account_id = ${paymentPlans.accountId} and c.plan_id = ${paymentPlans.id} and p.reversed_at is null)`;

/** What was paid towards the plan: never below zero. */
const paidSql = sql<string>`(case when ${invoice.documentType} = 'budget' then ${collectedSql}
  else greatest(0, (${invoice.total} - ${invoice.openAmount}) - ${paymentPlans.startPaid} + coalesce(${interestNote.total} - ${interestNote.openAmount}, 0)) end)::text`;

const planColumns = {
  plan: paymentPlans,
  documentNumber: invoice.documentNumber,
  pointOfService: invoice.pointOfService,
  documentType: invoice.documentType,
  interestDocumentNumber: interestNote.documentNumber,
  interestPointOfService: interestNote.pointOfService,
  customerName: customers.name,
  paid: paidSql,
};

function planQuery(scope: TenantScope) {
  return scope.tx
    .select(planColumns)
    .from(paymentPlans)
    .innerJoin(invoice, and(eq(invoice.accountId, paymentPlans.accountId), eq(invoice.id, paymentPlans.documentId)))
    .leftJoin(
      interestNote,
      and(eq(interestNote.accountId, paymentPlans.accountId), eq(interestNote.id, paymentPlans.interestDocumentId)),
    )
    .innerJoin(
      customers,
      and(eq(customers.accountId, paymentPlans.accountId), eq(customers.id, paymentPlans.customerId)),
    );
}

export type PlanRow = Awaited<ReturnType<typeof findPlan>> & {};

export async function findPlan(scope: TenantScope, id: string) {
  const [row] = await planQuery(scope).where(and(eq(paymentPlans.accountId, scope.accountId), eq(paymentPlans.id, id)));
  return row;
}

export async function lockPlan(scope: TenantScope, id: string) {
  const [row] = await scope.tx
    .select()
    .from(paymentPlans)
    .where(and(eq(paymentPlans.accountId, scope.accountId), eq(paymentPlans.id, id)))
    .for('update');
  return row;
}

/** The active plan of a document, if any. */
export async function activePlanOf(scope: TenantScope, documentId: string) {
  const [row] = await scope.tx
    .select({ id: paymentPlans.id })
    .from(paymentPlans)
    .where(
      and(
        eq(paymentPlans.accountId, scope.accountId),
        eq(paymentPlans.documentId, documentId),
        eq(paymentPlans.status, 'active'),
      ),
    );
  return row;
}

export async function pagePlans(
  scope: TenantScope,
  filters: {
    status?: 'active' | 'completed' | 'cancelled';
    documentId?: string;
    customerId?: string;
    patientId?: string;
  },
  page: { page: number; pageSize: number },
) {
  const conditions: SQL[] = [eq(paymentPlans.accountId, scope.accountId)];
  if (filters.documentId) conditions.push(eq(paymentPlans.documentId, filters.documentId));
  if (filters.customerId) conditions.push(eq(paymentPlans.customerId, filters.customerId));
  if (filters.patientId) conditions.push(eq(paymentPlans.patientId, filters.patientId));
  if (filters.status === 'cancelled') conditions.push(eq(paymentPlans.status, 'cancelled'));
  else if (filters.status === 'active')
    conditions.push(sql`${paymentPlans.status} = 'active' and ${paidSql}::numeric < ${paymentPlans.total}`);
  else if (filters.status === 'completed')
    conditions.push(sql`${paymentPlans.status} = 'active' and ${paidSql}::numeric >= ${paymentPlans.total}`);
  const where = and(...conditions);
  const rows = await planQuery(scope)
    .where(where)
    .orderBy(desc(paymentPlans.createdAt), desc(paymentPlans.id))
    .limit(page.pageSize)
    .offset((page.page - 1) * page.pageSize);
  const [count] = await scope.tx
    .select({ total: sql<number>`count(*)::int` })
    .from(paymentPlans)
    .innerJoin(invoice, and(eq(invoice.accountId, paymentPlans.accountId), eq(invoice.id, paymentPlans.documentId)))
    .leftJoin(
      interestNote,
      and(eq(interestNote.accountId, paymentPlans.accountId), eq(interestNote.id, paymentPlans.interestDocumentId)),
    )
    .where(where);
  return { rows, total: count?.total ?? 0 };
}

/** The instalments of these plans, in order (one query for a page of plans). */
export function instalmentsOf(scope: TenantScope, planIds: string[]) {
  if (planIds.length === 0) return Promise.resolve([]);
  return scope.tx
    .select()
    .from(paymentPlanInstalments)
    .where(and(eq(paymentPlanInstalments.accountId, scope.accountId), inArray(paymentPlanInstalments.planId, planIds)))
    .orderBy(asc(paymentPlanInstalments.planId), asc(paymentPlanInstalments.number));
}

export async function insertPlan(
  scope: TenantScope,
  plan: typeof paymentPlans.$inferInsert,
  instalments: (typeof paymentPlanInstalments.$inferInsert)[],
) {
  await scope.tx.insert(paymentPlans).values(plan);
  await scope.tx.insert(paymentPlanInstalments).values(instalments);
}

export async function cancelPlan(
  scope: TenantScope & { userId: string },
  id: string,
  change: { reason: string; version: number },
) {
  await scope.tx
    .update(paymentPlans)
    .set({
      status: 'cancelled',
      cancelReason: change.reason,
      cancelledAt: new Date(),
      cancelledBy: scope.userId,
      version: change.version + 1,
      updatedAt: new Date(),
      updatedBy: scope.userId,
    })
    .where(and(eq(paymentPlans.accountId, scope.accountId), eq(paymentPlans.id, id)));
}

/**
 * The unpaid instalments of active plans, by due date: overdue (due before `today`), due (up to
 * `to`) or every open one. An instalment is unpaid while what its plan was paid is below its
 * cumulative amount. Read through `payment_plan_instalments_due_idx` (account_id, due_on, id).
 */
export async function pageInstalments(
  scope: TenantScope,
  filters: { before?: string; to?: string; customerId?: string },
  page: { page: number; pageSize: number },
) {
  const conditions: SQL[] = [
    eq(paymentPlanInstalments.accountId, scope.accountId),
    eq(paymentPlans.status, 'active'),
    sql`${paidSql}::numeric < ${paymentPlanInstalments.cumulative}`,
  ];
  if (filters.before) conditions.push(sql`${paymentPlanInstalments.dueOn} < ${filters.before}`);
  if (filters.to) conditions.push(sql`${paymentPlanInstalments.dueOn} <= ${filters.to}`);
  if (filters.customerId) conditions.push(eq(paymentPlans.customerId, filters.customerId));
  const where = and(...conditions);
  const base = () =>
    scope.tx
      .select({ ...planColumns, instalment: paymentPlanInstalments, count: sql<number>`count(*) over ()::int` })
      .from(paymentPlanInstalments)
      .innerJoin(
        paymentPlans,
        and(
          eq(paymentPlans.accountId, paymentPlanInstalments.accountId),
          eq(paymentPlans.id, paymentPlanInstalments.planId),
        ),
      )
      .innerJoin(invoice, and(eq(invoice.accountId, paymentPlans.accountId), eq(invoice.id, paymentPlans.documentId)))
      .leftJoin(
        interestNote,
        and(eq(interestNote.accountId, paymentPlans.accountId), eq(interestNote.id, paymentPlans.interestDocumentId)),
      )
      .innerJoin(
        customers,
        and(eq(customers.accountId, paymentPlans.accountId), eq(customers.id, paymentPlans.customerId)),
      );
  const rows = await base()
    .where(where)
    .orderBy(asc(paymentPlanInstalments.dueOn), asc(paymentPlanInstalments.id))
    .limit(page.pageSize)
    .offset((page.page - 1) * page.pageSize);
  let total = rows[0]?.count ?? 0;
  if (rows.length === 0 && page.page > 1) {
    const [first] = await base().where(where).limit(1);
    total = first?.count ?? 0;
  }
  return { rows, total };
}

/** Overdue instalments of the clinic (count and unpaid amount), for the dashboard. */
export async function overdueFigures(scope: TenantScope, today: string) {
  const [row] = await scope.tx
    .select({
      count: sql<number>`count(*)::int`,
      amount: sql<string>`coalesce(sum(least(${paymentPlanInstalments.amount}, ${paymentPlanInstalments.cumulative} - ${paidSql}::numeric)), 0)::text`,
    })
    .from(paymentPlanInstalments)
    .innerJoin(
      paymentPlans,
      and(
        eq(paymentPlans.accountId, paymentPlanInstalments.accountId),
        eq(paymentPlans.id, paymentPlanInstalments.planId),
      ),
    )
    .innerJoin(invoice, and(eq(invoice.accountId, paymentPlans.accountId), eq(invoice.id, paymentPlans.documentId)))
    .leftJoin(
      interestNote,
      and(eq(interestNote.accountId, paymentPlans.accountId), eq(interestNote.id, paymentPlans.interestDocumentId)),
    )
    .where(
      and(
        eq(paymentPlanInstalments.accountId, scope.accountId),
        eq(paymentPlans.status, 'active'),
        sql`${paymentPlanInstalments.dueOn} < ${today}`,
        sql`${paidSql}::numeric < ${paymentPlanInstalments.cumulative}`,
      ),
    );
  return { count: row?.count ?? 0, amount: row?.amount ?? '0' };
}

/** The live allocations of a payment (collection), oldest first. */
export function allocationsOfPayment(scope: TenantScope, paymentId: string) {
  return scope.tx
    .select({
      id: paymentAllocations.id,
      documentId: paymentAllocations.documentId,
      amount: paymentAllocations.amount,
      createdAt: paymentAllocations.createdAt,
    })
    .from(paymentAllocations)
    .where(
      and(
        eq(paymentAllocations.accountId, scope.accountId),
        eq(paymentAllocations.paymentId, paymentId),
        isNull(paymentAllocations.reversedAt),
      ),
    )
    .orderBy(asc(paymentAllocations.createdAt), asc(paymentAllocations.id));
}

/** Every plan (any status) over these documents, with its invoice's number. */
export function plansOfDocuments(scope: TenantScope, documentIds: string[]) {
  return planQuery(scope).where(
    and(
      eq(paymentPlans.accountId, scope.accountId),
      or(inArray(paymentPlans.documentId, documentIds), inArray(paymentPlans.interestDocumentId, documentIds)),
    ),
  );
}

/** The live allocations to a plan's documents made after it started, oldest first. */
export function allocationsSince(scope: TenantScope, documentIds: string[], since: Date) {
  return scope.tx
    .select({ id: paymentAllocations.id, amount: paymentAllocations.amount, createdAt: paymentAllocations.createdAt })
    .from(paymentAllocations)
    .where(
      and(
        eq(paymentAllocations.accountId, scope.accountId),
        inArray(paymentAllocations.documentId, documentIds),
        isNull(paymentAllocations.reversedAt),
        gt(paymentAllocations.createdAt, since),
      ),
    )
    .orderBy(asc(paymentAllocations.createdAt), asc(paymentAllocations.id));
}

/** Tags a collection to a (budget's) plan. */
export async function linkCollection(scope: TenantScope, planId: string, paymentId: string, id: string) {
  await scope.tx.insert(paymentPlanCollections).values({ accountId: scope.accountId, id, planId, paymentId });
}

/** The plan a collection was made against, if any. */
export async function planOfCollection(scope: TenantScope, paymentId: string) {
  const [row] = await scope.tx
    .select({ id: paymentPlanCollections.id, planId: paymentPlanCollections.planId })
    .from(paymentPlanCollections)
    .where(and(eq(paymentPlanCollections.accountId, scope.accountId), eq(paymentPlanCollections.paymentId, paymentId)));
  return row;
}

/** The live collections made against a plan, oldest first, with what of each is still on account. */
export function collectionsOfPlan(scope: TenantScope, planIds: string[]) {
  if (planIds.length === 0) return Promise.resolve([]);
  return scope.tx
    .select({
      planId: paymentPlanCollections.planId,
      paymentId: payments.id,
      amount: payments.amount,
      allocatedAmount: payments.allocatedAmount,
      currency: payments.currency,
      customerId: payments.customerId,
      version: payments.version,
    })
    .from(paymentPlanCollections)
    .innerJoin(
      payments,
      and(eq(payments.accountId, paymentPlanCollections.accountId), eq(payments.id, paymentPlanCollections.paymentId)),
    )
    .where(
      and(
        eq(paymentPlanCollections.accountId, scope.accountId),
        inArray(paymentPlanCollections.planId, planIds),
        isNull(payments.reversedAt),
      ),
    )
    .orderBy(asc(paymentPlanCollections.createdAt), asc(paymentPlanCollections.id));
}
