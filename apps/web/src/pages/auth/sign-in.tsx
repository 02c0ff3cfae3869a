import { useTranslation } from 'react-i18next';
import { PageTitle } from '../../components/page-title';
import { SignInForm } from '../../features/auth/sign-in-form';

export function SignInPage() {
  const { t } = useTranslation('common');
  return (
    <>
      <PageTitle title={t('pages.signIn')} />
      <SignInForm />
    </>
  );
}
