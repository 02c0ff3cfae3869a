import { waitingListOfferLinkRoutes } from '@odontia/shared/routes/waiting-list';
import { apiClient } from '../../lib/api-client';

const offerLinks = apiClient(waitingListOfferLinkRoutes);

/** The waiting-list offer's mailed link (issue 38): no session, the token is the key. */
export const offerLinkApi = {
  show: (token: string) => offerLinks.show({ params: { token } }),
  accept: (token: string) => offerLinks.accept({ params: { token } }),
};
