import type { Currency, PaymentMethod } from '@odontia/shared/enums';
import Big from 'big.js';
import { payments } from '../../db/schema/index.ts';
import { AppError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';
import type { RequestContext } from '../../plugins/routes.ts';
import { audit } from '../audit/audit.repository.ts';
import { type AllocationRequest, allocateToDocuments, postLedgerEntries } from '../current-accounts/ledger.ts';
import { type CustomerRow, customerSnapshot } from '../customers/customer-parties.ts';
import { nextCounterValue } from '../patients/patients.repository.ts';

/**
 * The one way money from a customer enters (issue 18): a collection (cobranza), created by the
 * collections page or by issuing a sale on cash or cards. It is a `payments` row of side
 * customer, numbered RC-000001 (account_counters 'collection'), a `payment` credit of the
 * customer's account, allocated at once to open sales of the customer (or left on account), and
 * an audit event — all in the caller's transaction. Never edited; reversed with a reason.
 */

type Ctx = Pick<RequestContext, 'tx' | 'accountId' | 'userId' | 'ip'>;

export interface CollectionInput {
  customer: CustomerRow;
  date: string;
  amount: string;
  currency: Currency;
  method: PaymentMethod;
  transactionNumber?: string | null;
  notes?: string | null;
  status: 'pending' | 'paid';
  paidOn?: string | null;
  allocations: AllocationRequest[];
}

/** The clinic's next receipt number: RC-000001, RC-000002… */
export async function nextCollectionNumber(ctx: Ctx): Promise<string> {
  const value = await nextCounterValue(ctx, 'collection');
  return `RC-${String(value).padStart(6, '0')}`;
}

export async function recordCollection(ctx: Ctx, input: CollectionInput): Promise<{ id: string; number: string }> {
  const allocated = input.allocations.reduce((total, allocation) => total.plus(allocation.amount), new Big(0));
  if (allocated.gt(input.amount)) {
    throw new AppError('payment_over_allocation', { amount: input.amount, allocated: allocated.toFixed(2) });
  }
  const id = newId();
  const number = await nextCollectionNumber(ctx);
  const amount = new Big(input.amount).toFixed(2);
  const paidOn = input.status === 'paid' ? (input.paidOn ?? input.date) : null;
  await ctx.tx.insert(payments).values({
    accountId: ctx.accountId,
    id,
    side: 'customer',
    number,
    customerId: input.customer.id,
    patientId: input.customer.patientId,
    date: input.date,
    amount,
    currency: input.currency,
    method: input.method,
    transactionNumber: input.transactionNumber ?? null,
    notes: input.notes ?? null,
    status: input.status,
    paidOn,
    allocatedAmount: allocated.toFixed(2),
    counterpartySnapshot: customerSnapshot(input.customer),
    createdBy: ctx.userId,
    updatedBy: ctx.userId,
  });
  await allocateToDocuments(
    ctx,
    { paymentId: id, side: 'sale', partyId: input.customer.id, currency: input.currency },
    input.allocations,
  );
  await postLedgerEntries(ctx, [
    {
      partyKind: 'customer',
      partyId: input.customer.id,
      date: input.date,
      kind: 'payment',
      paymentId: id,
      description: number,
      credit: amount,
    },
  ]);
  await audit(ctx, {
    action: 'collection_created',
    entity: 'collection',
    entityId: id,
    after: {
      number,
      customerId: input.customer.id,
      date: input.date,
      amount,
      currency: input.currency,
      method: input.method,
      transactionNumber: input.transactionNumber ?? null,
      status: input.status,
      paidOn,
      allocations: input.allocations,
    },
  });
  return { id, number };
}
