import { appointmentLinkRoutes } from '@odontia/shared/routes/appointments';
import { apiClient, type CallAnswer } from '../../lib/api-client';

export type AppointmentLinkAnswer = CallAnswer<typeof appointmentLinkRoutes.show>;

const linksApi = apiClient(appointmentLinkRoutes);

/** The reminder's public links (issue 16): no session, the token is the key. */
export const appointmentLinksApi = {
  show: (token: string) => linksApi.show({ params: { token } }),
  answer: (token: string) => linksApi.answer({ params: { token } }),
};
