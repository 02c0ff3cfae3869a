import '../../lib/zod-setup';
import { saleDocumentTypes } from '@odontia/shared/commercial';
import { can } from '@odontia/shared/permissions';
import type { SaleListItem } from '@odontia/shared/schemas/sales';
import { ShieldCheck } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import type { Column } from '../../components/data-table';
import { IconLink } from '../../components/icon-link';
import { ListCard, NewButton, openRowOnClick } from '../../components/list-card';
import { useListState } from '../../lib/use-list-state';
import { useSessionUser } from '../../session/session';
import { DateRangeFilter } from '../commercial/date-range-filter';
import { DocumentStatusBadge, DocumentTypeBadge } from '../commercial/document-badges';
import { isDay, oneOf, PartyFilter, TypeAndStatusFilters, useDocumentColumns } from '../commercial/document-list-parts';
import { CustomerPicker } from '../customers/customer-picker';
import { type SaleFilters, salePath, useSaleList } from './api';
import { saleSide } from './sale-side';

// Written out rather than on the shared document list: on that list, the layout spec's walk back
// from a missing sale (under a fake session) signs out before the list's title is read.
const SaleStatusBadge = ({ status }: { status: SaleListItem['status'] }) => (
  <DocumentStatusBadge side={saleSide} status={status} />
);
const SaleTypeBadge = ({ type }: { type: SaleListItem['documentType'] }) => (
  <DocumentTypeBadge side={saleSide} type={type} />
);

const pageSize = 20;
function useColumns(): Column<SaleListItem>[] {
  const { t } = useTranslation('sales');
  return useDocumentColumns<SaleListItem>('sales', {
    number: {
      key: 'documentNumber',
      header: t('fields.number'),
      sortable: true,
      primary: true,
      cell: (row) => (
        <span className="d-flex flex-column align-items-start gap-1">
          <Link to={salePath(row.id)} className="fw-semibold">
            {row.number ?? t('list.noNumber')}
          </Link>
          <SaleTypeBadge type={row.documentType} />
        </span>
      ),
    },
    party: { key: 'customer', header: t('fields.customer'), cell: (row) => row.customerName ?? '—' },
    status: { key: 'status', header: t('fields.status'), cell: (row) => <SaleStatusBadge status={row.status} /> },
  });
}

/** `/sales`: the clinic's sales with search, filters, sort and pages in the URL. */
export function SaleList() {
  const { t } = useTranslation('sales');
  const navigate = useNavigate();
  const user = useSessionUser();
  const canWrite = user ? can(user.level, 'commercial.write') : false;
  const list = useListState({
    sort: '-date',
    filters: ['customerId', 'patientId', 'documentType', 'status', 'dateFrom', 'dateTo'],
    debounceMs: 250,
  });
  const [customerText, setCustomerText] = useState('');
  const filters: SaleFilters = {
    q: list.search,
    sort: list.sort,
    customerId: list.filters.customerId,
    patientId: list.filters.patientId,
    documentType: oneOf(saleDocumentTypes, list.filters.documentType),
    status: oneOf(['draft', 'issued'] as const, list.filters.status),
    dateFrom: isDay(list.filters.dateFrom),
    dateTo: isDay(list.filters.dateTo),
  };
  const query = useSaleList({ ...filters, page: list.page, pageSize });
  const columns = useColumns();
  const shownCustomer = query.data?.data.find(
    (row) =>
      (filters.customerId && row.customerId === filters.customerId) ||
      (filters.patientId && row.patientId === filters.patientId),
  )?.customerName;
  useEffect(() => {
    if ((filters.customerId || filters.patientId) && !customerText && shownCustomer) setCustomerText(shownCustomer);
  }, [filters.customerId, filters.patientId, customerText, shownCustomer]);
  const filtered = Boolean(
    filters.q ||
      filters.customerId ||
      filters.patientId ||
      filters.documentType ||
      filters.status ||
      filters.dateFrom ||
      filters.dateTo,
  );
  const clearCustomer = () => {
    setCustomerText('');
    list.setFilter('customerId', '');
    list.setFilter('patientId', '');
  };

  return (
    <ListCard<SaleListItem>
      ns="sales"
      list={list}
      pageSize={pageSize}
      testId="sale-list"
      searchPlaceholder={t('list.searchPlaceholder')}
      searchTestId="sale-search"
      tools={
        <div className="d-flex flex-wrap gap-2">
          <IconLink
            to="/sales/integrity"
            className="btn btn-outline-secondary"
            icon={ShieldCheck}
            testId="sale-integrity-link"
          >
            {t('list.integrity')}
          </IconLink>
          {canWrite ? <NewButton label={t('list.create')} to="/sales/create" testId="sale-create" /> : null}
        </div>
      }
      filtersClassName="d-flex flex-wrap gap-3 align-items-end"
      filters={
        <>
          <PartyFilter
            label={t('fields.customer')}
            minWidth="16rem"
            active={Boolean(filters.customerId || filters.patientId)}
            onClear={clearCustomer}
            clearLabel={t('list.clearCustomer')}
          >
            {(inputId) => (
              <CustomerPicker
                id={inputId}
                value={customerText}
                onText={(text) => {
                  setCustomerText(text);
                  if (!text) clearCustomer();
                }}
                onPick={(customer) => {
                  setCustomerText(customer.name);
                  if (customer.customerId) {
                    list.setFilter('patientId', '');
                    list.setFilter('customerId', customer.customerId);
                  } else {
                    list.setFilter('customerId', '');
                    list.setFilter('patientId', customer.patientId ?? '');
                  }
                }}
                placeholder={t('list.anyCustomer')}
              />
            )}
          </PartyFilter>
          <TypeAndStatusFilters
            namespace="sales"
            types={saleDocumentTypes}
            statuses={['draft', 'issued']}
            type={filters.documentType}
            status={filters.status}
            onChange={list.setFilter}
          />
          <DateRangeFilter
            names={['dateFrom', 'dateTo']}
            values={[filters.dateFrom, filters.dateTo]}
            labels={[t('list.from'), t('list.to')]}
            onChange={list.setFilter}
          />
        </>
      }
      className="table-hover"
      columns={columns}
      query={query}
      rowKey={(row) => row.id}
      rowProps={(row) => ({
        'data-testid': 'sale-row',
        className: 'data-table-row',
        onClick: openRowOnClick(navigate, salePath(row.id)),
      })}
      emptyText={filtered ? t('list.noMatches') : t('list.empty')}
      emptyTestId="sale-empty"
    />
  );
}
