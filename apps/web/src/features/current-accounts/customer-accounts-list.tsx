import '../auth/zod-setup';
import { agingBuckets } from '@odontia/shared/commercial';
import type { CustomerAccount } from '@odontia/shared/schemas/current-accounts';
import { Download } from 'lucide-react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { BusyIcon } from '../../components/busy-icon';
import { type Column, DataTable } from '../../components/data-table';
import { FilterSelect } from '../../components/filter-select';
import { SearchBox } from '../../components/search-box';
import { toastApiError } from '../../lib/api-toast';
import { saveFile } from '../../lib/save-file';
import { useListState } from '../../lib/use-list-state';
import { useCalendarDateFormat } from '../auth/clinic-time';
import { type CustomerAccountFilters, customerAccountsApi, useCustomerAccounts } from '../collections/api';
import { withCardLabels } from '../payments/card-labels';
import { useCurrencyFormat } from '../payments/format';

const pageSize = 50;
const kinds = ['patient', 'company', 'insurer'] as const;

/** `/cc-customers`: what every customer (patient, company, insurer) owes, overdue and aging, with the totals of the search. */
export function CustomerAccountsList() {
  const { t } = useTranslation(['currentAccounts', 'common']);
  const navigate = useNavigate();
  const id = useId();
  const money = useCurrencyFormat();
  const day = useCalendarDateFormat();
  const list = useListState({ sort: 'name', filters: ['withBalance', 'kind'], debounceMs: 250 });
  const [exporting, setExporting] = useState(false);
  const filters: CustomerAccountFilters = {
    q: list.search,
    sort: list.sort,
    withBalance: list.filters.withBalance === 'true',
    kind: (kinds as readonly string[]).includes(list.filters.kind) ? list.filters.kind : '',
  };
  const query = useCustomerAccounts(filters, list.page, pageSize);
  const totals = query.data?.totals;
  const currencies = new Set(query.data?.data.map((account) => account.currency));
  const totalCurrency = currencies.size === 1 ? [...currencies][0] : undefined;
  const amount = (value: string, currency: string) => (
    <span
      className={value.startsWith('-') ? 'text-success-emphasis' : value === '0.00' ? 'text-body-secondary' : undefined}
    >
      {money(value, currency)}
    </span>
  );
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
    {
      key: 'balance',
      header: t('fields.balance'),
      sortable: true,
      className: 'text-end text-nowrap fw-semibold',
      cell: (a) => <span data-testid="account-balance">{amount(a.balance, a.currency)}</span>,
    },
    {
      key: 'overdue',
      header: t('fields.overdue'),
      sortable: true,
      className: 'text-end text-nowrap',
      cell: (a) => (
        <span className={a.overdue !== '0.00' ? 'text-danger-emphasis' : 'text-body-secondary'}>
          {money(a.overdue, a.currency)}
        </span>
      ),
    },
    ...agingBuckets.map(
      (bucket): Column<CustomerAccount> => ({
        key: bucket,
        header: t(`aging.${bucket}`),
        className: 'text-end text-nowrap',
        cell: (a) => <span data-testid={`account-${bucket}`}>{amount(a.aging[bucket], a.currency)}</span>,
      }),
    ),
    {
      key: 'onAccount',
      header: t('fields.onAccount'),
      className: 'text-end text-nowrap',
      cell: (a) => amount(a.onAccount, a.currency),
    },
    {
      key: 'lastMovement',
      header: t('fields.lastMovement'),
      className: 'text-nowrap',
      cell: (a) => day(a.lastMovementOn) || '—',
    },
  ];

  const onExport = async () => {
    setExporting(true);
    try {
      const file = await customerAccountsApi.export(filters);
      saveFile(file.blob, file.fileName ?? 'cuentas-corrientes-clientes.csv');
    } catch (error) {
      toastApiError(error);
    } finally {
      setExporting(false);
    }
  };

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
        <div className="d-flex flex-wrap gap-3 align-items-center">
          <FilterSelect
            label={t('customers.kind')}
            value={filters.kind}
            onChange={(value) => list.setFilter('kind', value)}
            options={[
              { value: '', label: t('customers.anyKind') },
              ...kinds.map((kind) => ({ value: kind, label: t(`customers.kinds.${kind}`) })),
            ]}
          />
          <div className="form-check form-switch mb-0">
            <input
              className="form-check-input"
              type="checkbox"
              id={`${id}-balance`}
              checked={filters.withBalance}
              data-testid="accounts-with-balance"
              onChange={(event) => list.setFilter('withBalance', event.target.checked ? 'true' : '')}
            />
            <label className="form-check-label" htmlFor={`${id}-balance`}>
              {t('list.withBalance')}
            </label>
          </div>
          <button
            type="button"
            className="btn btn-outline-secondary"
            onClick={() => void onExport()}
            disabled={exporting}
          >
            <BusyIcon busy={exporting} icon={Download} />
            {t('list.export')}
          </button>
        </div>
      </div>
      {totals ? (
        <div className="card-body border-bottom" data-testid="accounts-totals">
          <h2 className="h6 mb-2">{t('list.totals')}</h2>
          <dl className="row row-cols-2 row-cols-md-4 row-cols-xl-8 g-2 mb-0 small">
            {(
              [
                ['balance', totals.balance],
                ['overdue', totals.overdue],
                ...agingBuckets.map((bucket) => [bucket, totals.aging[bucket]] as const),
                ['onAccount', totals.onAccount],
              ] as const
            ).map(([key, value]) => (
              <div className="col" key={key}>
                <dt className="fw-normal text-body-secondary">
                  {key in totals.aging ? t(`aging.${key}`) : t(`fields.${key}`)}
                </dt>
                <dd className="mb-0 fw-semibold" data-testid={`total-${key}`}>
                  {money(value, totalCurrency)}
                </dd>
              </div>
            ))}
          </dl>
          {currencies.size > 1 ? (
            <p className="small text-warning-emphasis mb-0 mt-2">{t('list.mixedCurrencies')}</p>
          ) : null}
        </div>
      ) : null}
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
