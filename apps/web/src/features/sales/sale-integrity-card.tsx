import type { Sale } from '@odontia/shared/schemas/sales';
import { useTranslation } from 'react-i18next';

/** An issued sale's place in the clinic's chain of invoices and its hash (its e-invoice: sale-einvoice-card.tsx). */
export function SaleIntegrityCard({ sale }: { sale: Sale }) {
  const { t } = useTranslation('sales');
  return (
    <section className="card" data-testid="sale-integrity">
      <div className="card-header fw-semibold">{t('view.integrity')}</div>
      <div className="card-body">
        <dl className="row mb-0">
          <dt className="col-sm-4">{t('view.chainIndex')}</dt>
          <dd className="col-sm-8">{sale.chainIndex}</dd>
          <dt className="col-sm-4">{t('view.hash')}</dt>
          <dd className="col-sm-8">
            <code title={sale.contentHash ?? ''} data-testid="sale-hash">
              {sale.contentHash?.slice(0, 16)}…
            </code>
          </dd>
        </dl>
      </div>
    </section>
  );
}
