import type { Collection } from '@odontia/shared/schemas/collections';
import { useParams } from 'react-router';
import { MoneyMovementView, type MovementKind } from '../commercial/money-movement-view';
import { CollectionInstalments } from '../payment-plans/collection-instalments';
import { collectionsApi, invalidateCollections, useCollection, useCustomerOpenDocuments } from './api';
import { CollectionStatusBadge } from './badges';

/** A collection from a customer, as the movement view shows it (the receipt, the customer's ledger). */
const collectionKind: MovementKind<Collection> = {
  namespaces: ['collections', 'payments', 'common'],
  testIdPrefix: 'collection',
  listPath: '/collections',
  notFoundCode: 'collection_not_found',
  useOne: useCollection,
  queryKey: (id) => ['collections', 'one', id],
  invalidate: invalidateCollections,
  StatusBadge: ({ movement }) => <CollectionStatusBadge collection={movement} />,
  partyLabel: 'fields.customer',
  partyName: (collection) => collection.customerName,
  ledgerPath: (collection) => `/cc-customers/${collection.customerId}`,
  useOpenDocuments: (collection) => useCustomerOpenDocuments(collection.customerId).data?.documents,
  pdfTestId: 'collection-receipt',
  Extra: ({ movement }) => <CollectionInstalments collectionId={movement.id} />,
  api: collectionsApi,
};

/** `/collections/view/:collectionId`: the collection, its allocations and what can still happen to it. */
export function CollectionView() {
  const { collectionId = '' } = useParams();
  return <MoneyMovementView kind={collectionKind} id={collectionId} />;
}
