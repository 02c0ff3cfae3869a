import type { OpenDocument, Payment } from '@odontia/shared/schemas/payments';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ComponentType } from 'react';

/** What a payment to a provider and a collection from a customer both are: money, allocated to documents. */
export type MoneyMovement = Omit<Payment, 'side' | 'providerId' | 'providerName'> & {
  /** A collection split across methods (issue 35): each part with its amount. */
  parts?: { method: Payment['method']; amount: string; transactionNumber: string | null }[];
};

type Answer<M> = Promise<{ data: M; code?: string }>;

/** A kind of money movement: where its texts, routes, test ids and API calls are. */
export interface MovementKind<M extends MoneyMovement> {
  /** Its texts' namespaces, its own first (methods and document types come from `payments`). */
  namespaces: string[];
  /** The start of its test ids: `payment-view`, `collection-allocate-save`. */
  testIdPrefix: string;
  listPath: string;
  notFoundCode: string;
  useOne: (id: string) => UseQueryResult<M>;
  queryKey: (id: string) => readonly unknown[];
  /** Refreshes what a change to a movement moves (lists, current accounts, documents). */
  invalidate: () => Promise<void>;
  StatusBadge: ComponentType<{ movement: M }>;
  /** `fields.provider`, `fields.customer`. */
  partyLabel: string;
  partyName: (movement: M) => string;
  ledgerPath: (movement: M) => string | null;
  /** The party's open documents, to allocate what is on account. */
  useOpenDocuments: (movement: M) => OpenDocument[] | undefined;
  pdfTestId: string;
  api: {
    pdf: (id: string) => Promise<{ blob: Blob; fileName: string | null }>;
    allocate: (
      id: string,
      body: { version: number; allocations: { documentId: string; amount: string }[] },
      idempotencyKey: string,
    ) => Answer<M>;
    markPaid: (id: string, body: { version: number; paidOn: string }, idempotencyKey: string) => Answer<M>;
    reverse: (id: string, body: { version: number; reason: string }, idempotencyKey: string) => Answer<M>;
  };
}
