import { useTranslation } from 'react-i18next';
import { PageTitle } from '../../components/page-title';
import { ForgotPasswordForm } from '../../features/auth/forgot-password-form';

export function ForgotPasswordPage() {
  const { t } = useTranslation('common');
  return (
    <>
      <PageTitle title={t('pages.forgotPassword')} />
      <ForgotPasswordForm />
    </>
  );
}
