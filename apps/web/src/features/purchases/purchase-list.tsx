import '../../lib/zod-setup';
import { purchaseDocumentTypes } from '@odontia/shared/commercial';
import { can } from '@odontia/shared/permissions';
import type { PurchaseListItem } from '@odontia/shared/schemas/commercial-documents';
import { Plus } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { type Column, DataTable } from '../../components/data-table';
import { SearchBox } from '../../components/search-box';
import { useListState } from '../../lib/use-list-state';
import { useSessionUser } from '../../session/session';
import { DateRangeFilter } from '../commercial/date-range-filter';
import { isDay, oneOf, PartyFilter, TypeAndStatusFilters, useDocumentColumns } from '../commercial/document-list-parts';
import { type PurchaseFilters, purchasePath, usePurchaseList } from './api';
import { StatusBadge, TypeBadge } from './badges';
import { documentNumberText } from './format';
import { ProviderPicker } from './provider-picker';

const pageSize = 20;
function useColumns(): Column<PurchaseListItem>[] {
  const { t } = useTranslation('purchases');
  return useDocumentColumns<PurchaseListItem>('purchases', {
    number: {
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
    party: { key: 'provider', header: t('fields.provider'), cell: (row) => row.providerName ?? '—' },
    status: { key: 'status', header: t('fields.status'), cell: (row) => <StatusBadge status={row.status} /> },
  });
}

/** `/purchases`: the clinic's purchases with search, filters, sort and pages in the URL. */
export function PurchaseList() {
  const { t } = useTranslation('purchases');
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
        <PartyFilter
          label={t('fields.provider')}
          minWidth="14rem"
          active={Boolean(filters.providerId)}
          onClear={clearProvider}
          clearLabel={t('list.clearProvider')}
        >
          {(inputId) => (
            <ProviderPicker
              id={inputId}
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
          )}
        </PartyFilter>
        <TypeAndStatusFilters
          namespace="purchases"
          types={purchaseDocumentTypes}
          statuses={['draft', 'registered']}
          type={filters.documentType}
          status={filters.status}
          onChange={list.setFilter}
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
