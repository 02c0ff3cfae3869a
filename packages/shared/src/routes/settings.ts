import { apiRoute } from '../api-route.ts';
import {
  clinicSettingsResponseSchema,
  numberingResponseSchema,
  numberingRowResponseSchema,
  setNextNumberSchema,
  updateClinicSettingsSchema,
} from '../schemas/clinic-settings.ts';
import { onlineBookingSettingsResponseSchema, updateOnlineBookingSettingsSchema } from '../schemas/online-booking.ts';

/** The clinic's system settings and its sales' numbering (issue 19). */
export const settingsRoutes = {
  clinic: apiRoute({ method: 'GET', path: '/settings/clinic', answer: clinicSettingsResponseSchema }),
  saveClinic: apiRoute({
    method: 'PUT',
    path: '/settings/clinic',
    body: updateClinicSettingsSchema,
    answer: clinicSettingsResponseSchema,
  }),
  numbering: apiRoute({ method: 'GET', path: '/settings/numbering', answer: numberingResponseSchema }),
  setNextNumber: apiRoute({
    method: 'PUT',
    path: '/settings/numbering',
    body: setNextNumberSchema,
    answer: numberingRowResponseSchema,
  }),
  /** Online booking's rules (issue 37). */
  onlineBooking: apiRoute({
    method: 'GET',
    path: '/settings/online-booking',
    answer: onlineBookingSettingsResponseSchema,
  }),
  saveOnlineBooking: apiRoute({
    method: 'PUT',
    path: '/settings/online-booking',
    body: updateOnlineBookingSettingsSchema,
    answer: onlineBookingSettingsResponseSchema,
  }),
};
