import type { PaymentListItem } from '@odontia/shared/schemas/payments';
import { MovementList, type MovementListSide } from '../commercial/movement-list';
import { type PaymentFilters, usePayments } from './api';
import { PaymentStatusBadge } from './badges';

const paymentsSide: MovementListSide<PaymentListItem, PaymentFilters> = {
  namespaces: ['payments', 'common'],
  testIdPrefix: 'payment',
  path: '/payments',
  partyFilter: 'providerId',
  byMethod: false,
  party: { key: 'provider', labelKey: 'fields.provider', cell: (row) => row.providerName ?? '—' },
  status: (row) => <PaymentStatusBadge payment={row} />,
  filtersOf: (common, values) => ({ ...common, providerId: values.providerId ?? '' }),
  useList: usePayments,
};

/** `/payments`: payments to providers, newest first, searched and filtered by the server. */
export const PaymentsList = () => <MovementList side={paymentsSide} />;
