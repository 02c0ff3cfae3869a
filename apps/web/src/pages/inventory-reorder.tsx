import { TitledPage } from '../components/page-title';
import { ReorderList } from '../features/inventory/reorder-list';

/** `/inventory/reorder` ("Para pedir", inventory.read). */
export const InventoryReorderPage = () => <TitledPage page="inventoryReorder" screen={<ReorderList />} />;
