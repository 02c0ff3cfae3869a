import { customerKinds } from '@odontia/shared/commercial';
import { can } from '@odontia/shared/permissions';
import type { CustomerRecord } from '@odontia/shared/schemas/customer-records';
import { formatTaxId } from '@odontia/shared/tax-ids';
import { Pencil, Plus } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Column, DataTable } from '../../components/data-table';
import { FilterSelect } from '../../components/filter-select';
import { PageTitle } from '../../components/page-title';
import { SearchBox } from '../../components/search-box';
import { useListState } from '../../lib/use-list-state';
import { useSessionUser } from '../../session/session';
import { oneOf } from '../commercial/document-list-parts';
import { CustomerDialog } from './customer-dialog';
import { useCustomerRecords } from './customer-records-api';

const pageSize = 20;
const missing = <span className="text-body-secondary is-empty">—</span>;

function useColumns(canWrite: boolean, onEdit: (customer: CustomerRecord) => void): Column<CustomerRecord>[] {
  const { t } = useTranslation(['customers', 'providers']);
  const columns: Column<CustomerRecord>[] = [
    {
      key: 'name',
      header: t('fields.name'),
      sortable: true,
      primary: true,
      cell: (row) => (
        <>
          <span className="fw-semibold">{row.name}</span>
          {row.tradeName ? <div className="small text-body-secondary">{row.tradeName}</div> : null}
        </>
      ),
    },
    {
      key: 'kind',
      header: t('fields.kind'),
      cell: (row) => <span className="badge text-bg-light border">{t(`kinds.${row.kind}`)}</span>,
    },
    {
      key: 'taxId',
      header: t('fields.taxId'),
      sortable: true,
      className: 'text-nowrap',
      cell: (row) =>
        row.taxId ? (
          <>
            <span className="text-body-secondary">
              {row.taxIdKind ? t(`providers:taxIdKinds.${row.taxIdKind}`) : ''}{' '}
            </span>
            {formatTaxId(row.taxIdKind, row.taxId)}
          </>
        ) : (
          missing
        ),
    },
    { key: 'email', header: t('fields.email'), cell: (row) => row.email ?? missing },
    {
      key: 'terms',
      header: t('fields.paymentTermShort'),
      className: 'text-end text-nowrap',
      cell: (row) => t('days', { count: row.paymentTermDays }),
    },
    {
      key: 'active',
      header: t('list.status'),
      cell: (row) => (
        <span className={`badge ${row.active ? 'text-bg-success' : 'text-bg-secondary'}`}>
          {row.active ? t('badge.active') : t('badge.inactive')}
        </span>
      ),
    },
  ];
  if (canWrite) {
    columns.push({
      key: 'actions',
      header: <span className="visually-hidden">{t('list.actions')}</span>,
      className: 'text-end',
      cell: (row) => (
        <button
          type="button"
          className="btn btn-sm btn-outline-secondary"
          onClick={() => onEdit(row)}
          aria-label={t('list.editOne', { name: row.name })}
          title={t('list.editOne', { name: row.name })}
          data-testid="customer-edit"
        >
          <Pencil size={14} aria-hidden="true" />
        </button>
      ),
    });
  }
  return columns;
}

/** `/customers`: the clinic's customers — insurers, companies and the patients already billed. */
export function CustomersPage() {
  const { t } = useTranslation(['customers', 'common']);
  const user = useSessionUser();
  const canWrite = user ? can(user.level, 'commercial.write') : false;
  const canDelete = user ? can(user.level, 'commercial.delete') : false;
  const list = useListState({ sort: 'name', filters: ['kind', 'active'], debounceMs: 250 });
  const [editing, setEditing] = useState<CustomerRecord | 'new' | null>(null);
  const filters = {
    q: list.search,
    sort: list.sort,
    kind: oneOf(customerKinds, list.filters.kind ?? ''),
    active: oneOf(['true', 'false'] as const, list.filters.active ?? ''),
  };
  const query = useCustomerRecords({ ...filters, page: list.page, pageSize });
  const columns = useColumns(canWrite, setEditing);
  return (
    <>
      <PageTitle title={t('common:pages.customers')} />
      <p className="text-body-secondary">{t('list.intro')}</p>
      <section className="card" data-testid="customers-list">
        <div className="card-header list-toolbar">
          <SearchBox
            label={t('list.search')}
            placeholder={t('list.searchPlaceholder')}
            value={list.searchText}
            autoComplete="off"
            data-testid="customers-search"
            onChange={(event) => list.setSearchText(event.target.value)}
          />
          {canWrite ? (
            <button
              type="button"
              className="btn btn-primary"
              onClick={() => setEditing('new')}
              data-testid="customer-new"
            >
              <Plus size={16} aria-hidden="true" className="me-2" />
              {t('list.create')}
            </button>
          ) : null}
        </div>
        <div className="card-body border-bottom list-filters">
          <FilterSelect
            label={t('fields.kind')}
            visibleLabel
            className="list-filter"
            testId="customers-kind"
            value={list.filters.kind}
            onChange={(value) => list.setFilter('kind', value)}
            options={[
              { value: '', label: t('list.kindAll') },
              ...customerKinds.map((value) => ({ value, label: t(`kinds.${value}`) })),
            ]}
          />
          <FilterSelect
            label={t('list.status')}
            visibleLabel
            className="list-filter"
            testId="customers-active"
            value={list.filters.active}
            onChange={(value) => list.setFilter('active', value)}
            options={[
              { value: '', label: t('list.statusAll') },
              { value: 'true', label: t('list.statusActive') },
              { value: 'false', label: t('list.statusInactive') },
            ]}
          />
        </div>
        <DataTable<CustomerRecord>
          label={t('list.caption')}
          className="table-hover"
          columns={columns}
          query={query}
          rowKey={(row) => row.id}
          rowProps={(row) => ({
            'data-testid': 'customer-row',
            className: `data-table-row${row.active ? '' : ' text-body-secondary'}`,
          })}
          sort={{ value: list.sort, onSort: list.setSort }}
          emptyText={list.search ? t('list.noMatches', { q: list.search }) : t('list.empty')}
          emptyTestId="customers-empty"
          errorText={t('list.loadError')}
          retryText={t('list.retry')}
          pagination={{
            page: list.page,
            pageSize,
            onPage: list.setPage,
            label: t('list.pagination'),
            testId: 'customers-range',
          }}
        />
      </section>
      {editing ? (
        <CustomerDialog
          customer={editing === 'new' ? null : editing}
          canDelete={canDelete}
          onDone={() => setEditing(null)}
        />
      ) : null}
    </>
  );
}
