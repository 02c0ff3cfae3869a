import type { DocumentStatus } from '@odontia/shared/commercial';
import type { DocumentType } from '@odontia/shared/enums';
import { useTranslation } from 'react-i18next';

const statusClass: Record<DocumentStatus, string> = {
  draft: 'text-bg-warning',
  registered: 'text-bg-success',
  issued: 'text-bg-success',
};

export function SaleStatusBadge({ status }: { status: DocumentStatus }) {
  const { t } = useTranslation('sales');
  return (
    <span className={`badge ${statusClass[status]}`} data-testid="sale-status" data-status={status}>
      {t(`statuses.${status}`)}
    </span>
  );
}

const typeClass: Partial<Record<DocumentType, string>> = {
  invoice: 'text-bg-primary',
  receipt: 'text-bg-primary',
  delivery_note: 'text-bg-info',
  credit_note: 'text-bg-danger',
  debit_note: 'text-bg-secondary',
};

export function SaleTypeBadge({ type }: { type: DocumentType }) {
  const { t } = useTranslation('sales');
  return (
    <span className={`badge ${typeClass[type] ?? 'text-bg-light border'}`} data-testid="sale-type">
      {t(`types.${type}`)}
    </span>
  );
}
