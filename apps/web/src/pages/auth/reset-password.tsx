import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { PageTitle } from '../../components/page-title';
import { ResetPasswordForm } from '../../features/auth/reset-password-form';

export function ResetPasswordPage() {
  const { t } = useTranslation('common');
  const { id = '' } = useParams();
  return (
    <>
      <PageTitle title={t('pages.resetPassword')} />
      <ResetPasswordForm key={id} resetId={id} />
    </>
  );
}
