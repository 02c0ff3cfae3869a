import type { Provider } from '@odontia/shared/schemas/providers';
import { formatTaxId } from '@odontia/shared/tax-ids';
import { Download, Plus } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { BusyIcon } from '../../components/busy-icon';
import { type Column, DataTable } from '../../components/data-table';
import { FilterSelect } from '../../components/filter-select';
import { SearchBox } from '../../components/search-box';
import { toastApiError } from '../../lib/api-toast';
import { saveFile } from '../../lib/save-file';
import { useListState } from '../../lib/use-list-state';
import { useMediaQuery } from '../../lib/use-media-query';
import { type ActiveFilter, exportProviders, type ProviderFilters, providerPaths, useProvidersList } from './api';

const pageSize = 20;
const activeFilters = ['all', 'true', 'false'] as const satisfies readonly ActiveFilter[];
const missing = <span className="text-body-secondary is-empty">—</span>;

/** "11 4555-1234" from the area code and the number, else the mobile. */
export function providerPhone(provider: Provider): string | null {
  if (provider.phoneBusiness) return [provider.phoneAreaBussines, provider.phoneBusiness].filter(Boolean).join(' ');
  return provider.phoneMobile;
}

function useProviderColumns(): Column<Provider>[] {
  const { t } = useTranslation('providers');
  return [
    {
      key: 'fantasyName',
      header: t('fields.fantasyName'),
      sortable: true,
      primary: true,
      className: 'provider-name',
      cell: (provider) => (
        <>
          <Link
            to={providerPaths.edit(provider.id)}
            className="fw-semibold link-body-emphasis text-decoration-none"
            data-testid="provider-link"
          >
            {provider.fantasyName}
          </Link>
          {provider.bussinesName ? (
            <div className="small text-body-secondary">
              <span className="visually-hidden">{t('fields.bussinesName')}: </span>
              {provider.bussinesName}
            </div>
          ) : null}
        </>
      ),
    },
    {
      key: 'nif',
      header: t('fields.nif'),
      sortable: true,
      className: 'provider-nif text-nowrap',
      cell: (provider) =>
        provider.nif ? (
          <>
            <span className="patient-label">{provider.taxIdKind ? t(`taxIdKinds.${provider.taxIdKind}`) : ''} </span>
            {formatTaxId(provider.taxIdKind, provider.nif)}
          </>
        ) : (
          missing
        ),
    },
    {
      key: 'contact',
      header: t('fields.contactName'),
      className: 'provider-contact',
      cell: (provider) => provider.contactName ?? missing,
    },
    {
      key: 'phone',
      header: t('fields.phoneBusiness'),
      className: 'provider-phone text-nowrap',
      cell: (provider) => providerPhone(provider) ?? missing,
    },
    {
      key: 'email',
      header: t('fields.email'),
      className: 'provider-email',
      cell: (provider) => provider.email ?? missing,
    },
    {
      key: 'active',
      header: t('list.status'),
      className: 'provider-status',
      cell: (provider) => (
        <span className={`badge ${provider.active ? 'text-bg-success' : 'text-bg-secondary'}`}>
          {provider.active ? t('badge.active') : t('badge.inactive')}
        </span>
      ),
    },
  ];
}

/** `/providers`: the clinic's providers, searched as you type, filtered, sorted, paginated and exported by the server. */
export function ProvidersList({ canWrite }: { canWrite: boolean }) {
  const { t } = useTranslation(['providers', 'common']);
  const navigate = useNavigate();
  const list = useListState({ sort: 'fantasyName', filters: ['active'], debounceMs: 250 });
  const [exporting, setExporting] = useState(false);
  const phone = useMediaQuery('(max-width: 767.98px)');
  const active = (activeFilters as readonly string[]).includes(list.filters.active)
    ? (list.filters.active as ActiveFilter)
    : 'all';
  const q = list.search;
  const filters: ProviderFilters = { q, sort: list.sort, active };
  const query = useProvidersList({ ...filters, page: list.page, pageSize });
  const columns = useProviderColumns();

  const onExport = async () => {
    setExporting(true);
    try {
      const file = await exportProviders(filters);
      saveFile(file.blob, file.fileName ?? 'proveedores.csv');
    } catch (error) {
      toastApiError(error);
    } finally {
      setExporting(false);
    }
  };

  return (
    <section className="card providers-card" data-testid="providers-list">
      <div className="card-header list-toolbar">
        <SearchBox
          label={t('list.search')}
          placeholder={t(phone ? 'list.searchPlaceholderShort' : 'list.searchPlaceholder')}
          value={list.searchText}
          autoComplete="off"
          data-testid="providers-search"
          onChange={(event) => list.setSearchText(event.target.value)}
        />
        <div className="d-flex flex-wrap gap-2">
          <button
            type="button"
            className="btn btn-outline-secondary"
            onClick={() => void onExport()}
            disabled={exporting}
            data-testid="providers-export"
          >
            <BusyIcon busy={exporting} icon={Download} />
            {t('list.export')}
          </button>
          {canWrite ? (
            <Link to={providerPaths.create} className="btn btn-primary" data-testid="provider-create">
              <Plus size={16} aria-hidden="true" className="me-2" />
              {t('list.create')}
            </Link>
          ) : null}
        </div>
      </div>
      <div className="card-body border-bottom list-filters">
        <FilterSelect
          label={t('list.status')}
          visibleLabel
          className="list-filter"
          testId="providers-active"
          value={active}
          onChange={(value) => list.setFilter('active', value === 'all' ? '' : value)}
          options={[
            { value: 'all', label: t('list.statusAll') },
            { value: 'true', label: t('list.statusActive') },
            { value: 'false', label: t('list.statusInactive') },
          ]}
        />
      </div>
      <DataTable<Provider>
        label={t('list.caption')}
        className="table-hover providers-table"
        columns={columns}
        query={query}
        rowKey={(provider) => provider.id}
        rowProps={(provider) => ({
          'data-testid': 'provider-row',
          className: `data-table-row provider-row${provider.active ? '' : ' text-body-secondary'}`,
          onClick: (event) => {
            if (!(event.target as HTMLElement).closest('a')) void navigate(providerPaths.edit(provider.id));
          },
        })}
        sort={{ value: list.sort, onSort: list.setSort }}
        emptyText={q ? t('list.noMatches', { q }) : active !== 'all' ? t('list.noFilterMatches') : t('list.empty')}
        emptyTestId="providers-empty"
        errorText={t('list.loadError')}
        retryText={t('list.retry')}
        pagination={{
          page: list.page,
          pageSize,
          onPage: list.setPage,
          label: t('list.pagination'),
          testId: 'providers-range',
        }}
      />
    </section>
  );
}
