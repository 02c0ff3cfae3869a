import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { PageTitle } from '../../components/page-title';
import { ActivationStatus } from '../../features/auth/activation-status';

export function ActivationPage() {
  const { t } = useTranslation('common');
  const { token = '' } = useParams();
  return (
    <>
      <PageTitle title={t('pages.activation')} />
      <ActivationStatus key={token} token={token} />
    </>
  );
}
