import '../auth/zod-setup';
import { paymentMethods } from '@odontia/shared/enums';
import { can } from '@odontia/shared/permissions';
import type { CollectionListItem } from '@odontia/shared/schemas/collections';
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
import { withCardLabels } from '../payments/card-labels';
import { useCurrencyFormat } from '../payments/format';
import { type CollectionFilters, useCollections } from './api';
import { CollectionStatusBadge } from './badges';

const pageSize = 20;
const statuses = ['pending', 'paid', 'reversed'] as const;
const isDay = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value);

/** `/collections`: money received from patients, companies and insurers, newest first. */
export function CollectionsList() {
  const { t } = useTranslation(['collections', 'payments', 'common']);
  const navigate = useNavigate();
  const user = useSessionUser();
  const canWrite = user ? can(user.level, 'commercial.write') : false;
  const money = useCurrencyFormat();
  const day = useCalendarDateFormat();
  const list = useListState({
    sort: '-date',
    filters: ['status', 'method', 'from', 'to', 'customerId'],
    debounceMs: 250,
  });
  const filters: CollectionFilters = {
    q: list.search,
    sort: list.sort,
    status: (statuses as readonly string[]).includes(list.filters.status) ? list.filters.status : '',
    method: (paymentMethods as readonly string[]).includes(list.filters.method) ? list.filters.method : '',
    from: isDay(list.filters.from) ? list.filters.from : '',
    to: isDay(list.filters.to) ? list.filters.to : '',
    customerId: list.filters.customerId,
  };
  const query = useCollections(filters, list.page, pageSize);
  const filtered = Boolean(
    filters.q || filters.status || filters.method || filters.from || filters.to || filters.customerId,
  );
  const columns: Column<CollectionListItem>[] = [
    {
      key: 'number',
      header: t('fields.number'),
      sortable: true,
      primary: true,
      cell: (collection) => (
        <Link to={`/collections/view/${collection.id}`} className="fw-semibold" data-testid="collection-link">
          {collection.number}
        </Link>
      ),
    },
    { key: 'date', header: t('fields.date'), sortable: true, className: 'text-nowrap', cell: (c) => day(c.date) },
    {
      key: 'customer',
      header: t('fields.customer'),
      cell: (c) => (
        <>
          {c.customerName}
          <span className="d-block small text-body-secondary">{t(`kinds.${c.customerKind}`)}</span>
        </>
      ),
    },
    { key: 'method', header: t('fields.method'), cell: (c) => t(`payments:methods.${c.method}`) },
    {
      key: 'amount',
      header: t('fields.amount'),
      sortable: true,
      className: 'text-end text-nowrap',
      cell: (c) => money(c.amount, c.currency),
    },
    {
      key: 'onAccount',
      header: t('fields.onAccount'),
      className: 'text-end text-nowrap',
      cell: (c) => money(c.unallocatedAmount, c.currency),
    },
    { key: 'status', header: t('fields.status'), cell: (c) => <CollectionStatusBadge collection={c} /> },
  ];
  return (
    <section className="card" data-testid="collections-list">
      <div className="card-header list-toolbar">
        <SearchBox
          label={t('list.search')}
          placeholder={t('list.searchPlaceholder')}
          value={list.searchText}
          autoComplete="off"
          data-testid="collections-search"
          onChange={(event) => list.setSearchText(event.target.value)}
        />
        {canWrite ? (
          <Link to="/collections/create" className="btn btn-primary" data-testid="collection-create">
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
        <FilterSelect
          visibleLabel
          className=""
          label={t('fields.method')}
          value={filters.method}
          onChange={(value) => list.setFilter('method', value)}
          options={[
            { value: '', label: t('list.anyMethod') },
            ...paymentMethods.map((method) => ({ value: method, label: t(`payments:methods.${method}`) })),
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
      <DataTable<CollectionListItem>
        label={t('list.caption')}
        className="table-hover"
        columns={withCardLabels(columns)}
        query={query}
        rowKey={(collection) => collection.id}
        rowProps={(collection) => ({
          'data-testid': 'collection-row',
          'data-number': collection.number,
          className: 'data-table-row',
          onClick: (event) => {
            if (!(event.target as HTMLElement).closest('a')) void navigate(`/collections/view/${collection.id}`);
          },
        })}
        emptyText={filtered ? t('list.emptyFiltered') : t('list.empty')}
        emptyTestId="collections-empty"
        sort={{ value: list.sort, onSort: list.setSort }}
        pagination={{ page: list.page, pageSize, onPage: list.setPage }}
      />
    </section>
  );
}
