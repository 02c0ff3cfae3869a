import { addDays, clinicToday, instantOfClinicWallTime } from '@odontia/shared/clinic-time';
import type { Currency } from '@odontia/shared/enums';
import {
  fitsInstalments,
  instalmentState,
  type PaymentPlanFrequency,
  planSchedule,
} from '@odontia/shared/payment-plans';
import type {
  CollectionInstalments,
  cancelPaymentPlanSchema,
  createPaymentPlanSchema,
  Instalment,
  instalmentsQuerySchema,
  PaymentPlan,
  PaymentPlanStatus,
  PlanInstalment,
  paymentPlansQuerySchema,
} from '@odontia/shared/schemas/payment-plans';
import Big from 'big.js';
import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { RequestContext } from '../../context.ts';
import type { TenantScope } from '../../db/list-query.ts';
import { accounts, type paymentPlanInstalments } from '../../db/schema/index.ts';
import { AppError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';
import { audit } from '../audit/audit.repository.ts';
import { invalidFields } from '../clinical/clinical.service.ts';
import { cancelQueuedJobs, enqueueJobs, type NewJob } from '../jobs/jobs.repository.ts';
import { decisionOf } from '../sales/budgets.repository.ts';
import { budgetsService } from '../sales/budgets.service.ts';
import { lockSale } from '../sales/sales.repository.ts';
import { salesService } from '../sales/sales.service.ts';
import * as repository from './payment-plans.repository.ts';

/**
 * Payment plans (issue 40): an issued invoice (or debit note) of a customer paid in instalments.
 *
 * - Created over what the document still owes (or less): the schedule is `planSchedule` of
 *   packages/shared, the same function the form's preview runs. The plan keeps what the document
 *   had been paid when it started; everything paid to it afterwards — collections allocated to
 *   it, credit notes — pays the instalments oldest first. An instalment's state (pending, partly
 *   paid, paid, overdue) is computed from that and the clinic's today: never stale, no daily job.
 * - Interest (an annual rate): charged by a debit note of the invoice for the schedule's whole
 *   interest, issued with the plan, so the customer's current account owes exactly the plan's
 *   total; what is paid to the note counts for the plan too.
 * - A plan is never edited. Cancelling (with a reason) leaves the documents' debt as it was (the
 *   interest note too: the clinic credits it if it waives the interest); a new plan over what is
 *   still pending replaces it. One active plan per document (a unique index).
 * - Reminders: one job per instalment N days before it is due (the clinic's
 *   `instalment_reminder_days`, 0: none) and one the day after it is due; each checks again that
 *   the instalment is still unpaid (instalment-reminder.job.ts). Cancelling drops them.
 * - Every write audited (entity 'payment_plan').
 *
 * A plan on an ACCEPTED budget (a dental clinic's implant budget paid in six monthly instalments
 * before and while the work is done; docs/decisions.md "Payment plans on budgets"): the same
 * schedule over the budget's lines not yet invoiced, interest-free (a budget owes nothing yet, so
 * there is no document an interest could honestly be charged on). Its instalments are the
 * patient's due items like any plan's; it is paid by the collections made against it (on-account
 * money of the customer tagged to the plan, `payment_plan_collections`), oldest instalment first;
 * when the budget's lines are invoiced that money is allocated to the invoices
 * (budget-plan-money.ts). Cancelling leaves the money collected on account.
 */

type CreateInput = z.output<typeof createPaymentPlanSchema>;
type CancelInput = z.output<typeof cancelPaymentPlanSchema>;
type Ctx = RequestContext;

export const instalmentReminderJobKind = 'instalment_reminder';
/** The wall-clock hour reminders leave on their day. */
const reminderHour = '09:00';

type InstalmentRow = typeof paymentPlanInstalments.$inferSelect;

const numberOf = (pointOfService: string | null, documentNumber: string | null) =>
  documentNumber ? (pointOfService ? `${pointOfService}-${documentNumber}` : documentNumber) : null;

function presentInstalment(row: InstalmentRow, paid: string, today: string): Instalment {
  const state = instalmentState(row, paid, today);
  return {
    id: row.id,
    number: row.number,
    dueOn: row.dueOn,
    principal: row.principal,
    interest: row.interest,
    amount: row.amount,
    paid: state.paid,
    state: state.state,
  };
}

function present(row: repository.PlanRow, instalments: InstalmentRow[], today: string): PaymentPlan {
  const plan = row.plan;
  const paid = new Big(row.paid);
  const capped = paid.gt(plan.total) ? new Big(plan.total) : paid;
  const shown = instalments.map((instalment) => presentInstalment(instalment, capped.toFixed(2), today));
  const status: PaymentPlanStatus =
    plan.status === 'cancelled' ? 'cancelled' : capped.gte(plan.total) ? 'completed' : 'active';
  return {
    id: plan.id,
    documentId: plan.documentId,
    documentNumber: numberOf(row.pointOfService, row.documentNumber),
    documentType: row.documentType,
    customerId: plan.customerId,
    customerName: row.customerName,
    patientId: plan.patientId,
    currency: plan.currency as Currency,
    principal: plan.principal,
    interest: plan.interest,
    total: plan.total,
    paid: capped.toFixed(2),
    pending: new Big(plan.total).minus(capped).toFixed(2),
    instalmentCount: plan.instalmentCount,
    firstDueOn: plan.firstDueOn,
    frequency: plan.frequency as PaymentPlanFrequency,
    annualRate: plan.annualRate,
    interestDocumentId: plan.interestDocumentId,
    interestDocumentNumber: numberOf(row.interestPointOfService, row.interestDocumentNumber),
    status,
    overdueCount: status === 'cancelled' ? 0 : shown.filter((i) => i.state === 'overdue').length,
    notes: plan.notes,
    replacesId: plan.replacesId,
    cancelReason: plan.cancelReason,
    cancelledAt: plan.cancelledAt?.toISOString() ?? null,
    createdAt: plan.createdAt.toISOString(),
    version: plan.version,
    instalments: shown,
  };
}

async function get({ ctx, id }: { ctx: Ctx; id: string }): Promise<PaymentPlan> {
  const row = await repository.findPlan(ctx, id);
  if (!row) throw new AppError('payment_plan_not_found');
  return present(row, await repository.instalmentsOf(ctx, [id]), clinicToday(ctx.timeZone));
}

async function list({ ctx, query }: { ctx: Ctx; query: z.output<typeof paymentPlansQuerySchema> }) {
  const { rows, total } = await repository.pagePlans(ctx, query, query);
  const instalments = await repository.instalmentsOf(
    ctx,
    rows.map((row) => row.plan.id),
  );
  const byPlan = new Map<string, InstalmentRow[]>();
  for (const row of instalments) byPlan.set(row.planId, [...(byPlan.get(row.planId) ?? []), row]);
  const today = clinicToday(ctx.timeZone);
  return {
    data: rows.map((row) => present(row, byPlan.get(row.plan.id) ?? [], today)),
    total,
    page: query.page,
    pageSize: query.pageSize,
  };
}

async function listInstalments({ ctx, query }: { ctx: Ctx; query: z.output<typeof instalmentsQuerySchema> }) {
  const today = clinicToday(ctx.timeZone);
  const filters =
    query.view === 'overdue'
      ? { before: today, customerId: query.customerId }
      : query.view === 'due'
        ? { to: query.to ?? addDays(today, 30), customerId: query.customerId }
        : { customerId: query.customerId };
  const { rows, total } = await repository.pageInstalments(ctx, filters, query);
  return {
    data: rows.map((row): PlanInstalment => {
      const paid = new Big(row.paid).gt(row.plan.total) ? row.plan.total : row.paid;
      return {
        ...presentInstalment(row.instalment, paid, today),
        planId: row.plan.id,
        instalmentCount: row.plan.instalmentCount,
        documentId: row.plan.documentId,
        documentNumber: numberOf(row.pointOfService, row.documentNumber),
        customerId: row.plan.customerId,
        customerName: row.customerName,
        patientId: row.plan.patientId,
        currency: row.plan.currency as Currency,
      };
    }),
    total,
    page: query.page,
    pageSize: query.pageSize,
  };
}

/** The reminder jobs of a new plan's instalments: before (N days) and after (the next day) each due date. */
async function reminderJobs(ctx: TenantScope, instalments: { id: string; dueOn: string }[], now = new Date()) {
  const [clinic] = await ctx.tx
    .select({ days: accounts.instalmentReminderDays, timeZone: accounts.timeZone })
    .from(accounts)
    .where(eq(accounts.id, ctx.accountId));
  if (!clinic) return [];
  const today = clinicToday(clinic.timeZone, now);
  const jobs: NewJob[] = [];
  for (const instalment of instalments) {
    const at = (day: string) => instantOfClinicWallTime(`${day}T${reminderHour}`, clinic.timeZone) ?? now;
    if (clinic.days > 0) {
      const day = addDays(instalment.dueOn, -clinic.days);
      // Not for an instalment already due: the overdue reminder speaks for it.
      if (instalment.dueOn >= today) {
        const runAt = at(day);
        jobs.push({
          kind: instalmentReminderJobKind,
          key: `${instalment.id}:before`,
          runAt: runAt.getTime() > now.getTime() ? runAt : now,
          payload: { instalmentId: instalment.id, when: 'before' },
        });
      }
    }
    const after = at(addDays(instalment.dueOn, 1));
    jobs.push({
      kind: instalmentReminderJobKind,
      key: `${instalment.id}:overdue`,
      runAt: after.getTime() > now.getTime() ? after : now,
      payload: { instalmentId: instalment.id, when: 'overdue' },
    });
  }
  return jobs;
}

/** What an accepted budget still has to invoice (its pending lines' total): what its plan may finance. */
async function budgetPending(ctx: Ctx, document: NonNullable<Awaited<ReturnType<typeof lockSale>>>) {
  if (document.status !== 'issued' || !document.customerId) {
    throw new AppError('payment_plan_document_invalid', {
      documentType: document.documentType,
      status: document.status,
    });
  }
  const decision = await decisionOf(ctx, document.id);
  if (decision?.decision !== 'accepted') throw new AppError('budget_not_accepted', { decision: null });
  const { data } = await budgetsService.progress({ ctx, id: document.id });
  return data.lines.filter((line) => !line.invoiced).reduce((sum, line) => sum.plus(line.total), new Big(0));
}

async function create({ ctx, input }: { ctx: Ctx; input: CreateInput }): Promise<PaymentPlan> {
  const document = await lockSale(ctx, input.documentId);
  if (!document) throw new AppError('sale_not_found');
  const onBudget = document.documentType === 'budget';
  if (onBudget && input.annualRate !== null && new Big(input.annualRate).gt(0)) {
    throw new AppError('payment_plan_budget_interest');
  }
  if (
    !onBudget &&
    (document.status !== 'issued' || !['invoice', 'debit_note'].includes(document.documentType) || !document.customerId)
  ) {
    throw new AppError('payment_plan_document_invalid', {
      documentType: document.documentType,
      status: document.status,
    });
  }
  if (await repository.activePlanOf(ctx, document.id)) throw new AppError('payment_plan_exists');
  const pending = onBudget ? await budgetPending(ctx, document) : new Big(document.openAmount);
  const principal = input.amount ?? pending.toFixed(2);
  if (pending.lte(0) || new Big(principal).gt(pending)) {
    throw new AppError('payment_plan_amount_exceeds_pending', { pending: pending.toFixed(2) });
  }
  if (new Big(principal).lte(0) || !fitsInstalments(principal, input.instalmentCount)) {
    throw invalidFields([{ path: 'amount', code: 'too_small' }]);
  }
  const schedule = planSchedule({
    amount: principal,
    count: input.instalmentCount,
    firstDueOn: input.firstDueOn,
    frequency: input.frequency,
    annualRate: onBudget ? null : input.annualRate,
  });
  const id = newId();
  let interestDocumentId: string | null = null;
  if (new Big(schedule.interest).gt(0)) {
    // The interest is the customer's debt too: a debit note of the invoice, issued now.
    const note = await salesService.create({
      ctx,
      input: {
        documentType: 'debit_note',
        customerId: document.customerId,
        patientId: null,
        pointOfService: document.pointOfService as string,
        date: clinicToday(ctx.timeZone),
        dueDate: null,
        currency: document.currency as Currency,
        conditionSale: 'current_account',
        paymentMethod: null,
        notes: null,
        relatedDocumentId: document.id,
        returnsGoods: false,
        issue: true,
        lines: [
          {
            itemId: null,
            treatmentId: null,
            tooth: null,
            description: `Intereses del plan de pago (${input.instalmentCount} cuotas, ${input.annualRate} % anual)`,
            quantity: '1',
            unitPrice: schedule.interest,
            discountRate: '0',
            vatRate: '0',
            attendanceId: null,
            attendanceLineId: null,
            sourceLineId: null,
            professionalId: null,
          },
        ],
      },
    });
    interestDocumentId = note.data.id;
  }
  const startPaid = onBudget ? '0.00' : new Big(document.total).minus(document.openAmount).toFixed(2);
  const instalments = schedule.instalments.map((instalment) => ({
    accountId: ctx.accountId,
    id: newId(),
    planId: id,
    number: instalment.number,
    dueOn: instalment.dueOn,
    principal: instalment.principal,
    interest: instalment.interest,
    amount: instalment.amount,
    cumulative: instalment.cumulative,
  }));
  const plan = {
    accountId: ctx.accountId,
    id,
    documentId: document.id,
    customerId: document.customerId as string,
    patientId: document.patientId,
    currency: document.currency,
    startPaid,
    principal: schedule.principal,
    interest: schedule.interest,
    total: schedule.total,
    instalmentCount: input.instalmentCount,
    firstDueOn: input.firstDueOn,
    frequency: input.frequency,
    annualRate: onBudget ? null : input.annualRate,
    interestDocumentId,
    status: 'active',
    notes: input.notes ?? null,
    createdBy: ctx.userId,
    updatedBy: ctx.userId,
  };
  await repository.insertPlan(ctx, plan, instalments);
  await enqueueJobs(ctx, await reminderJobs(ctx, instalments));
  await audit(ctx, {
    action: 'payment_plan_created',
    entity: 'payment_plan',
    entityId: id,
    patientId: document.patientId,
    after: {
      documentId: document.id,
      principal: schedule.principal,
      interest: schedule.interest,
      total: schedule.total,
      instalmentCount: input.instalmentCount,
      firstDueOn: input.firstDueOn,
      frequency: input.frequency,
      annualRate: input.annualRate,
      interestDocumentId,
      instalments: schedule.instalments.map((i) => ({ number: i.number, dueOn: i.dueOn, amount: i.amount })),
    },
  });
  return get({ ctx, id });
}

async function cancel({ ctx, id, input }: { ctx: Ctx; id: string; input: CancelInput }): Promise<PaymentPlan> {
  const current = await repository.lockPlan(ctx, id);
  if (!current) throw new AppError('payment_plan_not_found');
  if (current.version !== input.version) throw new AppError('version_conflict', { current: await get({ ctx, id }) });
  const shown = await get({ ctx, id });
  if (shown.status !== 'active') throw new AppError('payment_plan_not_active', { status: shown.status });
  await repository.cancelPlan(ctx, id, { reason: input.reason, version: current.version });
  for (const instalment of shown.instalments) {
    await cancelQueuedJobs(ctx, instalmentReminderJobKind, `${instalment.id}:before`);
    await cancelQueuedJobs(ctx, instalmentReminderJobKind, `${instalment.id}:overdue`);
  }
  await audit(ctx, {
    action: 'payment_plan_cancelled',
    entity: 'payment_plan',
    entityId: id,
    patientId: current.patientId,
    before: { status: 'active' },
    after: { status: 'cancelled', reason: input.reason, paid: shown.paid },
  });
  return get({ ctx, id });
}

/**
 * Which instalments a collection paid: each of its live allocations to a document under a plan
 * (the plan in force when it was allocated) covers, after what was allocated to the plan's
 * documents before it since the plan started, the instalments whose cumulative amounts it
 * reaches — "Cuota 2 de 6", or "Cuotas 2 y 3 de 6".
 */
async function ofCollection({ ctx, paymentId }: { ctx: Ctx; paymentId: string }): Promise<CollectionInstalments> {
  const tagged = await repository.planOfCollection(ctx, paymentId);
  if (tagged) return ofBudgetCollection(ctx, paymentId, tagged);
  const allocations = await repository.allocationsOfPayment(ctx, paymentId);
  if (allocations.length === 0) return [];
  const plans = await repository.plansOfDocuments(ctx, [...new Set(allocations.map((a) => a.documentId))]);
  // Each allocation's plan: the one live on its document when the allocation was made.
  const planned = allocations.flatMap((allocation) => {
    const at = allocation.createdAt.getTime();
    const row = plans.find(
      ({ plan }) =>
        (plan.documentId === allocation.documentId || plan.interestDocumentId === allocation.documentId) &&
        plan.createdAt.getTime() < at &&
        (plan.cancelledAt === null || plan.cancelledAt.getTime() > at),
    );
    return row ? [{ allocation, row }] : [];
  });
  if (planned.length === 0) return [];
  // Read once per plan (not per allocation): its instalments and the allocations made since it.
  const distinct = [...new Map(planned.map(({ row }) => [row.plan.id, row.plan])).values()];
  const instalments = await repository.instalmentsOf(
    ctx,
    distinct.map((plan) => plan.id),
  );
  const earlierOf = new Map<string, Awaited<ReturnType<typeof repository.allocationsSince>>>();
  for (const plan of distinct) {
    const documents = [plan.documentId, ...(plan.interestDocumentId ? [plan.interestDocumentId] : [])];
    earlierOf.set(plan.id, await repository.allocationsSince(ctx, documents, plan.createdAt));
  }
  const result: CollectionInstalments = [];
  for (const { allocation, row } of planned) {
    let before = new Big(0);
    for (const other of earlierOf.get(row.plan.id) ?? []) {
      if (other.id === allocation.id) break;
      before = before.plus(other.amount);
    }
    const after = before.plus(allocation.amount);
    const numbers = instalments
      .filter((i) => i.planId === row.plan.id)
      .filter((i) => new Big(i.cumulative).gt(before) && new Big(i.cumulative).minus(i.amount).lt(after))
      .map((i) => i.number);
    if (numbers.length === 0) continue;
    result.push({
      allocationId: allocation.id,
      documentId: allocation.documentId,
      documentNumber: numberOf(row.pointOfService, row.documentNumber),
      planId: row.plan.id,
      numbers,
      instalmentCount: row.plan.instalmentCount,
    });
  }
  return result;
}

/** A collection made against a budget's plan: after the plan's earlier live collections, the instalments it reaches. */
async function ofBudgetCollection(
  ctx: Ctx,
  paymentId: string,
  tagged: { id: string; planId: string },
): Promise<CollectionInstalments> {
  const row = await repository.findPlan(ctx, tagged.planId);
  if (!row) return [];
  const collections = await repository.collectionsOfPlan(ctx, [tagged.planId]);
  let before = new Big(0);
  let mine: Big | null = null;
  for (const collection of collections) {
    if (collection.paymentId === paymentId) {
      mine = new Big(collection.amount);
      break;
    }
    before = before.plus(collection.amount);
  }
  if (!mine) return [];
  const after = before.plus(mine);
  const numbers = (await repository.instalmentsOf(ctx, [tagged.planId]))
    .filter((i) => new Big(i.cumulative).gt(before) && new Big(i.cumulative).minus(i.amount).lt(after))
    .map((i) => i.number);
  if (numbers.length === 0) return [];
  return [
    {
      allocationId: tagged.id,
      documentId: row.plan.documentId,
      documentNumber: numberOf(row.pointOfService, row.documentNumber),
      planId: tagged.planId,
      numbers,
      instalmentCount: row.plan.instalmentCount,
    },
  ];
}

export const paymentPlansService = { get, list, listInstalments, create, cancel, ofCollection };
