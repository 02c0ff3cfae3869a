import '../../lib/zod-setup';
import { useTranslation } from 'react-i18next';
import { RecordNotFound } from '../../components/record-not-found';
import { isApiError } from '../../lib/http';
import type { MoneyMovement, MovementKind } from './money-movement';
import { MovementDetails } from './movement-details';

export type { MoneyMovement, MovementKind };

/** `/payments/view/:id`, `/collections/view/:id`: the movement, its allocations and what can still happen to it. */
export function MoneyMovementView<M extends MoneyMovement>({ kind, id }: { kind: MovementKind<M>; id: string }) {
  const { t } = useTranslation(kind.namespaces);
  const query = kind.useOne(id);
  if (query.isError && isApiError(query.error) && query.error.status === 404) {
    return <RecordNotFound code={kind.notFoundCode} backTo={kind.listPath} backLabel={t('view.back')} />;
  }
  if (!query.data) {
    return (
      <div className="text-center py-5" aria-busy="true">
        <span className="spinner-border" aria-hidden="true" />
      </div>
    );
  }
  return <MovementDetails kind={kind} movement={query.data} />;
}
