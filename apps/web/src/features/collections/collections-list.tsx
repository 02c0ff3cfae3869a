import '../../lib/zod-setup';
import { paymentMethods } from '@odontia/shared/enums';
import { can } from '@odontia/shared/permissions';
import type { CollectionListItem } from '@odontia/shared/schemas/collections';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../components/data-table';
import { FilterSelect } from '../../components/filter-select';
import { useListState } from '../../lib/use-list-state';
import { useSessionUser } from '../../session/session';
import { DateRangeFilter } from '../commercial/date-range-filter';
import {
  type MovementListKind,
  MovementStatusFilter,
  MovementsToolbar,
  movementStatuses,
  useMovementColumns,
  useMovementRowProps,
} from '../commercial/movement-list-parts';
import { withCardLabels } from '../payments/card-labels';
import { type CollectionFilters, useCollections } from './api';
import { CollectionStatusBadge } from './badges';

const pageSize = 20;
const collectionsKind: MovementListKind = {
  namespaces: ['collections', 'payments', 'common'],
  testIdPrefix: 'collection',
  path: '/collections',
};
const isDay = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value);

/** `/collections`: money received from patients, companies and insurers, newest first. */
export function CollectionsList() {
  const { t } = useTranslation(['collections', 'payments', 'common']);
  const user = useSessionUser();
  const canWrite = user ? can(user.level, 'commercial.write') : false;
  const list = useListState({
    sort: '-date',
    filters: ['status', 'method', 'from', 'to', 'customerId'],
    debounceMs: 250,
  });
  const filters: CollectionFilters = {
    q: list.search,
    sort: list.sort,
    status: (movementStatuses as readonly string[]).includes(list.filters.status) ? list.filters.status : '',
    method: (paymentMethods as readonly string[]).includes(list.filters.method) ? list.filters.method : '',
    from: isDay(list.filters.from) ? list.filters.from : '',
    to: isDay(list.filters.to) ? list.filters.to : '',
    customerId: list.filters.customerId,
  };
  const query = useCollections(filters, list.page, pageSize);
  const filtered = Boolean(
    filters.q || filters.status || filters.method || filters.from || filters.to || filters.customerId,
  );
  const columns = useMovementColumns<CollectionListItem>(collectionsKind, {
    party: {
      key: 'customer',
      header: t('fields.customer'),
      cell: (row) => (
        <>
          {row.customerName}
          <span className="d-block small text-body-secondary">{t(`kinds.${row.customerKind}`)}</span>
        </>
      ),
    },
    status: { key: 'status', header: t('fields.status'), cell: (row) => <CollectionStatusBadge collection={row} /> },
  });
  const rowProps = useMovementRowProps(collectionsKind);
  return (
    <section className="card" data-testid="collections-list">
      <MovementsToolbar
        kind={collectionsKind}
        searchText={list.searchText}
        onSearch={list.setSearchText}
        canWrite={canWrite}
      />
      <div className="card-body border-bottom d-flex flex-wrap gap-3 align-items-end">
        <MovementStatusFilter
          kind={collectionsKind}
          value={filters.status}
          onChange={(value) => list.setFilter('status', value)}
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
        rowProps={rowProps}
        emptyText={filtered ? t('list.emptyFiltered') : t('list.empty')}
        emptyTestId="collections-empty"
        sort={{ value: list.sort, onSort: list.setSort }}
        pagination={{ page: list.page, pageSize, onPage: list.setPage }}
      />
    </section>
  );
}
