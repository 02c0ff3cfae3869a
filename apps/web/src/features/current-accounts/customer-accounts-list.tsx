import '../../lib/zod-setup';
import type { CustomerAccount } from '@odontia/shared/schemas/current-accounts';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { type Column, DataTable } from '../../components/data-table';
import { FilterSelect } from '../../components/filter-select';
import { SearchBox } from '../../components/search-box';
import { useListState } from '../../lib/use-list-state';
import { type CustomerAccountFilters, customerAccountsApi, useCustomerAccounts } from '../collections/api';
import { withCardLabels } from '../payments/card-labels';
import { AccountsListTools, AccountsTotals, useFigureColumns } from './account-figures';

const pageSize = 50;
const kinds = ['patient', 'company', 'insurer'] as const;

/** `/cc-customers`: what every customer (patient, company, insurer) owes, overdue and aging, with the totals of the search. */
export function CustomerAccountsList() {
  const { t } = useTranslation(['currentAccounts', 'common']);
  const navigate = useNavigate();
  const list = useListState({ sort: 'name', filters: ['withBalance', 'kind'], debounceMs: 250 });
  const filters: CustomerAccountFilters = {
    q: list.search,
    sort: list.sort,
    withBalance: list.filters.withBalance === 'true',
    kind: (kinds as readonly string[]).includes(list.filters.kind) ? list.filters.kind : '',
  };
  const query = useCustomerAccounts(filters, list.page, pageSize);
  const totals = query.data?.totals;
  const figureColumns = useFigureColumns<CustomerAccount>();
  const columns: Column<CustomerAccount>[] = [
    {
      key: 'name',
      header: t('customers.customer'),
      sortable: true,
      primary: true,
      cell: (account) => (
        <>
          <Link to={`/cc-customers/${account.customerId}`} className="fw-semibold" data-testid="account-link">
            {account.name}
          </Link>
          <span className="d-block small text-body-secondary">
            {[t(`customers.kinds.${account.kind}`), account.taxId].filter(Boolean).join(' · ')}
          </span>
          {account.active ? null : <span className="badge text-bg-secondary">{t('list.inactive')}</span>}
        </>
      ),
    },
    ...figureColumns,
  ];

  return (
    <section className="card" data-testid="customer-accounts-list">
      <div className="card-header list-toolbar">
        <SearchBox
          label={t('customers.search')}
          placeholder={t('customers.searchPlaceholder')}
          value={list.searchText}
          autoComplete="off"
          data-testid="accounts-search"
          onChange={(event) => list.setSearchText(event.target.value)}
        />
        <AccountsListTools
          withBalance={filters.withBalance}
          onWithBalance={(checked) => list.setFilter('withBalance', checked ? 'true' : '')}
          download={() => customerAccountsApi.export(filters)}
          fallbackName="cuentas-corrientes-clientes.csv"
        >
          <FilterSelect
            label={t('customers.kind')}
            value={filters.kind}
            onChange={(value) => list.setFilter('kind', value)}
            options={[
              { value: '', label: t('customers.anyKind') },
              ...kinds.map((kind) => ({ value: kind, label: t(`customers.kinds.${kind}`) })),
            ]}
          />
        </AccountsListTools>
      </div>
      {totals ? <AccountsTotals totals={totals} accounts={query.data?.data ?? []} /> : null}
      <DataTable<CustomerAccount>
        label={t('customers.caption')}
        className="table-hover"
        columns={withCardLabels(columns)}
        query={query}
        rowKey={(account) => account.customerId}
        rowProps={(account) => ({
          'data-testid': 'account-row',
          'data-name': account.name,
          className: 'data-table-row',
          onClick: (event) => {
            if (!(event.target as HTMLElement).closest('a')) void navigate(`/cc-customers/${account.customerId}`);
          },
        })}
        emptyText={
          filters.q || filters.withBalance || filters.kind ? t('customers.emptyFiltered') : t('customers.empty')
        }
        emptyTestId="accounts-empty"
        sort={{ value: list.sort, onSort: list.setSort }}
        pagination={{ page: list.page, pageSize, onPage: list.setPage }}
      />
    </section>
  );
}
