import { purchaseDocumentTypes } from '@odontia/shared/commercial';
import type { PurchaseListItem } from '@odontia/shared/schemas/commercial-documents';
import type { Provider } from '@odontia/shared/schemas/providers';
import { isDay, oneOf } from '../commercial/document-list-parts';
import type { DocumentSide } from '../commercial/document-side';
import { documentNumberText } from '../commercial/money-format';
import { type PurchaseFilters, purchasePath, useDeletePurchase, usePurchaseList, useRegisterPurchase } from './api';
import { ProviderPicker } from './provider-picker';

const purchaseStatuses = ['draft', 'registered'] as const;

/** Purchases: documents a provider issued to the clinic, typed from its paper (and the clinic's orders). */
export const purchaseSide: DocumentSide<PurchaseListItem, Provider, PurchaseFilters> = {
  namespace: 'purchases',
  testIdPrefix: 'purchase',
  listPath: '/purchases',
  pathOf: purchasePath,
  types: purchaseDocumentTypes,
  statuses: purchaseStatuses,
  party: {
    Picker: ProviderPicker,
    columnKey: 'provider',
    labelKey: 'fields.provider',
    nameOf: (row) => row.providerName,
    filterNames: ['providerId'],
    picked: (provider) => ({ filters: { providerId: provider.id }, name: provider.fantasyName }),
    rowMatches: (row, filters) => row.providerId === filters.providerId,
    listFilter: { minWidth: '14rem', clearKey: 'list.clearProvider', anyKey: 'list.anyProvider' },
  },
  view: {
    useFinalise: useRegisterPurchase,
    final: { textKey: 'form.register', testId: 'view-register' },
    useDelete: useDeletePurchase,
    numberTestId: 'purchase-number-view',
    refNumber: documentNumberText,
    movement: { path: '/payments/view/', textKey: 'view.payment' },
  },
  list: {
    numberLabelKey: 'fields.document',
    numberText: documentNumberText,
    dateNames: ['from', 'to'],
    filtersOf: (values, search, sort) => ({
      q: search,
      sort,
      providerId: values.providerId ?? '',
      documentType: oneOf(purchaseDocumentTypes, values.documentType ?? ''),
      status: oneOf(purchaseStatuses, values.status ?? ''),
      from: isDay(values.from ?? ''),
      to: isDay(values.to ?? ''),
    }),
    useList: usePurchaseList,
  },
};
