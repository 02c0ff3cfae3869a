import type { PaymentListItem } from '@odontia/shared/schemas/payments';
import { useTranslation } from 'react-i18next';

/** A payment's state: reversed wins over pending/paid. */
export function PaymentStatusBadge({ payment }: { payment: Pick<PaymentListItem, 'status' | 'reversedAt'> }) {
  const { t } = useTranslation('payments');
  if (payment.reversedAt)
    return (
      <span className="badge text-bg-danger" data-testid="payment-status" data-status="reversed">
        {t('statuses.reversed')}
      </span>
    );
  return (
    <span
      className={`badge ${payment.status === 'paid' ? 'text-bg-success' : 'text-bg-warning'}`}
      data-testid="payment-status"
      data-status={payment.status}
    >
      {t(`statuses.${payment.status}`)}
    </span>
  );
}
