import '../../lib/zod-setup';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { type Column, DataTable } from '../../components/data-table';
import { FilterSelect, optionsWithAny } from '../../components/filter-select';
import { openRowOnClick } from '../../components/list-card';
import { SearchBox } from '../../components/search-box';
import { pagesOf, useListState } from '../../lib/use-list-state';
import { withCardLabels } from '../commercial/card-labels';
import { oneOf } from '../commercial/document-list-parts';
import { AccountsListTools, AccountsTotals, useFigureColumns } from './account-figures';
import {
  type AccountListFilters,
  type AccountListSide,
  type AccountRow,
  customerAccounts,
  providerAccounts,
} from './account-sides';

const pageSize = 50;

/** Every party's balance, overdue amount and aging on one side, with the totals of the search. */
function PartyAccountsList<Account extends AccountRow>({ side }: { side: AccountListSide<Account> }) {
  const { t } = useTranslation(['currentAccounts', 'common']);
  const navigate = useNavigate();
  const { kinds, texts } = side;
  const list = useListState({
    sort: 'name',
    filters: kinds ? ['withBalance', 'kind'] : ['withBalance'],
    debounceMs: 250,
  });
  const filters: AccountListFilters = {
    q: list.search,
    sort: list.sort,
    withBalance: list.filters.withBalance === 'true',
    ...(kinds ? { kind: oneOf(kinds, list.filters.kind ?? '') } : {}),
  };
  const query = side.useAccounts(filters, list.page, pageSize);
  const totals = query.data?.totals;
  const figureColumns = useFigureColumns<Account>();
  const ledgerPath = (account: Account) => `${side.path}/${side.partyIdOf(account)}`;
  const columns: Column<Account>[] = [
    {
      key: 'name',
      header: t(texts.party),
      sortable: true,
      primary: true,
      cell: (account) => {
        const detail = side.detail(account, t);
        return (
          <>
            <Link to={ledgerPath(account)} className="fw-semibold" data-testid="account-link">
              {account.name}
            </Link>
            {detail ? <span className="d-block small text-body-secondary">{detail}</span> : null}
            {account.active ? null : <span className="badge text-bg-secondary">{t('list.inactive')}</span>}
          </>
        );
      },
    },
    ...figureColumns,
  ];

  return (
    <section className="card" data-testid={side.testId}>
      <div className="card-header list-toolbar">
        <SearchBox
          label={t(texts.search)}
          placeholder={t(texts.searchPlaceholder)}
          value={list.searchText}
          autoComplete="off"
          data-testid="accounts-search"
          onChange={(event) => list.setSearchText(event.target.value)}
        />
        <AccountsListTools
          withBalance={filters.withBalance}
          onWithBalance={(checked) => list.setFilter('withBalance', checked ? 'true' : '')}
          download={() => side.exportList(filters)}
          fallbackName={side.exportName}
        >
          {kinds ? (
            <FilterSelect
              label={t('customers.kind')}
              value={filters.kind ?? ''}
              onChange={(value) => list.setFilter('kind', value)}
              options={optionsWithAny(t('customers.anyKind'), kinds, (kind) => t(`customers.kinds.${kind}`))}
            />
          ) : null}
        </AccountsListTools>
      </div>
      {totals ? <AccountsTotals totals={totals} accounts={query.data?.data ?? []} /> : null}
      <DataTable<Account>
        label={t(texts.caption)}
        className="table-hover"
        columns={withCardLabels(columns)}
        query={query}
        rowKey={side.partyIdOf}
        rowProps={(account) => ({
          'data-testid': 'account-row',
          'data-name': account.name,
          className: 'data-table-row',
          onClick: openRowOnClick(navigate, ledgerPath(account)),
        })}
        emptyText={filters.q || filters.withBalance || filters.kind ? t(texts.emptyFiltered) : t(texts.empty)}
        emptyTestId="accounts-empty"
        sort={{ value: list.sort, onSort: list.setSort }}
        pagination={{ ...pagesOf(list, pageSize) }}
      />
    </section>
  );
}

/** `/cc-customers`: what every customer (patient, company, insurer) owes. */
export const CustomerAccountsList = () => <PartyAccountsList side={customerAccounts} />;

/** `/cc-providers`: what the clinic owes every provider. */
export const AccountsList = () => <PartyAccountsList side={providerAccounts} />;
