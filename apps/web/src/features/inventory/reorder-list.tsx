import '../../lib/zod-setup';
import { type InventoryKind, inventoryKinds } from '@odontia/shared/enums';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { DataTable } from '../../components/data-table';
import { FilterSelect, optionsWithAny } from '../../components/filter-select';
import { openRowOnClick } from '../../components/list-card';
import { pagesOf, useListState } from '../../lib/use-list-state';
import { itemPath, type ReorderItem, useReorderList } from './api';
import { ItemName, StockBadge } from './badges';
import { useNumberFormat } from './format';

const pageSize = 20;

/** `/inventory/reorder`: medicines and supplies at or below their reorder level, with how many to order. */
export function ReorderList() {
  const { t } = useTranslation('inventory');
  const navigate = useNavigate();
  const number = useNumberFormat();
  const list = useListState({ filters: ['kind'] });
  const kind = (inventoryKinds as readonly string[]).includes(list.filters.kind)
    ? (list.filters.kind as InventoryKind)
    : '';
  const query = useReorderList(kind, list.page, pageSize);

  return (
    <section className="card inventory-card" data-testid="reorder-list">
      <div className="card-header list-toolbar">
        <p className="mb-0 text-body-secondary small">{t('reorder.text')}</p>
        <FilterSelect
          label={t('reorder.kind')}
          value={kind}
          onChange={(value) => list.setFilter('kind', value)}
          options={optionsWithAny(t('reorder.allKinds'), inventoryKinds, (value) => t(`kinds.${value}`))}
        />
      </div>
      <DataTable<ReorderItem>
        label={t('reorder.caption')}
        className="table-hover reorder-table"
        query={query}
        rowKey={(item) => item.id}
        rowProps={(item) => ({
          'data-testid': 'reorder-row',
          'data-sku': item.sku ?? '',
          className: 'data-table-row inventory-row',
          onClick: openRowOnClick(navigate, itemPath(item.kind, item.id)),
        })}
        emptyText={t('reorder.empty')}
        emptyTestId="reorder-empty"
        errorText={t('list.loadError')}
        retryText={t('list.retry')}
        pagination={{
          ...pagesOf(list, pageSize),
          label: t('reorder.pagination'),
          testId: 'reorder-range',
        }}
        columns={[
          {
            key: 'name',
            header: t('fields.name'),
            primary: true,
            className: 'item-name',
            cell: (item) => <ItemName item={item} />,
          },
          { key: 'kind', header: t('reorder.kind'), className: 'item-kind', cell: (item) => t(`kinds.${item.kind}`) },
          {
            key: 'stock',
            header: t('fields.totalStock'),
            className: 'item-stock text-end',
            cell: (item) => <StockBadge stock={item.totalStock} level={item.stockLevel} />,
          },
          {
            key: 'reorder',
            header: t('fields.reorderStock'),
            className: 'item-reorder text-end',
            cell: (item) => (
              <>
                <span className="reorder-label">{t('fields.reorderStock')}: </span>
                {number(item.reorderStock)}
              </>
            ),
          },
          {
            key: 'suggested',
            header: t('reorder.suggested'),
            className: 'item-suggested text-end fw-semibold',
            cell: (item) => (
              <span data-testid="suggested-quantity">
                <span className="reorder-label">{t('reorder.suggested')}: </span>
                {number(item.suggestedQuantity)}
              </span>
            ),
          },
        ]}
      />
    </section>
  );
}
