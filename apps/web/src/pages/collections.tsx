import { useTranslation } from 'react-i18next';
import { PageTitle } from '../components/page-title';
import { CollectionForm } from '../features/collections/collection-form';
import { CollectionView } from '../features/collections/collection-view';
import { CollectionsList } from '../features/collections/collections-list';

/** `/collections` (commercial.read). */
export function CollectionsPage() {
  const { t } = useTranslation('common');
  return (
    <>
      <PageTitle title={t('pages.collections')} />
      <CollectionsList />
    </>
  );
}

/** `/collections/create` (commercial.write). */
export function CollectionCreatePage() {
  const { t } = useTranslation('common');
  return (
    <>
      <PageTitle title={t('pages.collectionCreate')} />
      <CollectionForm />
    </>
  );
}

/** `/collections/view/:collectionId`. */
export function CollectionViewPage() {
  const { t } = useTranslation('common');
  return (
    <>
      <PageTitle title={t('pages.collectionView')} />
      <CollectionView />
    </>
  );
}
