import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router';
import { PageTitle } from '../components/page-title';
import { RecordNotFound } from '../components/record-not-found';
import { Spinner } from '../components/spinner';
import { usePurchase } from '../features/purchases/api';
import { PurchaseForm } from '../features/purchases/purchase-form';
import { PurchaseList } from '../features/purchases/purchase-list';
import { PurchaseView } from '../features/purchases/purchase-view';
import { isApiError } from '../lib/http';
import { isRecordId } from '../lib/record-id';

/** `/purchases` (commercial.read). */
export function PurchasesPage() {
  const { t } = useTranslation('common');
  return (
    <>
      <PageTitle title={t('pages.purchases')} />
      <PurchaseList />
    </>
  );
}

function Loading({ error, refetch }: { error: unknown; refetch: () => unknown }) {
  const { t } = useTranslation('purchases');
  if (isApiError(error) && error.status === 404)
    return <RecordNotFound code="purchase_not_found" backTo="/purchases" backLabel={t('view.back')} />;
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

/** `/purchases/create`, `?edit=<draft>` or `?from=<document>&type=credit_note|debit_note|invoice` (commercial.write). */
export function PurchaseCreatePage() {
  const { t } = useTranslation(['common', 'purchases']);
  const [params] = useSearchParams();
  const editId = params.get('edit') ?? '';
  const fromId = params.get('from') ?? '';
  const type = params.get('type');
  const loadId = editId || fromId;
  const loaded = usePurchase(loadId);
  const title = editId ? t('purchases:form.editTitle') : t('common:pages.purchaseCreate');
  if (loadId && isRecordId(loadId) && !loaded.data)
    return (
      <>
        <PageTitle title={title} />
        <Loading error={loaded.error} refetch={loaded.refetch} />
      </>
    );
  const mode =
    editId && loaded.data
      ? ({ kind: 'edit', purchase: loaded.data } as const)
      : fromId && loaded.data && (type === 'credit_note' || type === 'debit_note' || type === 'invoice')
        ? ({ kind: 'correct', from: loaded.data, documentType: type } as const)
        : ({ kind: 'create' } as const);
  return (
    <>
      <PageTitle title={title} />
      <PurchaseForm key={`${mode.kind}-${loadId}`} mode={mode} />
    </>
  );
}

/** `/purchases/view/:purchaseId` (commercial.read). */
export function PurchaseViewPage() {
  const { t } = useTranslation(['common', 'purchases']);
  const { purchaseId = '' } = useParams();
  const query = usePurchase(purchaseId);
  if (!isRecordId(purchaseId))
    return (
      <RecordNotFound
        code="purchase_not_found"
        backTo="/purchases"
        backLabel={t('purchases:view.back')}
        title={t('common:pages.purchaseView')}
      />
    );
  return (
    <>
      <PageTitle title={t('common:pages.purchaseView')} />
      <div className="mb-2">
        <Link to="/purchases">{t('purchases:view.back')}</Link>
      </div>
      {query.data ? <PurchaseView purchase={query.data} /> : <Loading error={query.error} refetch={query.refetch} />}
    </>
  );
}
