import '../auth/zod-setup';
import { purchaseDocumentTypes } from '@odontia/shared/commercial';
import { can } from '@odontia/shared/permissions';
import type { PurchaseListItem } from '@odontia/shared/schemas/commercial-documents';
import { Plus, X } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { type Column, DataTable } from '../../components/data-table';
import { FilterSelect } from '../../components/filter-select';
import { SearchBox } from '../../components/search-box';
import { useListState } from '../../lib/use-list-state';
import { useCalendarDateFormat } from '../auth/clinic-time';
import { useSessionUser } from '../auth/session';
import { DateRangeFilter } from '../commercial/date-range-filter';
import { type PurchaseFilters, purchasePath, usePurchaseList } from './api';
import { StatusBadge, TypeBadge } from './badges';
import { documentNumberText, useDocumentMoney } from './format';
import { ProviderPicker } from './provider-picker';

const pageSize = 20;
const oneOf = <T extends string>(values: readonly T[], value: string): T | '' =>
  (values as readonly string[]).includes(value) ? (value as T) : '';
const isDay = (value: string) => (/^\d{4}-\d{2}-\d{2}$/.test(value) ? value : '');

function useColumns(): Column<PurchaseListItem>[] {
  const { t } = useTranslation('purchases');
  const money = useDocumentMoney();
  const day = useCalendarDateFormat();
  return [
    { key: 'date', header: t('fields.date'), sortable: true, cell: (row) => day(row.date) },
    {
      key: 'documentNumber',
      header: t('fields.document'),
      sortable: true,
      primary: true,
      cell: (row) => (
        <span className="d-flex flex-column align-items-start gap-1">
          <Link to={purchasePath(row.id)} className="fw-semibold">
            {documentNumberText(row)}
          </Link>
          <TypeBadge type={row.documentType} />
        </span>
      ),
    },
    { key: 'provider', header: t('fields.provider'), cell: (row) => row.providerName ?? '—' },
    { key: 'status', header: t('fields.status'), cell: (row) => <StatusBadge status={row.status} /> },
    { key: 'dueDate', header: t('fields.dueDate'), sortable: true, cell: (row) => day(row.dueDate) },
    {
      key: 'total',
      header: t('fields.total'),
      sortable: true,
      className: 'text-end',
      cell: (row) => money(row.total, row.currency),
    },
    {
      key: 'openAmount',
      header: t('fields.openAmount'),
      className: 'text-end',
      cell: (row) => money(row.openAmount, row.currency),
    },
  ];
}

/** `/purchases`: the clinic's purchases with search, filters, sort and pages in the URL. */
export function PurchaseList() {
  const { t } = useTranslation('purchases');
  const id = useId();
  const navigate = useNavigate();
  const user = useSessionUser();
  const canWrite = user ? can(user.level, 'commercial.write') : false;
  const list = useListState({
    sort: '-date',
    filters: ['providerId', 'documentType', 'status', 'from', 'to'],
    debounceMs: 250,
  });
  const [providerText, setProviderText] = useState('');
  const filters: PurchaseFilters = {
    q: list.search,
    sort: list.sort,
    providerId: list.filters.providerId,
    documentType: oneOf(purchaseDocumentTypes, list.filters.documentType),
    status: oneOf(['draft', 'registered'] as const, list.filters.status),
    from: isDay(list.filters.from),
    to: isDay(list.filters.to),
  };
  const query = usePurchaseList({ ...filters, page: list.page, pageSize });
  const columns = useColumns();
  // A provider filter the URL brought back (reload, Back) shows the provider's name from its rows.
  const shownProvider = query.data?.data.find((row) => row.providerId === filters.providerId)?.providerName;
  useEffect(() => {
    if (filters.providerId && !providerText && shownProvider) setProviderText(shownProvider);
  }, [filters.providerId, providerText, shownProvider]);
  const filtered = Boolean(
    filters.q || filters.providerId || filters.documentType || filters.status || filters.from || filters.to,
  );
  const clearProvider = () => {
    setProviderText('');
    list.setFilter('providerId', '');
  };

  return (
    <section className="card" data-testid="purchase-list">
      <div className="card-header list-toolbar">
        <SearchBox
          label={t('list.search')}
          placeholder={t('list.searchPlaceholder')}
          value={list.searchText}
          autoComplete="off"
          data-testid="purchase-search"
          onChange={(event) => list.setSearchText(event.target.value)}
        />
        {canWrite ? (
          <Link to="/purchases/create" className="btn btn-primary">
            <Plus size={16} aria-hidden="true" className="me-2" />
            {t('list.create')}
          </Link>
        ) : null}
      </div>
      <div className="card-body border-bottom d-flex flex-wrap gap-3 align-items-end">
        <div style={{ minWidth: '14rem' }}>
          <label className="form-label small mb-1" htmlFor={`${id}-provider`}>
            {t('fields.provider')}
          </label>
          <div className="d-flex gap-1">
            <ProviderPicker
              id={`${id}-provider`}
              value={providerText}
              onText={(text) => {
                setProviderText(text);
                if (!text) clearProvider();
              }}
              onPick={(provider) => {
                setProviderText(provider.fantasyName);
                list.setFilter('providerId', provider.id);
              }}
              placeholder={t('list.anyProvider')}
            />
            {filters.providerId ? (
              <button
                type="button"
                className="btn btn-outline-secondary"
                onClick={clearProvider}
                aria-label={t('list.clearProvider')}
              >
                <X size={16} aria-hidden="true" />
              </button>
            ) : null}
          </div>
        </div>
        <FilterSelect
          label={t('fields.documentType')}
          value={filters.documentType}
          visibleLabel
          className=""
          onChange={(value) => list.setFilter('documentType', value)}
          options={[
            { value: '', label: t('list.anyType') },
            ...purchaseDocumentTypes.map((type) => ({ value: type, label: t(`types.${type}`) })),
          ]}
        />
        <FilterSelect
          label={t('fields.status')}
          value={filters.status}
          visibleLabel
          className=""
          onChange={(value) => list.setFilter('status', value)}
          options={[
            { value: '', label: t('list.anyStatus') },
            { value: 'draft', label: t('statuses.draft') },
            { value: 'registered', label: t('statuses.registered') },
          ]}
        />
        <DateRangeFilter
          names={['from', 'to']}
          values={[filters.from, filters.to]}
          labels={[t('list.from'), t('list.to')]}
          onChange={list.setFilter}
        />
      </div>
      <DataTable<PurchaseListItem>
        label={t('list.caption')}
        className="table-hover"
        columns={columns}
        query={query}
        rowKey={(row) => row.id}
        rowProps={(row) => ({
          'data-testid': 'purchase-row',
          className: 'data-table-row',
          onClick: (event) => {
            if (!(event.target as HTMLElement).closest('a')) void navigate(purchasePath(row.id));
          },
        })}
        sort={{ value: list.sort, onSort: list.setSort }}
        emptyText={filtered ? t('list.noMatches') : t('list.empty')}
        emptyTestId="purchase-empty"
        errorText={t('list.loadError')}
        retryText={t('list.retry')}
        pagination={{ page: list.page, pageSize, onPage: list.setPage, label: t('list.pagination') }}
      />
    </section>
  );
}
