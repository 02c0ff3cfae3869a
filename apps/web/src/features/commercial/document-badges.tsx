import type { DocumentStatus } from '@odontia/shared/commercial';
import type { DocumentType } from '@odontia/shared/enums';
import { useTranslation } from 'react-i18next';
import type { DocumentNamespace } from './document-lines';

const statusClass: Record<DocumentStatus, string> = {
  draft: 'text-bg-warning',
  registered: 'text-bg-success',
  issued: 'text-bg-success',
};

const typeClass: Partial<Record<DocumentType, string>> = {
  invoice: 'text-bg-primary',
  receipt: 'text-bg-primary',
  delivery_note: 'text-bg-info',
  credit_note: 'text-bg-danger',
  debit_note: 'text-bg-secondary',
};

/** What a side's badges say (`namespace`) and how tests find them (`<testIdPrefix>-status`). */
interface BadgeSide {
  namespace: DocumentNamespace;
  testIdPrefix: string;
}

export function DocumentStatusBadge({ side, status }: { side: BadgeSide; status: DocumentStatus }) {
  const { t } = useTranslation(side.namespace);
  return (
    <span className={`badge ${statusClass[status]}`} data-testid={`${side.testIdPrefix}-status`} data-status={status}>
      {t(`statuses.${status}`)}
    </span>
  );
}

export function DocumentTypeBadge({ side, type }: { side: BadgeSide; type: DocumentType }) {
  const { t } = useTranslation(side.namespace);
  return (
    <span className={`badge ${typeClass[type] ?? 'text-bg-light border'}`} data-testid={`${side.testIdPrefix}-type`}>
      {t(`types.${type}`)}
    </span>
  );
}
