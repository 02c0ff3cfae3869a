import { useTranslation } from 'react-i18next';
import { PageTitle } from '../components/page-title';
import { ReorderList } from '../features/inventory/reorder-list';

/** `/inventory/reorder` ("Para pedir", inventory.read). */
export function InventoryReorderPage() {
  const { t } = useTranslation('common');
  return (
    <>
      <PageTitle title={t('pages.inventoryReorder')} />
      <ReorderList />
    </>
  );
}
