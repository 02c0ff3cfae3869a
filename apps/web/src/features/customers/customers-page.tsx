import { customerKinds } from '@odontia/shared/commercial';
import { can } from '@odontia/shared/permissions';
import type { CustomerRecord } from '@odontia/shared/schemas/customer-records';
import { formatTaxId } from '@odontia/shared/tax-ids';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Column } from '../../components/data-table';
import { editByNameColumn } from '../../components/edit-by-name-column';
import { ListFilter } from '../../components/filter-select';
import { ActiveFilterSelect, activeColumn, activeRowProps, ListCard, NewButton } from '../../components/list-card';
import { PageTitle } from '../../components/page-title';
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
    activeColumn(t('list.status'), { active: t('badge.active'), inactive: t('badge.inactive') }),
  ];
  return canWrite
    ? [...columns, editByNameColumn(t, { onEdit, testId: 'customer-edit', className: 'text-end' })]
    : columns;
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
      <ListCard<CustomerRecord>
        ns="customers"
        list={list}
        pageSize={pageSize}
        testId="customers-list"
        searchPlaceholder={t('list.searchPlaceholder')}
        searchTestId="customers-search"
        tools={
          canWrite ? (
            <NewButton label={t('list.create')} onClick={() => setEditing('new')} testId="customer-new" />
          ) : null
        }
        filters={
          <>
            <ListFilter
              list={list}
              name="kind"
              label={t('fields.kind')}
              testId="customers-kind"
              all={t('list.kindAll')}
              options={customerKinds.map((value) => ({ value, label: t(`kinds.${value}`) }))}
            />
            <ActiveFilterSelect
              ns="customers"
              testId="customers-active"
              allValue=""
              value={list.filters.active}
              onChange={(value) => list.setFilter('active', value)}
            />
          </>
        }
        className="table-hover"
        columns={columns}
        query={query}
        rowKey={(row) => row.id}
        rowProps={activeRowProps('customer-row')}
        emptyTestId="customers-empty"
        rangeTestId="customers-range"
      />
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
