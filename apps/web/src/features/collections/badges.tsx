import type { CollectionListItem } from '@odontia/shared/schemas/collections';
import { useTranslation } from 'react-i18next';

/** A collection's state: reversed wins over pending/paid. */
export function CollectionStatusBadge({
  collection,
}: {
  collection: Pick<CollectionListItem, 'status' | 'reversedAt'>;
}) {
  const { t } = useTranslation('collections');
  const status = collection.reversedAt ? 'reversed' : collection.status;
  const tone = status === 'reversed' ? 'text-bg-danger' : status === 'paid' ? 'text-bg-success' : 'text-bg-warning';
  return (
    <span className={`badge ${tone}`} data-testid="collection-status" data-status={status}>
      {t(`statuses.${status}`)}
    </span>
  );
}
