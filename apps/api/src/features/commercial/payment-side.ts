import type { PartyKind } from './ledger.ts';

/** What differs between paying a provider and collecting from a customer (side-payments.ts). */
export interface PaymentSide {
  /** `payments.side` and the ledger's party kind. */
  party: PartyKind;
  /** The documents its allocations settle. */
  documentSide: 'purchase' | 'sale';
  /** The audit entity, and the prefix of its actions and message codes. */
  entity: 'payment' | 'collection';
  /** The row's party column (and the audit's key for it). */
  partyKey: 'providerId' | 'customerId';
  /**
   * The ledger column the money posts to; its reversal posts to the other. A payment settles what
   * the clinic owes a provider (debit); a collection what a customer owes the clinic (credit).
   */
  entry: 'debit' | 'credit';
}
