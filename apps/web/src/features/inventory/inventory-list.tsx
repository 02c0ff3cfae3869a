import '../auth/zod-setup';
import { approvalStatuses, type InventoryKind, productStatuses } from '@odontia/shared/enums';
import { can } from '@odontia/shared/permissions';
import type { InventoryItem } from '@odontia/shared/schemas/inventory';
import { Download, Plus, Upload } from 'lucide-react';
import { type KeyboardEvent, lazy, Suspense, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { PaginationFooter } from '../../components/pagination-footer';
import { SearchBox } from '../../components/search-box';
import { SortHeader } from '../../components/sort-header';
import { TableBodyState } from '../../components/table-body-state';
import { toastApiError } from '../../lib/api-toast';
import { queryClient } from '../../lib/query-client';
import { saveFile } from '../../lib/save-file';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { useSessionUser } from '../auth/session';
import {
  type InventoryFilters,
  type InventoryListQuery,
  inventoryApi,
  itemPath,
  kindPaths,
  listKey,
  useInventoryList,
} from './api';
import { ApprovalBadge, ProductStatusBadge, StockBadge } from './badges';
import { itemDetails, useMoneyFormat } from './format';

const ImportModal = lazy(() => import('./import-modal').then((module) => ({ default: module.ImportModal })));

const pageSize = 20;

function ItemRow({ item, onOpen }: { item: InventoryItem; onOpen: () => void }) {
  const { t } = useTranslation('inventory');
  const money = useMoneyFormat();
  const details = itemDetails(item);
  return (
    <tr
      data-testid="inventory-row"
      data-sku={item.sku ?? ''}
      className={`inventory-row${item.productStatus === 'inactive' ? ' text-body-secondary' : ''}`}
      onClick={(event) => {
        // The name is a link of its own; a click elsewhere on the row opens the item too.
        if (!(event.target as HTMLElement).closest('a')) onOpen();
      }}
    >
      <td className="item-name">
        <Link to={itemPath(item.kind, item.id)} className="fw-semibold link-body-emphasis text-decoration-none">
          {item.name}
        </Link>
        {details ? <div className="small text-body-secondary">{details}</div> : null}
      </td>
      <td className="item-sku">
        {item.sku ? <code className="text-body">{item.sku}</code> : <span className="text-body-secondary">—</span>}
      </td>
      <td className="item-stock text-end">
        <StockBadge stock={item.totalStock} level={item.stockLevel} />
      </td>
      <td className="item-price text-end text-nowrap">
        <span className="visually-hidden">{t('fields.priceWithTax')}: </span>
        {money(item.priceWithTax)}
      </td>
      {item.kind === 'medication' ? (
        <td className="item-approval">
          <ApprovalBadge status={item.approvalStatus} />
        </td>
      ) : null}
      <td className="item-status">
        <ProductStatusBadge status={item.productStatus} />
      </td>
    </tr>
  );
}

/** `/medications` and `/supplies`: the catalogue of one kind, searched, filtered and paginated by the server. */
export function InventoryList({ kind }: { kind: InventoryKind }) {
  const { t } = useTranslation(['inventory', 'common']);
  const navigate = useNavigate();
  const id = useId();
  const user = useSessionUser();
  const canWrite = user ? can(user.level, 'inventory.write') : false;
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [sort, setSort] = useState('name');
  const [lowStock, setLowStock] = useState(false);
  const [approvalStatus, setApprovalStatus] = useState<InventoryFilters['approvalStatus']>('');
  const [productStatus, setProductStatus] = useState<InventoryFilters['productStatus']>('');
  const [importing, setImporting] = useState(false);
  const [exporting, setExporting] = useState(false);
  const q = useDebouncedValue(search.trim(), 250);
  const filters: InventoryFilters = {
    q,
    sort,
    lowStock,
    approvalStatus: kind === 'medication' ? approvalStatus : '',
    productStatus,
  };
  const query = useInventoryList(kind, { ...filters, page, pageSize });
  const rows = query.data?.data ?? [];
  const total = query.data?.total ?? 0;
  const medication = kind === 'medication';
  const columns = medication ? 6 : 5;
  const filtered = Boolean(q || lowStock || filters.approvalStatus || productStatus);

  const changeFilter =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      set(value);
      setPage(1);
    };

  /** A barcode scanner types the code and presses Enter: search at once and open the item it names. */
  const onSearchKey = async (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    const text = event.currentTarget.value.trim();
    if (!text) return;
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

  const onExport = async () => {
    setExporting(true);
    try {
      const file = await inventoryApi.export(kind, filters);
      saveFile(file.blob, file.fileName ?? `${kindPaths[kind].api}.csv`);
    } catch (error) {
      toastApiError(error);
    } finally {
      setExporting(false);
    }
  };

  return (
    <section className="card inventory-card" data-testid="inventory-list" data-kind={kind}>
      <div className="card-header list-toolbar">
        <SearchBox
          label={t('list.search')}
          placeholder={t(`list.searchPlaceholder.${kind}`)}
          value={search}
          autoComplete="off"
          data-testid="inventory-search"
          onChange={(event) => {
            setSearch(event.target.value);
            setPage(1);
          }}
          onKeyDown={(event) => void onSearchKey(event)}
        />
        <div className="d-flex flex-wrap gap-2 inventory-actions">
          <button
            type="button"
            className="btn btn-outline-secondary"
            onClick={() => void onExport()}
            disabled={exporting}
          >
            {exporting ? (
              <span className="spinner-border spinner-border-sm me-2" aria-hidden="true" />
            ) : (
              <Download size={16} aria-hidden="true" className="me-2" />
            )}
            {t('list.export')}
          </button>
          {canWrite ? (
            <>
              <button type="button" className="btn btn-outline-secondary" onClick={() => setImporting(true)}>
                <Upload size={16} aria-hidden="true" className="me-2" />
                {t('list.import')}
              </button>
              <Link to={`${kindPaths[kind].web}/create`} className="btn btn-primary">
                <Plus size={16} aria-hidden="true" className="me-2" />
                {t(`list.create.${kind}`)}
              </Link>
            </>
          ) : null}
        </div>
      </div>
      <div className="card-body border-bottom inventory-filters">
        <div className="form-check form-switch mb-0">
          <input
            className="form-check-input"
            type="checkbox"
            id={`${id}-low`}
            checked={lowStock}
            onChange={(event) => changeFilter(setLowStock)(event.target.checked)}
          />
          <label className="form-check-label" htmlFor={`${id}-low`}>
            {t('list.lowStock')}
          </label>
        </div>
        {medication ? (
          <div className="inventory-filter">
            <label htmlFor={`${id}-approval`} className="visually-hidden">
              {t('fields.approvalStatus')}
            </label>
            <select
              id={`${id}-approval`}
              className="form-select form-select-sm"
              value={approvalStatus}
              onChange={(event) =>
                changeFilter(setApprovalStatus)(event.target.value as InventoryFilters['approvalStatus'])
              }
            >
              <option value="">{t('list.anyApproval')}</option>
              {approvalStatuses.map((status) => (
                <option key={status} value={status}>
                  {t(`approvalStatuses.${status}`)}
                </option>
              ))}
            </select>
          </div>
        ) : null}
        <div className="inventory-filter">
          <label htmlFor={`${id}-status`} className="visually-hidden">
            {t('fields.productStatus')}
          </label>
          <select
            id={`${id}-status`}
            className="form-select form-select-sm"
            value={productStatus}
            onChange={(event) =>
              changeFilter(setProductStatus)(event.target.value as InventoryFilters['productStatus'])
            }
          >
            <option value="">{t('list.anyStatus')}</option>
            {productStatuses.map((status) => (
              <option key={status} value={status}>
                {t(`productStatuses.${status}`)}
              </option>
            ))}
          </select>
        </div>
      </div>
      <div className="table-responsive">
        <table className="table table-hover align-middle mb-0 data-table inventory-table" aria-busy={query.isFetching}>
          <caption className="visually-hidden">{t(`list.caption.${kind}`)}</caption>
          <thead>
            <tr>
              <SortHeader column="name" sort={sort} onSort={changeFilter(setSort)} label={t('fields.name')} />
              <SortHeader column="sku" sort={sort} onSort={changeFilter(setSort)} label={t('fields.sku')} />
              <SortHeader
                column="totalStock"
                sort={sort}
                onSort={changeFilter(setSort)}
                label={t('fields.totalStock')}
                className="text-end"
              />
              <SortHeader
                column="basePrice"
                sort={sort}
                onSort={changeFilter(setSort)}
                label={t('fields.priceWithTax')}
                className="text-end"
              />
              {medication ? <th scope="col">{t('fields.approvalStatus')}</th> : null}
              <th scope="col">{t('fields.productStatus')}</th>
            </tr>
          </thead>
          <tbody>
            <TableBodyState
              query={query}
              columns={columns}
              isEmpty={rows.length === 0}
              emptyText={
                q ? t('list.noMatches', { q }) : filtered ? t('list.noFilterMatches') : t(`list.empty.${kind}`)
              }
              emptyTestId="inventory-empty"
              errorText={t('list.loadError')}
              retryText={t('list.retry')}
            >
              {rows.map((item) => (
                <ItemRow key={item.id} item={item} onOpen={() => void navigate(itemPath(item.kind, item.id))} />
              ))}
            </TableBodyState>
          </tbody>
        </table>
      </div>
      <PaginationFooter
        page={page}
        pageSize={pageSize}
        total={total}
        onPage={setPage}
        label={t(`list.pagination.${kind}`)}
        testId="inventory-range"
      />
      {importing ? (
        <Suspense fallback={null}>
          <ImportModal kind={kind} onClose={() => setImporting(false)} />
        </Suspense>
      ) : null}
    </section>
  );
}
