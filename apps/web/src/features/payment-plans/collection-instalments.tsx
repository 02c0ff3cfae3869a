import { paymentPlanRoutes } from '@odontia/shared/routes/payment-plans';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { apiClient } from '../../lib/api-client';
import { paymentPlansKey } from './api';

const client = apiClient(paymentPlanRoutes);

/** Under a collection's allocations: the instalments of payment plans it paid ("Cuota 2 de 6"). */
export function CollectionInstalments({ collectionId }: { collectionId: string }) {
  const { t } = useTranslation('paymentPlans');
  const query = useQuery({
    queryKey: [...paymentPlansKey, 'collection', collectionId],
    queryFn: () => client.ofCollection({ params: { id: collectionId } }),
  });
  const rows = query.data?.data ?? [];
  if (rows.length === 0) return null;
  return (
    <section className="card" aria-labelledby="collection-instalments-title" data-testid="collection-instalments">
      <div className="card-header">
        <h2 className="h5 mb-0" id="collection-instalments-title">
          {t('collection.title')}
        </h2>
      </div>
      <ul className="list-group list-group-flush">
        {rows.map((row) => (
          <li key={row.allocationId} className="list-group-item" data-testid="collection-instalment">
            <Link to={`/sales/view/${row.documentId}`}>{row.documentNumber ?? '—'}</Link>
            {': '}
            {t('collection.instalments', {
              count: row.numbers.length,
              numbers: new Intl.ListFormat(t('collection.listLocale'), { type: 'conjunction' }).format(
                row.numbers.map(String),
              ),
              total: row.instalmentCount,
            })}
          </li>
        ))}
      </ul>
    </section>
  );
}
