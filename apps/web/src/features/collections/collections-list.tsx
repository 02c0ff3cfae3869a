import { paymentMethods } from '@odontia/shared/enums';
import type { CollectionListItem } from '@odontia/shared/schemas/collections';
import { useTranslation } from 'react-i18next';
import { oneOf } from '../commercial/document-list-parts';
import { MovementList, type MovementListSide } from '../commercial/movement-list';
import { type CollectionFilters, useCollections } from './api';
import { CollectionStatusBadge } from './badges';

/** The customer (a patient, a company, an insurer) and what kind it is. */
function CustomerCell({ row }: { row: CollectionListItem }) {
  const { t } = useTranslation('collections');
  return (
    <>
      {row.customerName}
      <span className="d-block small text-body-secondary">{t(`kinds.${row.customerKind}`)}</span>
    </>
  );
}

const collectionsSide: MovementListSide<CollectionListItem, CollectionFilters> = {
  namespaces: ['collections', 'payments', 'common'],
  testIdPrefix: 'collection',
  path: '/collections',
  partyFilter: 'customerId',
  byMethod: true,
  party: { key: 'customer', labelKey: 'fields.customer', cell: (row) => <CustomerCell row={row} /> },
  status: (row) => <CollectionStatusBadge collection={row} />,
  filtersOf: (common, values) => ({
    ...common,
    method: oneOf(paymentMethods, values.method ?? ''),
    customerId: values.customerId ?? '',
  }),
  useList: useCollections,
};

/** `/collections`: money received from patients, companies and insurers, newest first. */
export const CollectionsList = () => <MovementList side={collectionsSide} />;
