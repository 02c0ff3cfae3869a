import type { InventoryKind } from '@odontia/shared/enums';
import type { StockMovement } from '@odontia/shared/schemas/inventory';
import { History } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../components/data-table';
import { useListState } from '../../lib/use-list-state';
import { useStockMovements } from './api';
import { useDateTimeFormat, useMoneyFormat, useNumberFormat } from './format';

const pageSize = 10;
const none = <span className="text-body-secondary">—</span>;

/** The item's stock ledger, newest first: what came in and went out, and the stock after each movement. */
export function StockHistory({ kind, itemId }: { kind: InventoryKind; itemId: string }) {
  const { t } = useTranslation('inventory');
  const { page, setPage } = useListState();
  const query = useStockMovements(kind, itemId, page, pageSize);
  const dateTime = useDateTimeFormat();
  const money = useMoneyFormat();
  const number = useNumberFormat();

  return (
    <section className="card" data-testid="stock-history">
      <div className="card-header">
        <h2 className="card-title inventory-card-title">
          <History size={18} aria-hidden="true" />
          {t('history.title')}
        </h2>
      </div>
      <DataTable<StockMovement>
        label={t('history.title')}
        className="movements-table"
        compact
        query={query}
        rowKey={(movement) => movement.id}
        rowProps={(movement) => ({ 'data-testid': 'movement-row', 'data-kind': movement.kind })}
        emptyText={t('history.empty')}
        errorText={t('history.loadError')}
        retryText={t('list.retry')}
        pagination={{ page, pageSize, onPage: setPage, label: t('history.pagination'), onlyWhenNeeded: true }}
        columns={[
          {
            key: 'date',
            header: t('history.date'),
            className: 'movement-date text-nowrap',
            cell: (movement) => dateTime(movement.createdAt),
          },
          {
            key: 'kind',
            header: t('history.kind'),
            className: 'movement-kind',
            cell: (movement) => t(`movementKinds.${movement.kind}`),
          },
          {
            key: 'quantity',
            header: t('history.quantity'),
            className: 'movement-quantity text-end fw-semibold text-nowrap',
            cell: (movement) => (
              <span className={movement.quantity < 0 ? 'text-danger-emphasis' : 'text-success-emphasis'}>
                {movement.quantity > 0 ? '+' : movement.quantity < 0 ? '−' : ''}
                {number(Math.abs(movement.quantity))}
              </span>
            ),
          },
          {
            key: 'after',
            header: t('history.stockAfter'),
            className: 'movement-after text-end',
            cell: (movement) => (
              <>
                <span className="movement-label">{t('history.stockAfter')}: </span>
                {number(movement.stockAfter)}
              </>
            ),
          },
          {
            key: 'cost',
            header: t('history.unitCost'),
            className: 'movement-cost text-end text-nowrap',
            cell: (movement) => (movement.unitCost ? money(movement.unitCost) : none),
          },
          {
            key: 'reason',
            header: t('history.reason'),
            className: 'movement-reason',
            cell: (movement) => movement.reason ?? none,
          },
          {
            key: 'reference',
            header: t('history.reference'),
            className: 'movement-reference small text-body-secondary',
            cell: (movement) =>
              movement.referenceType
                ? t(`history.references.${movement.referenceType}`, { defaultValue: movement.referenceType })
                : '—',
          },
          {
            key: 'user',
            header: t('history.user'),
            className: 'movement-user small',
            cell: (movement) => movement.userName ?? '—',
          },
        ]}
      />
    </section>
  );
}
