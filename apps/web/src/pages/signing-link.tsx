import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { PageTitle } from '../components/page-title';
import { SigningLinkScreen } from '../features/signing/signing-link';

/** The mailed link to sign a consent or a budget (issue 37). */
export function SigningLinkPage() {
  const { t } = useTranslation('common');
  const { token = '' } = useParams();
  return (
    <>
      <PageTitle title={t('pages.signingLink')} />
      <SigningLinkScreen key={token} token={token} />
    </>
  );
}
