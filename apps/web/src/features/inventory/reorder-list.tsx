import '../auth/zod-setup';
import { type InventoryKind, inventoryKinds } from '@odontia/shared/enums';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { PaginationFooter } from '../../components/pagination-footer';
import { TableBodyState } from '../../components/table-body-state';
import { itemPath, useReorderList } from './api';
import { StockBadge } from './badges';
import { itemDetails, useNumberFormat } from './format';

const pageSize = 20;
const columns = 5;

/** `/inventory/reorder`: medicines and supplies at or below their reorder level, with how many to order. */
export function ReorderList() {
  const { t } = useTranslation('inventory');
  const id = useId();
  const navigate = useNavigate();
  const number = useNumberFormat();
  const [kind, setKind] = useState<InventoryKind | ''>('');
  const [page, setPage] = useState(1);
  const query = useReorderList(kind, page, pageSize);
  const rows = query.data?.data ?? [];

  return (
    <section className="card inventory-card" data-testid="reorder-list">
      <div className="card-header list-toolbar">
        <p className="mb-0 text-body-secondary small">{t('reorder.text')}</p>
        <div className="inventory-filter">
          <label htmlFor={`${id}-kind`} className="visually-hidden">
            {t('reorder.kind')}
          </label>
          <select
            id={`${id}-kind`}
            className="form-select form-select-sm"
            value={kind}
            onChange={(event) => {
              setKind(event.target.value as InventoryKind | '');
              setPage(1);
            }}
          >
            <option value="">{t('reorder.allKinds')}</option>
            {inventoryKinds.map((value) => (
              <option key={value} value={value}>
                {t(`kinds.${value}`)}
              </option>
            ))}
          </select>
        </div>
      </div>
      <div className="table-responsive">
        <table className="table table-hover align-middle mb-0 data-table reorder-table" aria-busy={query.isFetching}>
          <caption className="visually-hidden">{t('reorder.caption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('fields.name')}</th>
              <th scope="col">{t('reorder.kind')}</th>
              <th scope="col" className="text-end">
                {t('fields.totalStock')}
              </th>
              <th scope="col" className="text-end">
                {t('fields.reorderStock')}
              </th>
              <th scope="col" className="text-end">
                {t('reorder.suggested')}
              </th>
            </tr>
          </thead>
          <tbody>
            <TableBodyState
              query={query}
              columns={columns}
              isEmpty={rows.length === 0}
              emptyText={t('reorder.empty')}
              emptyTestId="reorder-empty"
              errorText={t('list.loadError')}
              retryText={t('list.retry')}
            >
              {rows.map((item) => {
                const details = itemDetails(item);
                return (
                  <tr
                    key={item.id}
                    data-testid="reorder-row"
                    data-sku={item.sku ?? ''}
                    className="inventory-row"
                    onClick={(event) => {
                      if (!(event.target as HTMLElement).closest('a')) void navigate(itemPath(item.kind, item.id));
                    }}
                  >
                    <td className="item-name">
                      <Link
                        to={itemPath(item.kind, item.id)}
                        className="fw-semibold link-body-emphasis text-decoration-none"
                      >
                        {item.name}
                      </Link>
                      {details ? <div className="small text-body-secondary">{details}</div> : null}
                    </td>
                    <td className="item-kind">{t(`kinds.${item.kind}`)}</td>
                    <td className="item-stock text-end">
                      <StockBadge stock={item.totalStock} level={item.stockLevel} />
                    </td>
                    <td className="item-reorder text-end">
                      <span className="reorder-label">{t('fields.reorderStock')}: </span>
                      {number(item.reorderStock)}
                    </td>
                    <td className="item-suggested text-end fw-semibold" data-testid="suggested-quantity">
                      <span className="reorder-label">{t('reorder.suggested')}: </span>
                      {number(item.suggestedQuantity)}
                    </td>
                  </tr>
                );
              })}
            </TableBodyState>
          </tbody>
        </table>
      </div>
      <PaginationFooter
        page={page}
        pageSize={pageSize}
        total={query.data?.total ?? 0}
        onPage={setPage}
        label={t('reorder.pagination')}
        testId="reorder-range"
      />
    </section>
  );
}
