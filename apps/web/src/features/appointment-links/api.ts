import type { appointmentLinkAnswerSchema } from '@odontia/shared/schemas/appointments';
import type { z } from 'zod';
import { http } from '../../lib/http';

export type AppointmentLinkAnswer = z.infer<typeof appointmentLinkAnswerSchema>;

/** The reminder's public links (issue 16): no session, the token is the key. */
export const appointmentLinksApi = {
  show: (token: string) => http.get<AppointmentLinkAnswer>(`public/appointment-links/${encodeURIComponent(token)}`),
  answer: (token: string) => http.post<AppointmentLinkAnswer>(`public/appointment-links/${encodeURIComponent(token)}`),
};
