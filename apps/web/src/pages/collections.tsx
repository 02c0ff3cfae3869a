import { CollectionForm } from '../features/collections/collection-form';
import { CollectionView } from '../features/collections/collection-view';
import { CollectionsList } from '../features/collections/collections-list';
import { movementScreen } from '../features/commercial/movement-screens';

/** `/collections` (commercial.read). */
export const CollectionsPage = movementScreen('collections', CollectionsList);

/** `/collections/create` (commercial.write). */
export const CollectionCreatePage = movementScreen('collectionCreate', CollectionForm);

/** `/collections/view/:collectionId`. */
export const CollectionViewPage = movementScreen('collectionView', CollectionView);
