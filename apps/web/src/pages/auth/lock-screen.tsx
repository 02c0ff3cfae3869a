import { useTranslation } from 'react-i18next';
import { PageTitle } from '../../components/page-title';
import { LockScreenForm } from '../../features/auth/lock-screen-form';

export function LockScreenPage() {
  const { t } = useTranslation('common');
  return (
    <>
      <PageTitle title={t('pages.lockScreen')} />
      <LockScreenForm />
    </>
  );
}
