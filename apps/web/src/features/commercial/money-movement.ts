import type { OpenDocument, Payment } from '@odontia/shared/schemas/payments';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ComponentType } from 'react';

/** What a payment to a provider and a collection from a customer both are: money, allocated to documents. */
export type MoneyMovement = Omit<Payment, 'side' | 'providerId' | 'providerName'> & {
  /** A collection split across methods (issue 35): each part with its amount. */
  parts?: { method: Payment['method']; amount: string; transactionNumber: string | null }[];
};

type Answer<M> = Promise<{ data: M; code?: string }>;

/** A change to one movement: its id, the change and the action's Idempotency-Key. */
type MovementCall<TBody> = { params: { id: string }; body: TBody; idempotencyKey: string };

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
  /** What a side shows under the allocations (a collection's instalments of payment plans, issue 40). */
  Extra?: ComponentType<{ movement: M }>;
  /** The side's declared money routes (`moneyMovementRoutes` in packages/shared) as the client calls them. */
  api: {
    print: (input: { params: { id: string } }) => Promise<{ blob: Blob; fileName: string | null }>;
    allocate: (
      input: MovementCall<{ version: number; allocations: { documentId: string; amount: string }[] }>,
    ) => Answer<M>;
    markPaid: (input: MovementCall<{ version: number; paidOn: string }>) => Answer<M>;
    reverse: (input: MovementCall<{ version: number; reason: string }>) => Answer<M>;
  };
}
