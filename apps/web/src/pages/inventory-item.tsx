import { useParams } from 'react-router';
import { CreateItemPage, EditItemPage } from '../features/inventory/item-page';

/** `/medications/create` (inventory.write). */
export function MedicationCreatePage() {
  return <CreateItemPage kind="medication" />;
}

/** `/supplies/create` (inventory.write). */
export function SupplyCreatePage() {
  return <CreateItemPage kind="supply" />;
}

/** `/medications/edit/:id_pharmacy` (inventory.read; read-only without inventory.write). */
export function MedicationEditPage() {
  const { id_pharmacy: id = '' } = useParams();
  return <EditItemPage key={id} kind="medication" id={id} />;
}

/** `/supplies/edit/:id_supplie` (inventory.read; read-only without inventory.write). */
export function SupplyEditPage() {
  const { id_supplie: id = '' } = useParams();
  return <EditItemPage key={id} kind="supply" id={id} />;
}
