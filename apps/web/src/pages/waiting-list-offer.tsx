import { LinkPage } from '../components/page-title';
import { OfferLinkScreen } from '../features/waiting-list/offer-link';

/** The waiting-list offer's mailed link (issue 38). */
export const WaitingListOfferPage = () => (
  <LinkPage page="waitingListOffer" screen={(token) => <OfferLinkScreen key={token} token={token} />} />
);
