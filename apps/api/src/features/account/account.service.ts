import { randomBytes } from 'node:crypto';
import { addDays, clinicDayRange, clinicToday } from '@odontia/shared/clinic-time';
import type { Currency } from '@odontia/shared/enums';
import {
  type Account,
  type AccountMovement,
  accountStateAt,
  addMonths,
  dueDay,
  graceEndsAt,
  type Plan,
  type RenewAccount,
  type UpdateAccountBilling,
} from '@odontia/shared/schemas/account';
import type { TenantTx } from '../../db/tenancy.ts';
import { AppError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';
import { auditClinicSettings, recordAuditEvent } from '../audit/audit.repository.ts';
import * as repository from './account.repository.ts';
import { paymentAdapter } from './payment-adapters.ts';

/**
 * My account (issue 19): the clinic as Odontia's customer. Its billing data are versioned with
 * the clinic's row (a stale form answers 409) and audited; a renewal writes a renewal order
 * (idempotent route) through the payment provider's adapter and gives the clinic a new grace
 * period at once; the payment (`markRenewalPaid`: the operator, or an adapter that charges at
 * once) records the payment, extends the contract by the order's period and clears the order.
 */

/** The installation's contract terms: its plans (none: self-hosted) and grace days. */
export interface ContractTerms {
  plans: Plan[];
  graceDays: number;
  /** The bank account a renewal is transferred to (PAYMENT_TRANSFER_DETAILS); null: not configured. */
  transferDetails?: string | null;
}

/** Who acts: a request's context, or the operator's (no user, no address). */
export interface AccountCtx {
  readonly tx: TenantTx;
  readonly accountId: string;
  readonly timeZone: string;
  readonly userId: string | null;
  readonly ip: string | null;
}

export function presentMovement(row: repository.MovementRow): AccountMovement {
  return {
    id: row.id,
    date: row.date,
    kind: row.kind as AccountMovement['kind'],
    plan: row.plan,
    periodStart: row.periodStart,
    periodEnd: row.periodEnd,
    amount: row.amount,
    currency: row.currency as Currency,
    status: row.status as AccountMovement['status'],
    reference: row.reference,
    provider: row.provider,
    paidAt: row.paidAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

function billingOf(row: repository.BillingColumns): repository.BillingColumns {
  return Object.fromEntries(
    repository.billingColumnNames.map((name) => [name, row[name]]),
  ) as unknown as repository.BillingColumns;
}

function changed(before: repository.BillingColumns, after: repository.BillingColumns) {
  const names = repository.billingColumnNames.filter((name) => before[name] !== after[name]);
  return {
    before: Object.fromEntries(names.map((name) => [name, before[name]])),
    after: Object.fromEntries(names.map((name) => [name, after[name]])),
  };
}

/** A reference people can read on a transfer: RN-20261125-4F2A9C (renewal), PA-… (payment). */
function newReference(prefix: 'RN' | 'PA' | 'EX', day: string): string {
  return `${prefix}-${day.replaceAll('-', '')}-${randomBytes(3).toString('hex').toUpperCase()}`;
}

/** The instant a contract whose last day is `day` ends (the start of the next day, clinic's time). */
export function contractEndOf(day: string, timeZone: string): Date {
  return clinicDayRange(timeZone, day).end;
}

export function createAccountService(terms: ContractTerms) {
  const enforced = terms.plans.length > 0;
  const planOf = (id: string) => terms.plans.find((plan) => plan.id === id) ?? null;

  async function present(ctx: AccountCtx): Promise<Account> {
    // One transaction: one statement after the other.
    const row = await repository.findAccount(ctx);
    const usage = await repository.usage(ctx);
    const pending = await repository.findPendingRenewal(ctx);
    const endsAt = row.planEndsAt;
    return {
      commercial: { clinicName: row.clinicName, contact: row.contact, promotionalCode: row.promotionalCode },
      billing: {
        useFiscalData: row.billingSameAsFiscal,
        billingLegalName: row.billingLegalName,
        billingTaxId: row.billingTaxId,
        billingAddress: row.billingAddress,
        billingCity: row.billingCity,
        billingPostalCode: row.billingPostalCode,
        billingCountry: row.billingCountry,
        billingEmail: row.billingEmail,
        billingContact: row.billingContact,
      },
      fiscal: {
        legalName: row.legalName,
        taxId: row.taxId,
        address: row.address,
        city: row.city,
        country: row.country,
      },
      planId: row.plan,
      plan: planOf(row.plan),
      plans: terms.plans,
      usage,
      contract: {
        startsAt: row.contractStartsAt?.toISOString() ?? null,
        endsAt: endsAt?.toISOString() ?? null,
        dueDate: dueDay(endsAt, row.timeZone),
        graceDays: terms.graceDays,
        graceEndsAt: enforced ? graceEndsAt(endsAt, terms.graceDays) : null,
        state: accountStateAt({
          endsAt,
          renewalRequestedAt: row.renewalRequestedAt,
          graceDays: terms.graceDays,
          enforced,
        }),
        pendingRenewal: pending ? presentMovement(pending) : null,
        transferDetails: terms.transferDetails ?? null,
      },
      selfHosted: !enforced,
      updatedAt: row.updatedAt.toISOString(),
      version: row.version,
    };
  }

  /**
   * The renewal order paid: the order marked, a payment movement, the contract extended to the
   * end of the order's period (never shortened), the pending renewal cleared. 409
   * account_movement_not_pending when it is not a pending renewal order.
   */
  async function markRenewalPaid(ctx: AccountCtx, orderId: string, providerReference?: string) {
    const order = await repository.findMovement(ctx, orderId, { lock: true });
    if (!order) throw new AppError('account_movement_not_found');
    if (order.kind !== 'renewal_order' || order.status !== 'pending')
      throw new AppError('account_movement_not_pending', { status: order.status, kind: order.kind });
    const account = await repository.findAccount(ctx, { lock: true });
    const now = new Date();
    const today = clinicToday(ctx.timeZone, now);
    await repository.markMovementPaid(ctx, order.id, now);
    const payment = await repository.insertMovement(ctx, {
      id: newId(),
      date: today,
      kind: 'payment',
      plan: order.plan,
      periodStart: order.periodStart,
      periodEnd: order.periodEnd,
      amount: order.amount,
      currency: order.currency,
      status: 'paid',
      reference: providerReference ? providerReference.slice(0, 60) : newReference('PA', today),
      provider: order.provider,
      orderId: order.id,
      paidAt: now,
      createdBy: ctx.userId,
    });
    const orderEnd = contractEndOf(order.periodEnd ?? today, ctx.timeZone);
    const endsAt =
      account.planEndsAt && account.planEndsAt.getTime() > orderEnd.getTime() ? account.planEndsAt : orderEnd;
    const startsAt = account.contractStartsAt ?? clinicDayRange(ctx.timeZone, order.periodStart ?? today).start;
    await repository.updateContract(ctx, {
      ...(order.plan ? { plan: order.plan } : {}),
      planEndsAt: endsAt,
      contractStartsAt: startsAt,
      renewalRequestedAt: null,
    });
    await recordAuditEvent(ctx.tx, {
      accountId: ctx.accountId,
      userId: ctx.userId,
      ip: ctx.ip,
      action: 'account_renewal_paid',
      entity: 'account_movement',
      entityId: order.id,
      before: { status: 'pending', planEndsAt: account.planEndsAt?.toISOString() ?? null },
      after: { status: 'paid', paymentId: payment.id, planEndsAt: endsAt.toISOString() },
    });
    return { order: { ...order, status: 'paid', paidAt: now }, payment, endsAt };
  }

  return {
    enforced,
    get: ({ ctx }: { ctx: AccountCtx }) => present(ctx),

    /** A new version of the commercial and billing data; 409 version_conflict with the current ones when stale. */
    async updateBilling({ ctx, input }: { ctx: AccountCtx; input: UpdateAccountBilling }): Promise<Account> {
      const current = await repository.findAccount(ctx, { lock: true });
      if (current.version !== input.version) throw new AppError('version_conflict', { current: await present(ctx) });
      const next: repository.BillingColumns = {
        clinicName: input.clinicName,
        contact: input.contact,
        billingSameAsFiscal: input.useFiscalData,
        billingLegalName: input.billingLegalName,
        billingTaxId: input.billingTaxId,
        billingAddress: input.billingAddress,
        billingCity: input.billingCity,
        billingPostalCode: input.billingPostalCode,
        billingCountry: input.billingCountry?.toUpperCase() ?? null,
        billingEmail: input.billingEmail,
        billingContact: input.billingContact,
      };
      await repository.updateBilling(ctx, next);
      await auditClinicSettings(ctx, 'account_billing_updated', changed(billingOf(current), next), current.version);
      return present(ctx);
    },

    async movements({ ctx, query }: { ctx: AccountCtx; query: { page: number; pageSize: number } }) {
      const { rows, total } = await repository.pageMovements(ctx, query);
      return { data: rows.map(presentMovement), total, page: query.page, pageSize: query.pageSize };
    },

    /** One movement of the clinic (404 account_movement_not_found for any other id). */
    async movement({ ctx, id }: { ctx: AccountCtx; id: string }) {
      const row = await repository.findMovement(ctx, id);
      if (!row) throw new AppError('account_movement_not_found');
      return presentMovement(row);
    },

    /**
     * A renewal order of one period of the plan (the contracted one, or `input.plan`): from the
     * day after the due date, or from today when the clinic is already read-only. 409
     * plan_not_available when the installation has no such plan (or none: self-hosted); 409
     * account_renewal_pending when an order waits for its payment.
     */
    async renew({ ctx, input, idempotencyKey }: { ctx: AccountCtx; input: RenewAccount; idempotencyKey: string }) {
      const account = await repository.findAccount(ctx, { lock: true });
      const plan = planOf(input.plan ?? account.plan);
      if (!plan) throw new AppError('plan_not_available', { plans: terms.plans.map((p) => p.id) });
      const pending = await repository.findPendingRenewal(ctx);
      if (pending) throw new AppError('account_renewal_pending', { movement: presentMovement(pending) });
      const now = new Date();
      const today = clinicToday(ctx.timeZone, now);
      const due = dueDay(account.planEndsAt, ctx.timeZone);
      // Active or in its grace period: the new period follows the last one without a gap; once
      // read-only (past the grace days) it starts today.
      const periodStart = due && addDays(due, terms.graceDays) >= today ? addDays(due, 1) : today;
      const periodEnd = addDays(addMonths(periodStart, plan.periodMonths), -1);
      const adapter = paymentAdapter();
      const order = await repository.insertMovement(ctx, {
        id: newId(),
        date: today,
        kind: 'renewal_order',
        plan: plan.id,
        periodStart,
        periodEnd,
        amount: plan.price,
        currency: plan.currency,
        status: 'pending',
        reference: newReference('RN', today),
        provider: adapter.name,
        createdBy: ctx.userId,
      });
      await repository.updateContract(ctx, { renewalRequestedAt: now });
      await recordAuditEvent(ctx.tx, {
        accountId: ctx.accountId,
        userId: ctx.userId,
        ip: ctx.ip,
        action: 'account_renewal_ordered',
        entity: 'account_movement',
        entityId: order.id,
        after: {
          plan: plan.id,
          amount: plan.price,
          currency: plan.currency,
          periodStart,
          periodEnd,
          reference: order.reference,
          provider: adapter.name,
          idempotencyKey,
        },
      });
      const answer = await adapter.requestPayment(
        {
          id: order.id,
          accountId: ctx.accountId,
          reference: order.reference,
          plan: plan.id,
          amount: plan.price,
          currency: plan.currency,
          periodStart,
          periodEnd,
        },
        order.id,
      );
      const movement =
        answer.status === 'paid' ? (await markRenewalPaid(ctx, order.id, answer.providerReference)).order : order;
      return { movement: presentMovement(movement), account: await present(ctx) };
    },

    markRenewalPaid,

    /** The operator moves the due date to the end of `day` (audited). */
    async extend({ ctx, day }: { ctx: AccountCtx; day: string }) {
      const account = await repository.findAccount(ctx, { lock: true });
      const endsAt = contractEndOf(day, ctx.timeZone);
      await repository.updateContract(ctx, {
        planEndsAt: endsAt,
        ...(account.contractStartsAt ? {} : { contractStartsAt: new Date() }),
      });
      await recordAuditEvent(ctx.tx, {
        accountId: ctx.accountId,
        userId: ctx.userId,
        ip: ctx.ip,
        action: 'account_contract_extended',
        entity: 'account',
        entityId: ctx.accountId,
        before: { planEndsAt: account.planEndsAt?.toISOString() ?? null },
        after: { planEndsAt: endsAt.toISOString() },
      });
      return endsAt;
    },
  };
}
export type AccountService = ReturnType<typeof createAccountService>;
