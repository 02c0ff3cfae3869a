import type { publicBookingRoutes } from '@odontia/shared/routes/online-booking';
import type { publicPortalRoutes } from '@odontia/shared/routes/portal';
import { addressClient } from '../lib/api-client';

/*
 * The routes a signed-out visitor's pages call, by address: the declarations are imported as
 * types only, so the clinic's page does not download zod and the contracts (the portal's budget,
 * 120 KB); the server validates as for any route.
 */

export const portalAccessApi = addressClient<Omit<typeof publicPortalRoutes, 'logo'>>({
  clinic: ['GET', '/public/clinics/:slug'],
  requestAccess: ['POST', '/public/clinics/:slug/portal-access'],
  signIn: ['POST', '/public/portal-sign-in'],
  signInWithLink: ['POST', '/public/portal-links/:token'],
});

export const publicBookingApi = addressClient<typeof publicBookingRoutes>({
  page: ['GET', '/public/clinics/:slug/booking'],
  freeSlots: ['GET', '/public/clinics/:slug/free-slots'],
  book: ['POST', '/public/clinics/:slug/bookings'],
  confirm: ['POST', '/public/online-bookings/:token'],
});
