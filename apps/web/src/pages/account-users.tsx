import { useTranslation } from 'react-i18next';
import { PageTitle } from '../components/page-title';
import { UsersTable } from '../features/users/users-table';

/** `/account/users` (administrators: `users.manage`). */
export function AccountUsersPage() {
  const { t } = useTranslation('common');
  return (
    <>
      <PageTitle title={t('pages.accountUsers')} />
      <UsersTable />
    </>
  );
}
