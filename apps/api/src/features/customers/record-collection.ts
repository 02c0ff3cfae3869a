import type { AuditedContext as Ctx } from '../../context.ts';
import { nextCounterValue } from '../../db/counters.ts';
import { customerCollections, type PaymentTerms, recordPayment } from '../commercial/side-payments.ts';
import { type CustomerRow, customerSnapshot } from './customer-parties.ts';

/**
 * The one way money from a customer enters (issue 18): a collection (cobranza), created by the
 * collections page or by issuing a sale on cash or cards. It is a `payments` row of side
 * customer, numbered RC-000001 (account_counters 'collection'), a `payment` credit of the
 * customer's account, allocated at once to open sales of the customer (or left on account), and
 * an audit event — all in the caller's transaction (features/commercial/side-payments.ts
 * `recordPayment`). Never edited; reversed with a reason.
 * It lives with the customers, below everything that takes a collection (the collections page,
 * sales, payment plans' receipts, the payers' presentations), so the area's imports run one way.
 */

/** A collection from a customer; split across methods (cash + card, issue 35), one receipt. */
export interface CollectionInput extends PaymentTerms {
  customer: CustomerRow;
}

/** The clinic's next receipt number: RC-000001, RC-000002… */
export async function nextCollectionNumber(ctx: Ctx): Promise<string> {
  const value = await nextCounterValue(ctx, 'collection');
  return `RC-${String(value).padStart(6, '0')}`;
}

export function recordCollection(ctx: Ctx, input: CollectionInput): Promise<{ id: string; number: string }> {
  const { customer, ...money } = input;
  return recordPayment(ctx, customerCollections, {
    ...money,
    partyId: customer.id,
    patientId: customer.patientId,
    takeNumber: () => nextCollectionNumber(ctx),
    counterpartySnapshot: customerSnapshot(customer),
  });
}
