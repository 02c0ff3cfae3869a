import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';
import { PageTitle, TitledPage } from '../components/page-title';
import { DocumentLoading, type DocumentScreens, DocumentViewScreen } from '../features/commercial/document-screens';
import { usePurchase } from '../features/purchases/api';
import { PurchaseForm } from '../features/purchases/purchase-form';
import { PurchaseList } from '../features/purchases/purchase-list';
import { PurchaseView } from '../features/purchases/purchase-view';
import { isRecordId } from '../lib/record-id';

/** `/purchases` (commercial.read). */
export const PurchasesPage = () => <TitledPage page="purchases" screen={<PurchaseList />} />;

const purchasesScreens: DocumentScreens = {
  namespace: 'purchases',
  listPath: '/purchases',
  notFoundCode: 'purchase_not_found',
};

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
        <DocumentLoading screens={purchasesScreens} error={loaded.error} refetch={loaded.refetch} />
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
  return (
    <DocumentViewScreen
      screens={purchasesScreens}
      id={purchaseId}
      title={t('common:pages.purchaseView')}
      query={query}
      view={(purchase) => <PurchaseView purchase={purchase} />}
    />
  );
}
