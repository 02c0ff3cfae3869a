import type { CreatePayment, OpenDocument, Payment, PaymentListQuery } from '@odontia/shared/schemas/payments';
import { loadPrintHeader, readerOf } from '../../db/clinic-print-header.ts';
import { AppError } from '../../lib/app-error.ts';
import type { RequestContext } from '../../plugins/routes.ts';
import {
  movementActions,
  presentPaymentFields,
  providerPayments,
  recordPayment,
  sidePayments,
} from '../commercial/side-payments.ts';
import { providerSnapshot } from '../fiscal/party-snapshots.ts';
import * as repository from './payments.repository.ts';

/**
 * Payments to providers (issue 17, docs/decisions.md "The commercial area: payments and current
 * accounts"). A payment is never edited: it is created (a `payment` debit of the provider's
 * account, allocated at once to open documents or left on account), its remainder is allocated
 * later, pending → paid is its only change of state, and a mistake is reversed with a reason (a
 * `payment_reversal` credit; its allocations are undone so the documents are open again). The
 * flow is the one collections share (features/commercial/side-payments.ts).
 */

const shared = sidePayments(providerPayments, {
  party: repository.providerJoin,
  filters: (query: PaymentListQuery) => repository.providerFilters(query),
  present: (row) => ({
    ...presentPaymentFields(row),
    side: row.side,
    providerId: row.providerId,
    providerName: row.providerName,
  }),
  auditedBefore: (row) => ({
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
  }),
});

export const paymentsService = {
  ...movementActions(shared),

  async create({ ctx, input }: { ctx: RequestContext; input: CreatePayment }): Promise<Payment> {
    const provider = await repository.findProvider(ctx, input.providerId);
    if (!provider) throw new AppError('provider_not_found');
    const { id } = await recordPayment(ctx, providerPayments, {
      partyId: provider.id,
      takeNumber: () => repository.nextPaymentNumber(ctx),
      counterpartySnapshot: providerSnapshot(provider),
      date: input.date,
      amount: input.amount,
      currency: input.currency,
      method: input.method,
      transactionNumber: input.transactionNumber,
      notes: input.notes,
      status: input.status,
      paidOn: input.paidOn,
      allocations: input.allocations,
      registerId: input.registerId ?? null,
    });
    return shared.get({ ctx, id });
  },

  async openDocuments({ ctx, providerId }: { ctx: RequestContext; providerId: string }): Promise<OpenDocument[]> {
    if (!(await repository.findProvider(ctx, providerId))) throw new AppError('provider_not_found');
    return shared.openDocuments(ctx, providerId);
  },

  /** What the proof of payment prints: the payment, the clinic, the reader's language. */
  async printable({ ctx, id }: { ctx: RequestContext; id: string }) {
    const payment = await shared.get({ ctx, id });
    const reader = await readerOf(ctx);
    return { payment, ...reader, clinic: await loadPrintHeader(ctx) };
  },
};
