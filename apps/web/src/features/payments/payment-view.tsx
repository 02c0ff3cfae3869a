import type { Payment } from '@odontia/shared/schemas/payments';
import { useParams } from 'react-router';
import { MoneyMovementView, type MovementKind } from '../commercial/money-movement-view';
import { invalidateMoney, paymentsApi, useOpenDocuments, usePayment } from './api';
import { PaymentStatusBadge } from './badges';

/** A payment to a provider, as the movement view shows it (the proof of payment, the provider's ledger). */
const paymentKind: MovementKind<Payment> = {
  namespaces: ['payments', 'common'],
  testIdPrefix: 'payment',
  listPath: '/payments',
  notFoundCode: 'payment_not_found',
  useOne: usePayment,
  queryKey: (id) => ['payments', 'one', id],
  invalidate: invalidateMoney,
  StatusBadge: ({ movement }) => <PaymentStatusBadge payment={movement} />,
  partyLabel: 'fields.provider',
  partyName: (payment) => payment.providerName ?? '—',
  ledgerPath: (payment) => (payment.providerId ? `/cc-providers/${payment.providerId}` : null),
  useOpenDocuments: (payment) => useOpenDocuments(payment.providerId ?? '').data,
  pdfTestId: 'payment-proof',
  api: paymentsApi,
};

/** `/payments/view/:paymentId`: the payment, its allocations and what can still happen to it. */
export function PaymentView() {
  const { paymentId = '' } = useParams();
  return <MoneyMovementView kind={paymentKind} id={paymentId} />;
}
