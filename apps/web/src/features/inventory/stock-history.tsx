import type { InventoryKind } from '@odontia/shared/enums';
import { History } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PaginationFooter } from '../../components/pagination-footer';
import { TableBodyState } from '../../components/table-body-state';
import { useStockMovements } from './api';
import { useDateTimeFormat, useMoneyFormat, useNumberFormat } from './format';

const pageSize = 10;

/** The item's stock ledger, newest first: what came in and went out, and the stock after each movement. */
export function StockHistory({ kind, itemId }: { kind: InventoryKind; itemId: string }) {
  const { t } = useTranslation('inventory');
  const [page, setPage] = useState(1);
  const query = useStockMovements(kind, itemId, page, pageSize);
  const dateTime = useDateTimeFormat();
  const money = useMoneyFormat();
  const number = useNumberFormat();
  const rows = query.data?.data ?? [];
  const columns = 8;

  return (
    <section className="card" data-testid="stock-history">
      <div className="card-header">
        <h2 className="card-title inventory-card-title">
          <History size={18} aria-hidden="true" />
          {t('history.title')}
        </h2>
      </div>
      <div className="table-responsive">
        <table className="table align-middle mb-0 data-table movements-table" aria-busy={query.isFetching}>
          <caption className="visually-hidden">{t('history.title')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('history.date')}</th>
              <th scope="col">{t('history.kind')}</th>
              <th scope="col" className="text-end">
                {t('history.quantity')}
              </th>
              <th scope="col" className="text-end">
                {t('history.stockAfter')}
              </th>
              <th scope="col" className="text-end">
                {t('history.unitCost')}
              </th>
              <th scope="col">{t('history.reason')}</th>
              <th scope="col">{t('history.reference')}</th>
              <th scope="col">{t('history.user')}</th>
            </tr>
          </thead>
          <tbody>
            <TableBodyState
              query={query}
              columns={columns}
              isEmpty={rows.length === 0}
              emptyText={t('history.empty')}
              errorText={t('history.loadError')}
              retryText={t('list.retry')}
              compact
            >
              {rows.map((movement) => (
                <tr key={movement.id} data-testid="movement-row" data-kind={movement.kind}>
                  <td className="movement-date text-nowrap">{dateTime(movement.createdAt)}</td>
                  <td className="movement-kind">{t(`movementKinds.${movement.kind}`)}</td>
                  <td
                    className={`movement-quantity text-end fw-semibold text-nowrap ${movement.quantity < 0 ? 'text-danger-emphasis' : 'text-success-emphasis'}`}
                  >
                    {movement.quantity > 0 ? '+' : movement.quantity < 0 ? '−' : ''}
                    {number(Math.abs(movement.quantity))}
                  </td>
                  <td className="movement-after text-end">
                    <span className="movement-label">{t('history.stockAfter')}: </span>
                    {number(movement.stockAfter)}
                  </td>
                  <td className="movement-cost text-end text-nowrap">
                    {movement.unitCost ? money(movement.unitCost) : <span className="text-body-secondary">—</span>}
                  </td>
                  <td className="movement-reason">
                    {movement.reason ?? <span className="text-body-secondary">—</span>}
                  </td>
                  <td className="movement-reference small text-body-secondary">
                    {movement.referenceType
                      ? t(`history.references.${movement.referenceType}`, { defaultValue: movement.referenceType })
                      : '—'}
                  </td>
                  <td className="movement-user small">{movement.userName ?? '—'}</td>
                </tr>
              ))}
            </TableBodyState>
          </tbody>
        </table>
      </div>
      {(query.data?.total ?? 0) > pageSize ? (
        <PaginationFooter
          page={page}
          pageSize={pageSize}
          total={query.data?.total ?? 0}
          onPage={setPage}
          label={t('history.pagination')}
        />
      ) : null}
    </section>
  );
}
