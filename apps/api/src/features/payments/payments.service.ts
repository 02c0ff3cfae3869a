import { clinicToday } from '@odontia/shared/clinic-time';
import type { Currency, DocumentType, PaymentMethod } from '@odontia/shared/enums';
import type { PartySnapshot } from '@odontia/shared/schemas/clinic-fiscal';
import type {
  AllocationInput,
  CreatePayment,
  OpenDocument,
  Payment,
  PaymentListItem,
  PaymentListQuery,
} from '@odontia/shared/schemas/payments';
import Big from 'big.js';
import { AppError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';
import type { RequestContext } from '../../plugins/routes.ts';
import { audit } from '../audit/audit.repository.ts';
import { allocateToDocuments, postLedgerEntries, reversePaymentAllocations } from '../current-accounts/ledger.ts';
import { providerSnapshot } from '../fiscal/party-snapshots.ts';
import { loadPrintHeader } from '../fiscal/print-header.ts';
import * as repository from './payments.repository.ts';

/**
 * Payments to providers (issue 17, docs/decisions.md "The commercial area: payments and current
 * accounts"). A payment is never edited: it is created (a `payment` debit of the provider's
 * account, allocated at once to open documents or left on account), its remainder is allocated
 * later, pending → paid is its only change of state, and a mistake is reversed with a reason (a
 * `payment_reversal` credit; its allocations are undone so the documents are open again).
 */

type AllocationRow = Awaited<ReturnType<typeof repository.allocationsOf>>[number];

function presentItem(row: repository.PaymentRowWithNames): PaymentListItem {
  const reversed = row.reversedAt !== null;
  return {
    id: row.id,
    side: row.side,
    number: row.number,
    providerId: row.providerId,
    providerName: row.providerName,
    date: row.date,
    amount: row.amount,
    currency: row.currency as Currency,
    method: row.method as PaymentMethod,
    transactionNumber: row.transactionNumber,
    notes: row.notes,
    status: row.status,
    paidOn: row.paidOn,
    allocatedAmount: row.allocatedAmount,
    unallocatedAmount: reversed ? '0.00' : new Big(row.amount).minus(row.allocatedAmount).toFixed(2),
    reversedAt: row.reversedAt?.toISOString() ?? null,
    reversedByName: row.reversedByName,
    reversalReason: row.reversalReason,
    createdAt: row.createdAt.toISOString(),
    createdByName: row.createdByName,
    updatedAt: row.updatedAt.toISOString(),
    updatedByName: row.updatedByName,
    version: row.version,
  };
}

function presentAllocation(row: AllocationRow): Payment['allocations'][number] {
  return {
    id: row.id,
    document: {
      id: row.documentId,
      documentType: row.documentType as DocumentType,
      pointOfService: row.pointOfService,
      documentNumber: row.documentNumber,
      date: row.date,
      total: row.total,
    },
    amount: row.amount,
    createdAt: row.createdAt.toISOString(),
    reversed: row.reversedAt !== null,
  };
}

function sumOf(allocations: AllocationInput[]): Big {
  return allocations.reduce((total, allocation) => total.plus(allocation.amount), new Big(0));
}

async function get(ctx: RequestContext, id: string): Promise<Payment> {
  const row = await repository.findPayment(ctx, id);
  if (!row) throw new AppError('payment_not_found');
  const allocations = await repository.allocationsOf(ctx, [id]);
  return {
    ...presentItem(row),
    allocations: allocations.map(presentAllocation),
    counterpartySnapshot: (row.counterpartySnapshot as PartySnapshot | null) ?? null,
  };
}

/** The payment locked, at the version the client saw, not reversed. */
async function lockCurrent(ctx: RequestContext, id: string, version: number) {
  const current = await repository.lockPayment(ctx, id);
  if (!current) throw new AppError('payment_not_found');
  if (current.version !== version) throw new AppError('version_conflict', { current: await get(ctx, id) });
  if (current.reversedAt) throw new AppError('payment_already_reversed');
  return current;
}

const auditedColumns = (row: repository.PaymentRow) => ({
  number: row.number,
  providerId: row.providerId,
  date: row.date,
  amount: row.amount,
  currency: row.currency,
  method: row.method,
  transactionNumber: row.transactionNumber,
  status: row.status,
  paidOn: row.paidOn,
  allocatedAmount: row.allocatedAmount,
});

export const paymentsService = {
  get: ({ ctx, id }: { ctx: RequestContext; id: string }) => get(ctx, id),

  async list({ ctx, query }: { ctx: RequestContext; query: PaymentListQuery }) {
    const { rows, total, totalIsLowerBound } = await repository.listPayments(ctx, query);
    return {
      data: rows.map(presentItem),
      total,
      ...(totalIsLowerBound ? { totalIsLowerBound } : {}),
      page: query.page,
      pageSize: query.pageSize,
    };
  },

  async create({ ctx, input }: { ctx: RequestContext; input: CreatePayment }): Promise<Payment> {
    const provider = await repository.findProvider(ctx, input.providerId);
    if (!provider) throw new AppError('provider_not_found');
    const allocated = sumOf(input.allocations);
    if (allocated.gt(input.amount)) {
      throw new AppError('payment_over_allocation', { amount: input.amount, allocated: allocated.toFixed(2) });
    }
    const id = newId();
    const number = await repository.nextPaymentNumber(ctx);
    const paidOn = input.status === 'paid' ? (input.paidOn ?? input.date) : null;
    await repository.insertPayment(ctx, {
      id,
      number,
      providerId: provider.id,
      date: input.date,
      amount: new Big(input.amount).toFixed(2),
      currency: input.currency,
      method: input.method,
      transactionNumber: input.transactionNumber ?? null,
      notes: input.notes ?? null,
      status: input.status,
      paidOn,
      allocatedAmount: allocated.toFixed(2),
      counterpartySnapshot: providerSnapshot(provider),
    });
    await allocateToDocuments(
      ctx,
      { paymentId: id, side: 'purchase', partyId: provider.id, currency: input.currency },
      input.allocations,
    );
    await postLedgerEntries(ctx, [
      {
        partyKind: 'provider',
        partyId: provider.id,
        date: input.date,
        kind: 'payment',
        paymentId: id,
        description: number,
        debit: new Big(input.amount).toFixed(2),
      },
    ]);
    const payment = await get(ctx, id);
    await audit(ctx, {
      action: 'payment_created',
      entity: 'payment',
      entityId: id,
      after: {
        number,
        providerId: provider.id,
        date: input.date,
        amount: payment.amount,
        currency: input.currency,
        method: input.method,
        transactionNumber: input.transactionNumber ?? null,
        status: input.status,
        paidOn,
        allocations: input.allocations,
      },
    });
    return payment;
  },

  /** Allocates what is still on account to open documents of the same provider and currency. */
  async allocate({
    ctx,
    id,
    input,
  }: {
    ctx: RequestContext;
    id: string;
    input: { version: number; allocations: AllocationInput[] };
  }): Promise<Payment> {
    const current = await lockCurrent(ctx, id, input.version);
    const onAccount = new Big(current.amount).minus(current.allocatedAmount);
    const allocating = sumOf(input.allocations);
    if (allocating.gt(onAccount)) {
      throw new AppError('payment_over_allocation', {
        onAccount: onAccount.toFixed(2),
        allocated: allocating.toFixed(2),
      });
    }
    await allocateToDocuments(
      ctx,
      { paymentId: id, side: 'purchase', partyId: current.providerId as string, currency: current.currency },
      input.allocations,
    );
    const allocatedAmount = allocating.plus(current.allocatedAmount).toFixed(2);
    await repository.updatePayment(ctx, id, { allocatedAmount });
    await audit(ctx, {
      action: 'payment_allocated',
      entity: 'payment',
      entityId: id,
      before: { allocatedAmount: current.allocatedAmount, version: current.version },
      after: { allocatedAmount, allocations: input.allocations, version: current.version + 1 },
    });
    return get(ctx, id);
  },

  /**
   * Reverses a payment: its allocations are undone (the documents owe again what it paid), a
   * `payment_reversal` credit of the whole amount is posted on the clinic's today, and the payment
   * is marked reversed with the reason. `allocated_amount` keeps what had been allocated (the
   * allocations stay listed, marked reversed); nothing of it is on account any more.
   */
  async reverse({
    ctx,
    id,
    input,
  }: {
    ctx: RequestContext;
    id: string;
    input: { version: number; reason: string };
  }): Promise<Payment> {
    const current = await lockCurrent(ctx, id, input.version);
    const undone = await reversePaymentAllocations(ctx, id);
    await postLedgerEntries(ctx, [
      {
        partyKind: 'provider',
        partyId: current.providerId as string,
        // The day it is undone (never before the payment's own date: a scheduled one reversed early).
        date: [clinicToday(ctx.timeZone), current.date].sort().at(-1) as string,
        kind: 'payment_reversal',
        paymentId: id,
        description: input.reason,
        credit: current.amount,
      },
    ]);
    await repository.updatePayment(ctx, id, {
      reversedAt: new Date(),
      reversedBy: ctx.userId,
      reversalReason: input.reason,
    });
    await audit(ctx, {
      action: 'payment_reversed',
      entity: 'payment',
      entityId: id,
      before: auditedColumns(current),
      after: { reason: input.reason, reallocatedToDocuments: undone, version: current.version + 1 },
    });
    return get(ctx, id);
  },

  /** pending → paid on `paidOn` (a scheduled transfer left the bank, a cheque was cashed). */
  async markPaid({
    ctx,
    id,
    input,
  }: {
    ctx: RequestContext;
    id: string;
    input: { version: number; paidOn: string };
  }): Promise<Payment> {
    const current = await lockCurrent(ctx, id, input.version);
    if (current.status === 'paid') throw new AppError('payment_already_paid');
    await repository.updatePayment(ctx, id, { status: 'paid', paidOn: input.paidOn });
    await audit(ctx, {
      action: 'payment_marked_paid',
      entity: 'payment',
      entityId: id,
      before: { status: 'pending', paidOn: null, version: current.version },
      after: { status: 'paid', paidOn: input.paidOn, version: current.version + 1 },
    });
    return get(ctx, id);
  },

  async openDocuments({ ctx, providerId }: { ctx: RequestContext; providerId: string }): Promise<OpenDocument[]> {
    if (!(await repository.findProvider(ctx, providerId))) throw new AppError('provider_not_found');
    const rows = await repository.openDocumentsOf(ctx, providerId);
    return rows.map((row) => ({
      ...row,
      documentType: row.documentType as DocumentType,
      currency: row.currency as Currency,
    }));
  },

  /** What the proof of payment prints: the payment, the clinic, the reader's language. */
  async printable({ ctx, id }: { ctx: RequestContext; id: string }) {
    const payment = await get(ctx, id);
    const reader = await repository.readerOf(ctx);
    return { payment, ...reader, clinic: await loadPrintHeader(ctx) };
  },
};
