import { useTranslation } from 'react-i18next';
import { PageTitle } from '../components/page-title';
import { InventoryList } from '../features/inventory/inventory-list';

const titles = { medication: 'pages.medications', supply: 'pages.supplies' } as const;

/** One kind's inventory list under its page title (keyed by kind: switching starts a fresh list). */
function InventoryPage({ kind }: { kind: keyof typeof titles }) {
  const { t } = useTranslation('common');
  return (
    <>
      <PageTitle title={t(titles[kind])} />
      <InventoryList key={kind} kind={kind} />
    </>
  );
}

/** `/medications` ("Farmacias", inventory.read). */
export const MedicationsPage = () => <InventoryPage kind="medication" />;

/** `/supplies` (inventory.read). */
export const SuppliesPage = () => <InventoryPage kind="supply" />;
