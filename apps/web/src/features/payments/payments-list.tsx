import '../../lib/zod-setup';
import { can } from '@odontia/shared/permissions';
import type { PaymentListItem } from '@odontia/shared/schemas/payments';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../components/data-table';
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
import { type PaymentFilters, usePayments } from './api';
import { PaymentStatusBadge } from './badges';
import { withCardLabels } from './card-labels';

const pageSize = 20;
const paymentsKind: MovementListKind = {
  namespaces: ['payments', 'common'],
  testIdPrefix: 'payment',
  path: '/payments',
};

/** `/payments`: payments to providers, newest first, searched and filtered by the server. */
export function PaymentsList() {
  const { t } = useTranslation(['payments', 'common']);
  const user = useSessionUser();
  const canWrite = user ? can(user.level, 'commercial.write') : false;
  const list = useListState({ sort: '-date', filters: ['status', 'from', 'to', 'providerId'], debounceMs: 250 });
  const filters: PaymentFilters = {
    q: list.search,
    sort: list.sort,
    status: (movementStatuses as readonly string[]).includes(list.filters.status) ? list.filters.status : '',
    from: /^\d{4}-\d{2}-\d{2}$/.test(list.filters.from) ? list.filters.from : '',
    to: /^\d{4}-\d{2}-\d{2}$/.test(list.filters.to) ? list.filters.to : '',
    providerId: list.filters.providerId,
  };
  const query = usePayments(filters, list.page, pageSize);
  const filtered = Boolean(filters.q || filters.status || filters.from || filters.to || filters.providerId);
  const columns = useMovementColumns<PaymentListItem>(paymentsKind, {
    party: { key: 'provider', header: t('fields.provider'), cell: (row) => row.providerName ?? '—' },
    status: { key: 'status', header: t('fields.status'), cell: (row) => <PaymentStatusBadge payment={row} /> },
  });
  const rowProps = useMovementRowProps(paymentsKind);
  return (
    <section className="card" data-testid="payments-list">
      <MovementsToolbar
        kind={paymentsKind}
        searchText={list.searchText}
        onSearch={list.setSearchText}
        canWrite={canWrite}
      />
      <div className="card-body border-bottom d-flex flex-wrap gap-3 align-items-end">
        <MovementStatusFilter
          kind={paymentsKind}
          value={filters.status}
          onChange={(value) => list.setFilter('status', value)}
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
        rowProps={rowProps}
        emptyText={filtered ? t('list.emptyFiltered') : t('list.empty')}
        emptyTestId="payments-empty"
        sort={{ value: list.sort, onSort: list.setSort }}
        pagination={{ page: list.page, pageSize, onPage: list.setPage }}
      />
    </section>
  );
}
