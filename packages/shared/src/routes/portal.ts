import { apiRoute } from '../api-route.ts';
import { signInResponseSchema } from '../schemas/auth.ts';
import {
  onlineAppointmentResponseSchema,
  onlineBookingRequestSchema,
  onlineFreeSlotsQuerySchema,
  onlineFreeSlotsResponseSchema,
  portalAppointmentParamsSchema,
  rescheduleOnlineRequestSchema,
} from '../schemas/online-booking.ts';
import {
  clinicSlugParamsSchema,
  patientPortalParamsSchema,
  portalAccessRequestedResponseSchema,
  portalAccessRequestSchema,
  portalAccessResponseSchema,
  portalLinkParamsSchema,
  portalMeResponseSchema,
  publicClinicResponseSchema,
} from '../schemas/portal.ts';

/**
 * The patient portal (issue 37). `portalRoutes`: a customer session's own data (`portal.use`);
 * `publicPortalRoutes`: the clinic's public page and the one-time sign-in link (no session);
 * `portalAccessRoutes`: the staff's invitation from the patient's page.
 */
export const portalRoutes = {
  me: apiRoute({ method: 'GET', path: '/portal/me', answer: portalMeResponseSchema }),
};

export const publicPortalRoutes = {
  clinic: apiRoute({
    method: 'GET',
    path: '/public/clinics/:slug',
    params: clinicSlugParamsSchema,
    answer: publicClinicResponseSchema,
  }),
  requestAccess: apiRoute({
    method: 'POST',
    path: '/public/clinics/:slug/portal-access',
    params: clinicSlugParamsSchema,
    body: portalAccessRequestSchema,
    answer: portalAccessRequestedResponseSchema,
  }),
  signInWithLink: apiRoute({
    method: 'POST',
    path: '/public/portal-links/:token',
    params: portalLinkParamsSchema,
    answer: signInResponseSchema,
  }),
};

export const portalAccessRoutes = {
  show: apiRoute({
    method: 'GET',
    path: '/patients/:patientId/portal-access',
    params: patientPortalParamsSchema,
    answer: portalAccessResponseSchema,
  }),
  invite: apiRoute({
    method: 'POST',
    path: '/patients/:patientId/portal-access',
    params: patientPortalParamsSchema,
    answer: portalAccessResponseSchema,
  }),
  revoke: apiRoute({
    method: 'DELETE',
    path: '/patients/:patientId/portal-access',
    params: patientPortalParamsSchema,
    answer: portalAccessResponseSchema,
  }),
};

// ———————————————————————————————————————————— online booking (issue 37)

/** The portal's booking: free slots, a booking, and the patient's confirm, cancel and reschedule. */
export const portalBookingRoutes = {
  freeSlots: apiRoute({
    method: 'GET',
    path: '/portal/free-slots',
    query: onlineFreeSlotsQuerySchema,
    answer: onlineFreeSlotsResponseSchema,
  }),
  book: apiRoute({
    method: 'POST',
    path: '/portal/bookings',
    body: onlineBookingRequestSchema,
    answer: onlineAppointmentResponseSchema,
    status: 201,
  }),
  confirm: apiRoute({
    method: 'POST',
    path: '/portal/appointments/:id/confirm',
    params: portalAppointmentParamsSchema,
    answer: onlineAppointmentResponseSchema,
  }),
  cancel: apiRoute({
    method: 'POST',
    path: '/portal/appointments/:id/cancel',
    params: portalAppointmentParamsSchema,
    answer: onlineAppointmentResponseSchema,
  }),
  reschedule: apiRoute({
    method: 'POST',
    path: '/portal/appointments/:id/reschedule',
    params: portalAppointmentParamsSchema,
    body: rescheduleOnlineRequestSchema,
    answer: onlineAppointmentResponseSchema,
  }),
};
