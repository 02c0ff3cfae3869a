import { useTranslation } from 'react-i18next';
import { PageTitle } from '../components/page-title';
import { InventoryList } from '../features/inventory/inventory-list';

/** `/medications` ("Farmacias", inventory.read). */
export function MedicationsPage() {
  const { t } = useTranslation('common');
  return (
    <>
      <PageTitle title={t('pages.medications')} />
      <InventoryList key="medication" kind="medication" />
    </>
  );
}

/** `/supplies` (inventory.read). */
export function SuppliesPage() {
  const { t } = useTranslation('common');
  return (
    <>
      <PageTitle title={t('pages.supplies')} />
      <InventoryList key="supply" kind="supply" />
    </>
  );
}
