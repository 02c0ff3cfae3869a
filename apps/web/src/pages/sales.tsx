import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router';
import { PageTitle } from '../components/page-title';
import { RecordNotFound } from '../components/record-not-found';
import { Spinner } from '../components/spinner';
import { useSale } from '../features/sales/api';
import { SaleForm } from '../features/sales/sale-form';
import { SaleIntegrityReport } from '../features/sales/sale-integrity';
import { SaleList } from '../features/sales/sale-list';
import { SaleView } from '../features/sales/sale-view';
import { isApiError } from '../lib/http';
import { isRecordId } from '../lib/record-id';

/** `/sales` (commercial.read). */
export function SalesPage() {
  const { t } = useTranslation('common');
  return (
    <>
      <PageTitle title={t('pages.sales')} />
      <SaleList />
    </>
  );
}

function Loading({ error, refetch }: { error: unknown; refetch: () => unknown }) {
  const { t } = useTranslation('sales');
  if (isApiError(error) && error.status === 404)
    return <RecordNotFound code="sale_not_found" backTo="/sales" backLabel={t('view.back')} />;
  if (error)
    return (
      <div className="alert alert-danger">
        {t('list.loadError')}{' '}
        <button type="button" className="btn btn-link p-0" onClick={() => void refetch()}>
          {t('list.retry')}
        </button>
      </div>
    );
  return <Spinner />;
}

/** `/sales/create`, `?edit=<draft>` (commercial.write). */
export function SaleCreatePage() {
  const { t } = useTranslation(['common', 'sales']);
  const [params] = useSearchParams();
  const editId = params.get('edit') ?? '';
  const loaded = useSale(editId);
  const title = editId ? t('sales:form.editTitle') : t('common:pages.saleCreate');
  if (editId && isRecordId(editId) && !loaded.data)
    return (
      <>
        <PageTitle title={title} />
        <Loading error={loaded.error} refetch={loaded.refetch} />
      </>
    );
  return (
    <>
      <PageTitle title={title} />
      <SaleForm key={editId || 'new'} {...(loaded.data ? { sale: loaded.data } : {})} />
    </>
  );
}

/** `/sales/view/:saleId` (commercial.read). */
export function SaleViewPage() {
  const { t } = useTranslation(['common', 'sales']);
  const { saleId = '' } = useParams();
  const query = useSale(saleId);
  if (!isRecordId(saleId))
    return (
      <RecordNotFound
        code="sale_not_found"
        backTo="/sales"
        backLabel={t('sales:view.back')}
        title={t('common:pages.saleView')}
      />
    );
  return (
    <>
      <PageTitle title={t('common:pages.saleView')} />
      <div className="mb-2">
        <Link to="/sales">{t('sales:view.back')}</Link>
      </div>
      {query.data ? <SaleView sale={query.data} /> : <Loading error={query.error} refetch={query.refetch} />}
    </>
  );
}

/** `/sales/integrity` (commercial.read): the numbering and hash-chain report. */
export function SaleIntegrityPage() {
  const { t } = useTranslation(['common', 'sales']);
  return (
    <>
      <PageTitle title={t('common:pages.saleIntegrity')} />
      <div className="mb-2">
        <Link to="/sales">{t('sales:view.back')}</Link>
      </div>
      <SaleIntegrityReport />
    </>
  );
}
