import '../auth/zod-setup';
import { can } from '@odontia/shared/permissions';
import type { PaymentListItem } from '@odontia/shared/schemas/payments';
import { Plus } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { type Column, DataTable } from '../../components/data-table';
import { FilterSelect } from '../../components/filter-select';
import { SearchBox } from '../../components/search-box';
import { useListState } from '../../lib/use-list-state';
import { useCalendarDateFormat } from '../auth/clinic-time';
import { useSessionUser } from '../auth/session';
import { DateRangeFilter } from '../commercial/date-range-filter';
import { type PaymentFilters, usePayments } from './api';
import { PaymentStatusBadge } from './badges';
import { withCardLabels } from './card-labels';
import { useCurrencyFormat } from './format';

const pageSize = 20;
const statuses = ['pending', 'paid', 'reversed'] as const;

/** `/payments`: payments to providers, newest first, searched and filtered by the server. */
export function PaymentsList() {
  const { t } = useTranslation(['payments', 'common']);
  const navigate = useNavigate();
  const user = useSessionUser();
  const canWrite = user ? can(user.level, 'commercial.write') : false;
  const money = useCurrencyFormat();
  const day = useCalendarDateFormat();
  const list = useListState({ sort: '-date', filters: ['status', 'from', 'to', 'providerId'], debounceMs: 250 });
  const filters: PaymentFilters = {
    q: list.search,
    sort: list.sort,
    status: (statuses as readonly string[]).includes(list.filters.status) ? list.filters.status : '',
    from: /^\d{4}-\d{2}-\d{2}$/.test(list.filters.from) ? list.filters.from : '',
    to: /^\d{4}-\d{2}-\d{2}$/.test(list.filters.to) ? list.filters.to : '',
    providerId: list.filters.providerId,
  };
  const query = usePayments(filters, list.page, pageSize);
  const filtered = Boolean(filters.q || filters.status || filters.from || filters.to || filters.providerId);
  const columns: Column<PaymentListItem>[] = [
    {
      key: 'number',
      header: t('fields.number'),
      sortable: true,
      primary: true,
      cell: (payment) => (
        <Link to={`/payments/view/${payment.id}`} className="fw-semibold" data-testid="payment-link">
          {payment.number}
        </Link>
      ),
    },
    { key: 'date', header: t('fields.date'), sortable: true, className: 'text-nowrap', cell: (p) => day(p.date) },
    { key: 'provider', header: t('fields.provider'), cell: (p) => p.providerName ?? '—' },
    { key: 'method', header: t('fields.method'), cell: (p) => t(`methods.${p.method}`) },
    {
      key: 'amount',
      header: t('fields.amount'),
      sortable: true,
      className: 'text-end text-nowrap',
      cell: (p) => money(p.amount, p.currency),
    },
    {
      key: 'onAccount',
      header: t('fields.onAccount'),
      className: 'text-end text-nowrap',
      cell: (p) => money(p.unallocatedAmount, p.currency),
    },
    { key: 'status', header: t('fields.status'), cell: (p) => <PaymentStatusBadge payment={p} /> },
  ];
  return (
    <section className="card" data-testid="payments-list">
      <div className="card-header list-toolbar">
        <SearchBox
          label={t('list.search')}
          placeholder={t('list.searchPlaceholder')}
          value={list.searchText}
          autoComplete="off"
          data-testid="payments-search"
          onChange={(event) => list.setSearchText(event.target.value)}
        />
        {canWrite ? (
          <Link to="/payments/create" className="btn btn-primary" data-testid="payment-create">
            <Plus size={16} aria-hidden="true" className="me-2" />
            {t('list.create')}
          </Link>
        ) : null}
      </div>
      <div className="card-body border-bottom d-flex flex-wrap gap-3 align-items-end">
        <FilterSelect
          visibleLabel
          className=""
          label={t('fields.status')}
          value={filters.status}
          onChange={(value) => list.setFilter('status', value)}
          options={[
            { value: '', label: t('list.anyStatus') },
            ...statuses.map((status) => ({ value: status, label: t(`statuses.${status}`) })),
          ]}
        />
        <DateRangeFilter
          names={['from', 'to']}
          values={[filters.from, filters.to]}
          labels={[t('list.from'), t('list.to')]}
          onChange={list.setFilter}
          inputClassName="form-control form-control-sm"
        />
      </div>
      <DataTable<PaymentListItem>
        label={t('list.caption')}
        className="table-hover"
        columns={withCardLabels(columns)}
        query={query}
        rowKey={(payment) => payment.id}
        rowProps={(payment) => ({
          'data-testid': 'payment-row',
          'data-number': payment.number,
          className: 'data-table-row',
          onClick: (event) => {
            if (!(event.target as HTMLElement).closest('a')) void navigate(`/payments/view/${payment.id}`);
          },
        })}
        emptyText={filtered ? t('list.emptyFiltered') : t('list.empty')}
        emptyTestId="payments-empty"
        sort={{ value: list.sort, onSort: list.setSort }}
        pagination={{ page: list.page, pageSize, onPage: list.setPage }}
      />
    </section>
  );
}
