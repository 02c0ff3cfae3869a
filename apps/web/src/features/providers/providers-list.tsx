import type { Provider } from '@odontia/shared/schemas/providers';
import { formatTaxId } from '@odontia/shared/tax-ids';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import type { Column } from '../../components/data-table';
import {
  ActiveFilterSelect,
  activeColumn,
  ExportButton,
  ListCard,
  NewButton,
  openRowOnClick,
} from '../../components/list-card';
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
    activeColumn(t('list.status'), { active: t('badge.active'), inactive: t('badge.inactive') }, 'provider-status'),
  ];
}

/** `/providers`: the clinic's providers, searched as you type, filtered, sorted, paginated and exported by the server. */
export function ProvidersList({ canWrite }: { canWrite: boolean }) {
  const { t } = useTranslation(['providers', 'common']);
  const navigate = useNavigate();
  const list = useListState({ sort: 'fantasyName', filters: ['active'], debounceMs: 250 });
  const phone = useMediaQuery('(max-width: 767.98px)');
  const active = (activeFilters as readonly string[]).includes(list.filters.active)
    ? (list.filters.active as ActiveFilter)
    : 'all';
  const q = list.search;
  const filters: ProviderFilters = { q, sort: list.sort, active };
  const query = useProvidersList({ ...filters, page: list.page, pageSize });
  const columns = useProviderColumns();

  return (
    <ListCard<Provider>
      ns="providers"
      list={list}
      pageSize={pageSize}
      testId="providers-list"
      cardClassName="providers-card"
      searchPlaceholder={t(phone ? 'list.searchPlaceholderShort' : 'list.searchPlaceholder')}
      searchTestId="providers-search"
      tools={
        <div className="d-flex flex-wrap gap-2">
          <ExportButton
            label={t('list.export')}
            load={() => exportProviders(filters)}
            fallbackName="proveedores.csv"
            testId="providers-export"
          />
          {canWrite ? <NewButton label={t('list.create')} to={providerPaths.create} testId="provider-create" /> : null}
        </div>
      }
      filters={
        <ActiveFilterSelect
          ns="providers"
          testId="providers-active"
          value={active}
          onChange={(value) => list.setFilter('active', value === 'all' ? '' : value)}
        />
      }
      className="table-hover providers-table"
      columns={columns}
      query={query}
      rowKey={(provider) => provider.id}
      rowProps={(provider) => ({
        'data-testid': 'provider-row',
        className: `data-table-row provider-row${provider.active ? '' : ' text-body-secondary'}`,
        onClick: openRowOnClick(navigate, providerPaths.edit(provider.id)),
      })}
      emptyText={q ? t('list.noMatches', { q }) : active !== 'all' ? t('list.noFilterMatches') : t('list.empty')}
      emptyTestId="providers-empty"
      rangeTestId="providers-range"
    />
  );
}
