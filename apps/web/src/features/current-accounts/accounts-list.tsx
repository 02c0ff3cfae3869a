import '../../lib/zod-setup';
import type { ProviderAccount } from '@odontia/shared/schemas/current-accounts';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { type Column, DataTable } from '../../components/data-table';
import { SearchBox } from '../../components/search-box';
import { useListState } from '../../lib/use-list-state';
import { type AccountFilters, currentAccountsApi, useAccounts } from '../payments/api';
import { withCardLabels } from '../payments/card-labels';
import { AccountsListTools, AccountsTotals, useFigureColumns } from './account-figures';

const pageSize = 50;

/** `/cc-providers`: every provider's balance, overdue amount and aging, with the totals of the search. */
export function AccountsList() {
  const { t } = useTranslation(['currentAccounts', 'common']);
  const navigate = useNavigate();
  const list = useListState({ sort: 'name', filters: ['withBalance'], debounceMs: 250 });
  const filters: AccountFilters = { q: list.search, sort: list.sort, withBalance: list.filters.withBalance === 'true' };
  const query = useAccounts(filters, list.page, pageSize);
  const totals = query.data?.totals;
  const figureColumns = useFigureColumns<ProviderAccount>();
  const columns: Column<ProviderAccount>[] = [
    {
      key: 'name',
      header: t('fields.provider'),
      sortable: true,
      primary: true,
      cell: (account) => (
        <>
          <Link to={`/cc-providers/${account.providerId}`} className="fw-semibold" data-testid="account-link">
            {account.name}
          </Link>
          {account.nif ? <span className="d-block small text-body-secondary">{account.nif}</span> : null}
          {account.active ? null : <span className="badge text-bg-secondary">{t('list.inactive')}</span>}
        </>
      ),
    },
    ...figureColumns,
  ];

  return (
    <section className="card" data-testid="accounts-list">
      <div className="card-header list-toolbar">
        <SearchBox
          label={t('list.search')}
          placeholder={t('list.searchPlaceholder')}
          value={list.searchText}
          autoComplete="off"
          data-testid="accounts-search"
          onChange={(event) => list.setSearchText(event.target.value)}
        />
        <AccountsListTools
          withBalance={filters.withBalance}
          onWithBalance={(checked) => list.setFilter('withBalance', checked ? 'true' : '')}
          download={() => currentAccountsApi.export(filters)}
          fallbackName="cuentas-corrientes-proveedores.csv"
        />
      </div>
      {totals ? <AccountsTotals totals={totals} accounts={query.data?.data ?? []} /> : null}
      <DataTable<ProviderAccount>
        label={t('list.caption')}
        className="table-hover"
        columns={withCardLabels(columns)}
        query={query}
        rowKey={(account) => account.providerId}
        rowProps={(account) => ({
          'data-testid': 'account-row',
          'data-name': account.name,
          className: 'data-table-row',
          onClick: (event) => {
            if (!(event.target as HTMLElement).closest('a')) void navigate(`/cc-providers/${account.providerId}`);
          },
        })}
        emptyText={filters.q || filters.withBalance ? t('list.emptyFiltered') : t('list.empty')}
        emptyTestId="accounts-empty"
        sort={{ value: list.sort, onSort: list.setSort }}
        pagination={{ page: list.page, pageSize, onPage: list.setPage }}
      />
    </section>
  );
}
