import { useTranslation } from 'react-i18next';
import { PageTitle } from '../../components/page-title';
import { SignUpForm } from '../../features/auth/sign-up-form';

export function SignUpPage() {
  const { t } = useTranslation('common');
  return (
    <>
      <PageTitle title={t('pages.signUp')} />
      <SignUpForm />
    </>
  );
}
