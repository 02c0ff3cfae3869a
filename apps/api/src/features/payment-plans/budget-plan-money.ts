import Big from 'big.js';
import { sql } from 'drizzle-orm';
import type { AuditedContext as Ctx } from '../../context.ts';
import { AppError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';
import { audit } from '../audit/audit.repository.ts';
import { allocateToDocuments } from '../commercial/ledger.ts';
import { updatePayment } from '../commercial/side-payments.repository.ts';
import * as repository from './payment-plans.repository.ts';

/**
 * The money of a budget's payment plan (issue 40; docs/decisions.md "Payment plans on budgets").
 * A collection made against the plan is on-account money of the customer tagged to it
 * (`payment_plan_collections`). What of it is still on account is allocated to the invoices made
 * from the budget's lines — when the collection is made (invoices already issued) and when such an
 * invoice is issued later — oldest collection first, with the ledger's own allocation (the same one
 * POST /api/collections/:id/allocate runs), each allocation audited on its collection.
 * A cancelled plan's money stays on account: the clinic allocates it by hand, as any credit.
 *
 * This module sits below sales (the issue of an invoice calls it) and knows no service.
 */

/** The issued invoices (still owing) made from a budget's lines for this customer and currency, oldest first. */
async function openInvoicesOfBudget(ctx: Ctx, budgetId: string, customerId: string, currency: string) {
  const { rows } = await ctx.tx.execute<{ id: string; open_amount: string }>(sql`
    select d.id, d.open_amount::text as open_amount
    from commercial_documents d
    where d.account_id = ${ctx.accountId}::uuid and d.document_type = 'invoice' and d.status = 'issued'
      and d.customer_id = ${customerId}::uuid and d.currency = ${currency} and d.open_amount > 0
      and d.deleted_at is null
      and exists (
        select 1 from document_lines l join document_lines b on b.account_id = l.account_id and b.id = l.source_line_id
        where l.account_id = d.account_id and l.document_id = d.id and b.document_id = ${budgetId}::uuid)
    order by d.date, d.sequence_number, d.id`);
  return rows;
}

/** The budgets whose lines this document carries. */
async function budgetsOfDocument(ctx: Ctx, documentId: string): Promise<string[]> {
  const { rows } = await ctx.tx.execute<{ id: string }>(sql`
    select distinct b.document_id as id
    from document_lines l
    join document_lines b on b.account_id = l.account_id and b.id = l.source_line_id
    join commercial_documents budget on budget.account_id = b.account_id and budget.id = b.document_id
    where l.account_id = ${ctx.accountId}::uuid and l.document_id = ${documentId}::uuid
      and budget.document_type = 'budget'`);
  return rows.map((row) => row.id);
}

/**
 * Allocates a plan's collections still on account to these open invoices, oldest collection and
 * oldest invoice first, as far as both go. Answers what was allocated.
 */
async function allocatePlanMoney(
  ctx: Ctx,
  planId: string,
  invoices: { id: string; open_amount: string }[],
  customerId: string,
): Promise<Big> {
  const open = invoices.map((invoice) => ({ id: invoice.id, left: new Big(invoice.open_amount) }));
  let total = new Big(0);
  for (const collection of await repository.collectionsOfPlan(ctx, [planId])) {
    if (collection.customerId !== customerId) continue;
    let onAccount = new Big(collection.amount).minus(collection.allocatedAmount);
    const allocations: { documentId: string; amount: string }[] = [];
    for (const invoice of open) {
      if (onAccount.lte(0)) break;
      if (invoice.left.lte(0)) continue;
      const amount = onAccount.lt(invoice.left) ? onAccount : invoice.left;
      allocations.push({ documentId: invoice.id, amount: amount.toFixed(2) });
      invoice.left = invoice.left.minus(amount);
      onAccount = onAccount.minus(amount);
    }
    if (allocations.length === 0) continue;
    await allocateToDocuments(
      ctx,
      { paymentId: collection.paymentId, side: 'sale', partyId: customerId, currency: collection.currency },
      allocations,
    );
    const allocated = allocations.reduce((sum, allocation) => sum.plus(allocation.amount), new Big(0));
    const allocatedAmount = allocated.plus(collection.allocatedAmount).toFixed(2);
    await updatePayment(ctx, collection.paymentId, { allocatedAmount });
    await audit(ctx, {
      action: 'collection_allocated',
      entity: 'collection',
      entityId: collection.paymentId,
      before: { allocatedAmount: collection.allocatedAmount, version: collection.version },
      after: { allocatedAmount, allocations, paymentPlanId: planId, version: collection.version + 1 },
    });
    total = total.plus(allocated);
  }
  return total;
}

/**
 * A collection is being made against plan `planId`: the plan must be an active budget plan of the
 * collection's customer and currency, still owing at least `amount` (409 otherwise). Tags the
 * collection to the plan and allocates it to the budget's invoices already issued, if any.
 */
export async function tagCollectionToPlan(
  ctx: Ctx,
  input: { planId: string; paymentId: string; customerId: string; currency: string; amount: string },
): Promise<void> {
  const locked = await repository.lockPlan(ctx, input.planId);
  if (!locked) throw new AppError('payment_plan_not_found');
  const row = await repository.findPlan(ctx, input.planId);
  if (!row) throw new AppError('payment_plan_not_found');
  if (
    row.documentType !== 'budget' ||
    locked.status !== 'active' ||
    locked.customerId !== input.customerId ||
    locked.currency !== input.currency
  ) {
    throw new AppError('payment_plan_collection_invalid');
  }
  const pending = new Big(locked.total).minus(row.paid);
  if (new Big(input.amount).gt(pending)) {
    throw new AppError('payment_plan_amount_exceeds_pending', { pending: pending.lt(0) ? '0.00' : pending.toFixed(2) });
  }
  await repository.linkCollection(ctx, input.planId, input.paymentId, newId());
  await audit(ctx, {
    action: 'payment_plan_collected',
    entity: 'payment_plan',
    entityId: input.planId,
    patientId: locked.patientId,
    after: { paymentId: input.paymentId, amount: input.amount },
  });
  const invoices = await openInvoicesOfBudget(ctx, locked.documentId, input.customerId, input.currency);
  if (invoices.length > 0) await allocatePlanMoney(ctx, input.planId, invoices, input.customerId);
}

/**
 * An invoice was just issued: if its lines come from budgets with a live plan (not cancelled), the
 * plan's money still on account pays it, as far as it goes.
 */
export async function applyBudgetPlanMoney(
  ctx: Ctx,
  invoice: { id: string; customerId: string; currency: string; documentType: string },
): Promise<void> {
  if (invoice.documentType !== 'invoice') return;
  const budgets = await budgetsOfDocument(ctx, invoice.id);
  for (const budgetId of budgets) {
    const plan = await repository.activePlanOf(ctx, budgetId);
    if (!plan) continue;
    const { rows } = await ctx.tx.execute<{ open_amount: string }>(sql`
      select open_amount::text as open_amount from commercial_documents
      where account_id = ${ctx.accountId}::uuid and id = ${invoice.id}::uuid`);
    const open = rows[0]?.open_amount ?? '0';
    if (new Big(open).lte(0)) return;
    await allocatePlanMoney(ctx, plan.id, [{ id: invoice.id, open_amount: open }], invoice.customerId);
  }
}
