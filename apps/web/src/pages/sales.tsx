import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router';
import { PageTitle, TitledPage } from '../components/page-title';
import { DocumentLoading, type DocumentScreens, DocumentViewScreen } from '../features/commercial/document-screens';
import { useSale } from '../features/sales/api';
import { SaleForm } from '../features/sales/sale-form';
import { SaleIntegrityReport } from '../features/sales/sale-integrity';
import { SaleList } from '../features/sales/sale-list';
import { SaleView } from '../features/sales/sale-view';
import { isRecordId } from '../lib/record-id';

/** `/sales` (commercial.read). */
export const SalesPage = () => <TitledPage page="sales" screen={<SaleList />} />;

const salesScreens: DocumentScreens = { namespace: 'sales', listPath: '/sales', notFoundCode: 'sale_not_found' };

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
        <DocumentLoading screens={salesScreens} error={loaded.error} refetch={loaded.refetch} />
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
  return (
    <DocumentViewScreen
      screens={salesScreens}
      id={saleId}
      title={t('common:pages.saleView')}
      query={query}
      view={(sale) => <SaleView sale={sale} />}
    />
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
