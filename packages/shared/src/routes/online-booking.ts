import { apiRoute } from '../api-route.ts';
import {
  bookingTokenParamsSchema,
  confirmedHoldResponseSchema,
  onlineFreeSlotsQuerySchema,
  onlineFreeSlotsResponseSchema,
  publicBookingPageResponseSchema,
  publicBookingRequestSchema,
  publicHoldResponseSchema,
} from '../schemas/online-booking.ts';
import { clinicSlugParamsSchema } from '../schemas/portal.ts';

/**
 * The public booking page of a clinic (issue 37): no sign-in, the clinic found by its address
 * (`accounts.public_slug`). A booking waits for its e-mail to be confirmed by the link.
 */
export const publicBookingRoutes = {
  page: apiRoute({
    method: 'GET',
    path: '/public/clinics/:slug/booking',
    params: clinicSlugParamsSchema,
    answer: publicBookingPageResponseSchema,
  }),
  freeSlots: apiRoute({
    method: 'GET',
    path: '/public/clinics/:slug/free-slots',
    params: clinicSlugParamsSchema,
    query: onlineFreeSlotsQuerySchema,
    answer: onlineFreeSlotsResponseSchema,
  }),
  book: apiRoute({
    method: 'POST',
    path: '/public/clinics/:slug/bookings',
    params: clinicSlugParamsSchema,
    body: publicBookingRequestSchema,
    answer: publicHoldResponseSchema,
    status: 201,
  }),
  confirm: apiRoute({
    method: 'POST',
    path: '/public/online-bookings/:token',
    params: bookingTokenParamsSchema,
    answer: confirmedHoldResponseSchema,
  }),
};
