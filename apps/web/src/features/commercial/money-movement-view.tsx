import '../../lib/zod-setup';
import type { OpenDocument, Payment } from '@odontia/shared/schemas/payments';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { RecordNotFound } from '../../components/record-not-found';
import { isApiError } from '../../lib/http';
import { MovementDetails } from './movement-details';

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

/** `/payments/view/:id`, `/collections/view/:id`: the movement, its allocations and what can still happen to it. */
export function MoneyMovementView<M extends MoneyMovement>({ kind, id }: { kind: MovementKind<M>; id: string }) {
  const { t } = useTranslation(kind.namespaces);
  const query = kind.useOne(id);
  if (query.isError && isApiError(query.error) && query.error.status === 404) {
    return <RecordNotFound code={kind.notFoundCode} backTo={kind.listPath} backLabel={t('view.back')} />;
  }
  if (!query.data) {
    return (
      <div className="text-center py-5" aria-busy="true">
        <span className="spinner-border" aria-hidden="true" />
      </div>
    );
  }
  return <MovementDetails kind={kind} movement={query.data} />;
}
