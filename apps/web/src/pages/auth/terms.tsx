import { useTranslation } from 'react-i18next';
import { PageTitle } from '../../components/page-title';
import { TermsOfUse } from '../../features/auth/terms-of-use';

export function TermsPage() {
  const { t } = useTranslation('common');
  return (
    <>
      <PageTitle title={t('pages.terms')} />
      <TermsOfUse />
    </>
  );
}
