import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { PageTitle } from '../components/page-title';
import { OfferLinkScreen } from '../features/waiting-list/offer-link';

/** The waiting-list offer's mailed link (issue 38). */
export function WaitingListOfferPage() {
  const { t } = useTranslation('common');
  const { token = '' } = useParams();
  return (
    <>
      <PageTitle title={t('pages.waitingListOffer')} />
      <OfferLinkScreen key={token} token={token} />
    </>
  );
}
