import '../../lib/zod-setup';
import { approvalStatuses, type InventoryKind, productStatuses } from '@odontia/shared/enums';
import { can } from '@odontia/shared/permissions';
import type { InventoryItem } from '@odontia/shared/schemas/inventory';
import { Upload } from 'lucide-react';
import { type KeyboardEvent, lazy, Suspense, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import type { Column } from '../../components/data-table';
import { FilterSelect, optionsWithAny } from '../../components/filter-select';
import { ExportButton, ListCard, NewButton, openRowOnClick } from '../../components/list-card';
import { SwitchField } from '../../components/switch-field';
import { toastApiError } from '../../lib/api-toast';
import { queryClient } from '../../lib/query-client';
import { useListState } from '../../lib/use-list-state';
import { useSessionUser } from '../../session/session';
import {
  type InventoryFilters,
  type InventoryListQuery,
  inventoryApi,
  itemPath,
  kindPaths,
  listKey,
  useInventoryList,
} from './api';
import { ApprovalBadge, ItemName, ProductStatusBadge, StockBadge } from './badges';
import { useMoneyFormat } from './format';

const ImportModal = lazy(() => import('./import-modal').then((module) => ({ default: module.ImportModal })));

const pageSize = 20;

/** A filter read from the URL: one of its values, or '' (not filtered) for anything else. */
const oneOf = <T extends string>(values: readonly T[], value: string): T | '' =>
  (values as readonly string[]).includes(value) ? (value as T) : '';

function useItemColumns(kind: InventoryKind): Column<InventoryItem>[] {
  const { t } = useTranslation('inventory');
  const money = useMoneyFormat();
  const columns: Column<InventoryItem>[] = [
    {
      key: 'name',
      header: t('fields.name'),
      sortable: true,
      primary: true,
      className: 'item-name',
      cell: (item) => <ItemName item={item} />,
    },
    {
      key: 'sku',
      header: t('fields.sku'),
      sortable: true,
      className: 'item-sku',
      cell: (item) =>
        item.sku ? <code className="text-body">{item.sku}</code> : <span className="text-body-secondary">—</span>,
    },
    {
      key: 'totalStock',
      header: t('fields.totalStock'),
      sortable: true,
      className: 'item-stock text-end',
      cell: (item) => <StockBadge stock={item.totalStock} level={item.stockLevel} />,
    },
    {
      key: 'basePrice',
      header: t('fields.priceWithTax'),
      sortable: true,
      className: 'item-price text-end text-nowrap',
      cell: (item) => (
        <>
          <span className="visually-hidden">{t('fields.priceWithTax')}: </span>
          {money(item.priceWithTax)}
        </>
      ),
    },
    {
      key: 'approvalStatus',
      header: t('fields.approvalStatus'),
      className: 'item-approval',
      cell: (item) => (item.kind === 'medication' ? <ApprovalBadge status={item.approvalStatus} /> : null),
    },
    {
      key: 'productStatus',
      header: t('fields.productStatus'),
      className: 'item-status',
      cell: (item) => <ProductStatusBadge status={item.productStatus} />,
    },
  ];
  return kind === 'medication' ? columns : columns.filter((column) => column.key !== 'approvalStatus');
}

/** `/medications` and `/supplies`: the catalogue of one kind, searched, filtered and paginated by the server. */
export function InventoryList({ kind }: { kind: InventoryKind }) {
  const { t } = useTranslation(['inventory', 'common']);
  const navigate = useNavigate();
  const id = useId();
  const user = useSessionUser();
  const canWrite = user ? can(user.level, 'inventory.write') : false;
  const list = useListState({
    sort: 'name',
    filters: ['lowStock', 'approvalStatus', 'productStatus'],
    debounceMs: 250,
  });
  const [, setParams] = useSearchParams();
  const [importing, setImporting] = useState(false);
  const medication = kind === 'medication';
  const q = list.search;
  const filters: InventoryFilters = {
    q,
    sort: list.sort,
    lowStock: list.filters.lowStock === 'true',
    approvalStatus: medication ? oneOf(approvalStatuses, list.filters.approvalStatus) : '',
    productStatus: oneOf(productStatuses, list.filters.productStatus),
  };
  const query = useInventoryList(kind, { ...filters, page: list.page, pageSize });
  const columns = useItemColumns(kind);
  const filtered = Boolean(q || filters.lowStock || filters.approvalStatus || filters.productStatus);

  /** A barcode scanner types the code and presses Enter: search at once and open the item it names. */
  const onSearchKey = async (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    const text = event.currentTarget.value.trim();
    if (!text) return;
    // The code is the search at once: the list's debounced write of it, landing while the item's
    // page loads, would cancel that navigation and bring the list back.
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.set('q', text);
        next.delete('page');
        return next;
      },
      { replace: true, preventScrollReset: true },
    );
    const scanQuery: InventoryListQuery = { ...filters, q: text, page: 1, pageSize };
    try {
      const answer = await queryClient.fetchQuery({
        queryKey: listKey(kind, scanQuery),
        queryFn: () => inventoryApi.list(kind, scanQuery),
      });
      const wanted = text.toLowerCase();
      const exact = answer.data.find(
        (item) => item.barCode?.toLowerCase() === wanted || item.sku?.toLowerCase() === wanted,
      );
      const found = exact ?? (answer.total === 1 ? answer.data[0] : undefined);
      if (found) void navigate(itemPath(kind, found.id));
    } catch (error) {
      toastApiError(error);
    }
  };

  return (
    <ListCard<InventoryItem>
      ns="inventory"
      list={list}
      pageSize={pageSize}
      testId="inventory-list"
      cardClassName="inventory-card"
      cardData={{ 'data-kind': kind }}
      searchPlaceholder={t(`list.searchPlaceholder.${kind}`)}
      searchTestId="inventory-search"
      onSearchKey={(event) => void onSearchKey(event)}
      tools={
        <div className="d-flex flex-wrap gap-2 inventory-actions">
          <ExportButton
            label={t('list.export')}
            load={() => inventoryApi.export(kind, filters)}
            fallbackName={`${kindPaths[kind].api}.csv`}
          />
          {canWrite ? (
            <>
              <button type="button" className="btn btn-outline-secondary" onClick={() => setImporting(true)}>
                <Upload size={16} aria-hidden="true" className="me-2" />
                {t('list.import')}
              </button>
              <NewButton label={t(`list.create.${kind}`)} to={`${kindPaths[kind].web}/create`} />
            </>
          ) : null}
        </div>
      }
      filtersClassName="inventory-filters"
      filters={
        <>
          <SwitchField
            id={`${id}-low`}
            label={t('list.lowStock')}
            className="mb-0"
            input={{
              checked: filters.lowStock,
              onChange: (event) => list.setFilter('lowStock', event.target.checked ? 'true' : ''),
            }}
          />
          {medication ? (
            <FilterSelect
              label={t('fields.approvalStatus')}
              value={filters.approvalStatus}
              onChange={(value) => list.setFilter('approvalStatus', value)}
              options={optionsWithAny(t('list.anyApproval'), approvalStatuses, (status) =>
                t(`approvalStatuses.${status}`),
              )}
            />
          ) : null}
          <FilterSelect
            label={t('fields.productStatus')}
            value={filters.productStatus}
            onChange={(value) => list.setFilter('productStatus', value)}
            options={optionsWithAny(t('list.anyStatus'), productStatuses, (status) => t(`productStatuses.${status}`))}
          />
        </>
      }
      caption={t(`list.caption.${kind}`)}
      paginationLabel={t(`list.pagination.${kind}`)}
      className="table-hover inventory-table"
      columns={columns}
      query={query}
      rowKey={(item) => item.id}
      rowProps={(item) => ({
        'data-testid': 'inventory-row',
        'data-sku': item.sku ?? '',
        className: `data-table-row inventory-row${item.productStatus === 'inactive' ? ' text-body-secondary' : ''}`,
        // The name is a link of its own; a click elsewhere on the row opens the item too.
        onClick: openRowOnClick(navigate, itemPath(item.kind, item.id)),
      })}
      emptyText={q ? t('list.noMatches', { q }) : filtered ? t('list.noFilterMatches') : t(`list.empty.${kind}`)}
      emptyTestId="inventory-empty"
      rangeTestId="inventory-range"
    >
      {importing ? (
        <Suspense fallback={null}>
          <ImportModal kind={kind} onClose={() => setImporting(false)} />
        </Suspense>
      ) : null}
    </ListCard>
  );
}
