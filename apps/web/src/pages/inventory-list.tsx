import { TitledPage } from '../components/page-title';
import { InventoryList } from '../features/inventory/inventory-list';

/** `/medications` ("Farmacias", inventory.read). */
export const MedicationsPage = () => (
  <TitledPage page="medications" screen={<InventoryList key="medication" kind="medication" />} />
);

/** `/supplies` (inventory.read). */
export const SuppliesPage = () => <TitledPage page="supplies" screen={<InventoryList key="supply" kind="supply" />} />;
