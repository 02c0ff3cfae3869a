import type { ApprovalStatus, ProductStatus, StockLevel } from '@odontia/shared/enums';
import type { InventoryItem } from '@odontia/shared/schemas/inventory';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { itemPath } from './api';
import { itemDetails, useNumberFormat } from './format';

/** An item's name in a list: the link that opens it, with its details (concentration, brand…) below. */
export function ItemName({ item }: { item: InventoryItem }) {
  const details = itemDetails(item);
  return (
    <>
      <Link to={itemPath(item.kind, item.id)} className="fw-semibold link-body-emphasis text-decoration-none">
        {item.name}
      </Link>
      {details ? <div className="small text-body-secondary">{details}</div> : null}
    </>
  );
}

const stockClass: Record<StockLevel, string> = {
  critical: 'text-bg-danger',
  reorder: 'text-bg-warning',
  ok: 'bg-success-subtle text-success-emphasis',
};

/**
 * The stock with its level: red at or below the minimum, amber at or below the reorder level.
 * Without `stock` (next to a stock shown in large) only the level's name.
 */
export function StockBadge({ stock, level }: { stock?: number; level: StockLevel }) {
  const { t } = useTranslation('inventory');
  const number = useNumberFormat();
  return (
    <span
      className={`badge stock-badge ${stockClass[level]}`}
      data-testid="stock-badge"
      data-level={level}
      title={t(`stockLevels.${level}`)}
    >
      {stock === undefined ? (
        t(`stockLevelsShort.${level}`)
      ) : (
        <>
          {number(stock)}
          {level === 'ok' ? (
            <span className="visually-hidden"> · {t('stockLevels.ok')}</span>
          ) : (
            <span className="stock-badge-level"> · {t(`stockLevelsShort.${level}`)}</span>
          )}
        </>
      )}
    </span>
  );
}

const approvalClass: Record<ApprovalStatus, string> = {
  underReview: 'bg-info-subtle text-info-emphasis',
  approved: 'bg-success-subtle text-success-emphasis',
  suspended: 'bg-warning-subtle text-warning-emphasis',
  withdrawn: 'bg-danger-subtle text-danger-emphasis',
};

export function ApprovalBadge({ status }: { status: ApprovalStatus | null }) {
  const { t } = useTranslation('inventory');
  if (!status) return null;
  return (
    <span className={`badge ${approvalClass[status]}`} data-testid="approval-badge">
      {t(`approvalStatuses.${status}`)}
    </span>
  );
}

export function ProductStatusBadge({ status }: { status: ProductStatus }) {
  const { t } = useTranslation('inventory');
  return (
    <span
      className={`badge ${status === 'active' ? 'bg-primary-subtle text-primary-emphasis' : 'bg-secondary-subtle text-secondary-emphasis'}`}
    >
      {t(`productStatuses.${status}`)}
    </span>
  );
}
