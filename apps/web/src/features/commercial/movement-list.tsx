import '../../lib/zod-setup';
import { paymentMethods } from '@odontia/shared/enums';
import { can } from '@odontia/shared/permissions';
import type { Page } from '@odontia/shared/schemas/common';
import type { PaymentListItem } from '@odontia/shared/schemas/payments';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../components/data-table';
import { FilterSelect, optionsWithAny } from '../../components/filter-select';
import { pagesOf, useListState } from '../../lib/use-list-state';
import { useSessionUser } from '../../session/session';
import { withCardLabels } from './card-labels';
import { DateRangeFilter } from './date-range-filter';
import { isDay, oneOf } from './document-list-parts';
import {
  type MovementListKind,
  MovementStatusFilter,
  MovementsToolbar,
  movementStatuses,
  useMovementColumns,
  useMovementRowProps,
} from './movement-list-parts';

const pageSize = 20;

type MovementRow = Pick<
  PaymentListItem,
  'id' | 'number' | 'date' | 'method' | 'amount' | 'unallocatedAmount' | 'currency' | 'status' | 'reversedAt'
>;

/** The filters every list of movements has; a side adds its party's (and collections the method). */
export interface MovementListFilters {
  q: string;
  sort: string;
  status: (typeof movementStatuses)[number] | '';
  from: string;
  to: string;
}

/** One side of the movements of money (collections from customers, payments to providers). */
export interface MovementListSide<Row extends MovementRow, Filters extends MovementListFilters>
  extends MovementListKind {
  /** The URL's filter of the party the list may come filtered by. */
  partyFilter: 'customerId' | 'providerId';
  /** Whether the list filters by method (collections: cash, cards…). */
  byMethod: boolean;
  /** The party's column: its key, its label's key and its cell. */
  party: { key: string; labelKey: string; cell: (row: Row) => ReactNode };
  status: (row: Row) => ReactNode;
  filtersOf: (common: MovementListFilters, values: Record<string, string>) => Filters;
  useList: (filters: Filters, page: number, pageSize: number) => UseQueryResult<Page<Row>>;
}

/** `/collections`, `/payments`: a side's movements, newest first, searched and filtered by the server. */
export function MovementList<Row extends MovementRow, Filters extends MovementListFilters>({
  side,
}: {
  side: MovementListSide<Row, Filters>;
}) {
  const { t } = useTranslation(side.namespaces);
  const user = useSessionUser();
  const canWrite = user ? can(user.level, 'commercial.write') : false;
  const list = useListState({
    sort: '-date',
    filters: ['status', ...(side.byMethod ? ['method'] : []), 'from', 'to', side.partyFilter],
    debounceMs: 250,
  });
  const filters = side.filtersOf(
    {
      q: list.search,
      sort: list.sort,
      status: oneOf(movementStatuses, list.filters.status ?? ''),
      from: isDay(list.filters.from ?? ''),
      to: isDay(list.filters.to ?? ''),
    },
    list.filters,
  );
  const query = side.useList(filters, list.page, pageSize);
  const filtered = Object.entries(filters).some(([name, value]) => name !== 'sort' && Boolean(value));
  const columns = useMovementColumns<Row>(side, {
    party: { key: side.party.key, header: t(side.party.labelKey), cell: side.party.cell },
    status: { key: 'status', header: t('fields.status'), cell: side.status },
  });
  const rowProps = useMovementRowProps(side);
  const listName = side.path.slice(1);
  return (
    <section className="card" data-testid={`${listName}-list`}>
      <MovementsToolbar kind={side} searchText={list.searchText} onSearch={list.setSearchText} canWrite={canWrite} />
      <div className="card-body border-bottom d-flex flex-wrap gap-3 align-items-end">
        <MovementStatusFilter
          kind={side}
          value={filters.status}
          onChange={(value) => list.setFilter('status', value)}
        />
        {side.byMethod ? (
          <FilterSelect
            visibleLabel
            className=""
            label={t('fields.method')}
            value={oneOf(paymentMethods, list.filters.method ?? '')}
            onChange={(value) => list.setFilter('method', value)}
            options={optionsWithAny(t('list.anyMethod'), paymentMethods, (method) => t(`payments:methods.${method}`))}
          />
        ) : null}
        <DateRangeFilter
          names={['from', 'to']}
          values={[filters.from, filters.to]}
          labels={[t('list.from'), t('list.to')]}
          onChange={list.setFilter}
          inputClassName="form-control form-control-sm"
        />
      </div>
      <DataTable<Row>
        label={t('list.caption')}
        className="table-hover"
        columns={withCardLabels(columns)}
        query={query}
        rowKey={(row) => row.id}
        rowProps={rowProps}
        emptyText={filtered ? t('list.emptyFiltered') : t('list.empty')}
        emptyTestId={`${listName}-empty`}
        sort={{ value: list.sort, onSort: list.setSort }}
        pagination={{ ...pagesOf(list, pageSize) }}
      />
    </section>
  );
}
