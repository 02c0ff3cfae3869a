import { useTranslation } from 'react-i18next';
import { PageTitle } from '../components/page-title';
import { Dashboard } from '../features/dashboard/dashboard';

/** `/dashboard`: today's agenda, the next free slots, items to reorder and the patients seen recently. */
export function DashboardPage() {
  const { t } = useTranslation('common');
  return (
    <>
      <PageTitle title={t('pages.dashboard')} />
      <Dashboard />
    </>
  );
}
