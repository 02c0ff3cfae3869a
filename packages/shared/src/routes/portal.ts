import { apiRoute } from '../api-route.ts';
import {
  authCodeResponseSchema,
  resetPasswordRequestSchema,
  signInRequestSchema,
  signInResponseSchema,
} from '../schemas/auth.ts';
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
  portalAccessChangedResponseSchema,
  portalAccessRequestedResponseSchema,
  portalAccessRequestSchema,
  portalAccessResponseSchema,
  portalAppointmentsResponseSchema,
  portalBalanceResponseSchema,
  portalDocumentParamsSchema,
  portalDocumentsResponseSchema,
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
  appointments: apiRoute({ method: 'GET', path: '/portal/appointments', answer: portalAppointmentsResponseSchema }),
  documents: apiRoute({ method: 'GET', path: '/portal/documents', answer: portalDocumentsResponseSchema }),
  documentPdf: apiRoute({
    method: 'GET',
    path: '/portal/documents/:kind/:id/pdf',
    params: portalDocumentParamsSchema,
    produces: ['application/pdf'],
  }),
  balance: apiRoute({ method: 'GET', path: '/portal/balance', answer: portalBalanceResponseSchema }),
  /**
   * The first password of a patient who entered by a link (then the portal's sign-in works); a
   * patient who has one changes it with the current one (`sessionRoutes.changePassword`).
   */
  setPassword: apiRoute({
    method: 'PUT',
    path: '/portal/password',
    body: resetPasswordRequestSchema,
    answer: authCodeResponseSchema('portal_password_set'),
  }),
};

export const publicPortalRoutes = {
  clinic: apiRoute({
    method: 'GET',
    path: '/public/clinics/:slug',
    params: clinicSlugParamsSchema,
    answer: publicClinicResponseSchema,
  }),
  /** The clinic's logo (the one its PDFs print), for the portal's pages. */
  logo: apiRoute({
    method: 'GET',
    path: '/public/clinics/:slug/logo',
    params: clinicSlugParamsSchema,
    produces: ['image/png'],
  }),
  requestAccess: apiRoute({
    method: 'POST',
    path: '/public/clinics/:slug/portal-access',
    params: clinicSlugParamsSchema,
    body: portalAccessRequestSchema,
    answer: portalAccessRequestedResponseSchema,
  }),
  /**
   * The portal's sign-in (issue 37): e-mail and password open one of the person's patient
   * memberships, never a staff one; its profile's `clinics` are the person's portal clinics.
   */
  signIn: apiRoute({
    method: 'POST',
    path: '/public/portal-sign-in',
    body: signInRequestSchema,
    answer: signInResponseSchema,
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
    answer: portalAccessChangedResponseSchema,
  }),
  revoke: apiRoute({
    method: 'DELETE',
    path: '/patients/:patientId/portal-access',
    params: patientPortalParamsSchema,
    answer: portalAccessChangedResponseSchema,
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
