import { saleDocumentTypes } from '@odontia/shared/commercial';
import type { CustomerLookupItem } from '@odontia/shared/schemas/customers';
import type { SaleListItem } from '@odontia/shared/schemas/sales';
import { ShieldCheck } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { IconLink } from '../../components/icon-link';
import { isDay, oneOf } from '../commercial/document-list-parts';
import type { DocumentSide } from '../commercial/document-side';
import { CustomerPicker } from '../customers/customer-picker';
import { type SaleFilters, salePath, useDeleteSale, useIssueSale, useSaleList } from './api';

const saleStatuses = ['draft', 'issued'] as const;

/** The list's way to the integrity report (issue 24): the chain and hashes of issued sales. */
function IntegrityLink() {
  const { t } = useTranslation('sales');
  return (
    <IconLink
      to="/sales/integrity"
      className="btn btn-outline-secondary"
      icon={ShieldCheck}
      testId="sale-integrity-link"
    >
      {t('list.integrity')}
    </IconLink>
  );
}

/** Sales: documents the clinic issues to a patient, a company or an insurer. */
export const saleSide: DocumentSide<SaleListItem, CustomerLookupItem, SaleFilters> = {
  namespace: 'sales',
  testIdPrefix: 'sale',
  listPath: '/sales',
  pathOf: salePath,
  types: saleDocumentTypes,
  statuses: saleStatuses,
  party: {
    Picker: CustomerPicker,
    columnKey: 'customer',
    labelKey: 'fields.customer',
    nameOf: (row) => row.customerName,
    filterNames: ['customerId', 'patientId'],
    // A patient never billed has no customer yet: the list filters by the patient then.
    picked: (customer) => ({
      filters: customer.customerId
        ? { patientId: '', customerId: customer.customerId }
        : { customerId: '', patientId: customer.patientId ?? '' },
      name: customer.name,
    }),
    rowMatches: (row, filters) =>
      Boolean(
        (filters.customerId && row.customerId === filters.customerId) ||
          (filters.patientId && row.patientId === filters.patientId),
      ),
    listFilter: { minWidth: '16rem', clearKey: 'list.clearCustomer', anyKey: 'list.anyCustomer' },
  },
  view: {
    useFinalise: useIssueSale,
    final: { textKey: 'form.issue', testId: 'view-issue' },
    useDelete: useDeleteSale,
    numberTestId: 'sale-number',
    refNumber: (document) => (document.documentNumber ? `${document.pointOfService}-${document.documentNumber}` : null),
    movement: { path: '/collections/view/', textKey: 'view.collection' },
  },
  list: {
    numberLabelKey: 'fields.number',
    numberText: (row) => row.number,
    dateNames: ['dateFrom', 'dateTo'],
    filtersOf: (values, search, sort) => ({
      q: search,
      sort,
      customerId: values.customerId ?? '',
      patientId: values.patientId ?? '',
      documentType: oneOf(saleDocumentTypes, values.documentType ?? ''),
      status: oneOf(saleStatuses, values.status ?? ''),
      dateFrom: isDay(values.dateFrom ?? ''),
      dateTo: isDay(values.dateTo ?? ''),
    }),
    useList: useSaleList,
    createTestId: 'sale-create',
    Tools: IntegrityLink,
  },
};
