import { settingsRoutes as declared } from '@odontia/shared/routes/settings';
import type { FastifyPluginAsync } from 'fastify';
import { routes } from '../../plugins/routes.ts';
import { onlineBookingSettings } from '../online-booking/online-booking.service.ts';
import type { SettingsService } from './settings.service.ts';

/**
 * The clinic's system settings (issue 19): /api/settings/clinic and /api/settings/numbering, read
 * and written by settings.manage only. The fiscal data (/api/settings/fiscal), the agenda's hours
 * and the points of sale have their own routes; the /settings screen links them.
 */
export const settingsRoutes: FastifyPluginAsync<{ service: SettingsService }> = async (app, { service }) => {
  const route = routes(app, { tags: ['settings'] });
  const read = { permission: 'settings.manage', failureCode: 'error_get_system_settings' } as const;
  const write = { permission: 'settings.manage', failureCode: 'error_update_system_settings' } as const;

  route.serve(
    declared.clinic,
    {
      ...read,
      summary:
        "The clinic's system settings (currency, date format, default language, time zone, screen lock, reminders, upload limit), the installation's upload maximum and the version",
    },
    async ({ ctx }) => ({ data: await service.get({ ctx }) }),
  );

  route.serve(
    declared.saveClinic,
    {
      ...write,
      summary:
        "Edit the clinic's system settings (audited); 400 too_big on uploadMaxMb above the installation's UPLOAD_MAX_MB, invalid_value on an unknown time zone; answers code reminders_apply_to_new_bookings when the reminders' lead or on/off changed (planned reminders keep their time); 409 version_conflict with details.current when stale",
    },
    async ({ ctx, body }) => {
      const { settings, remindersChanged } = await service.update({ ctx, input: body });
      return {
        data: settings,
        code: remindersChanged ? ('reminders_apply_to_new_bookings' as const) : ('system_setting_updated' as const),
      };
    },
  );

  route.serve(
    declared.numbering,
    {
      ...read,
      summary: 'Each active point of sale and sale document type: the last number issued and the next number',
    },
    async ({ ctx }) => ({ data: await service.numbering({ ctx }) }),
  );

  route.serve(
    declared.setNextNumber,
    {
      ...write,
      summary:
        "Set the next number of a point of sale's document type (a clinic coming from another system; audited); 409 next_number_not_above_issued when it is not above the last number issued (details.lastIssued), 409 point_of_sale_inactive for an unknown or inactive point of sale",
    },
    async ({ ctx, body }) => ({
      data: await service.setNextNumber({ ctx, input: body }),
      code: 'system_setting_updated' as const,
    }),
  );

  route.serve(
    declared.onlineBooking,
    {
      ...read,
      summary:
        "Online booking's rules (issue 37): on/off, bookable treatments and professionals, lead time, horizon, pending bookings per patient, new patients, the change window; with the active treatments and professionals to choose from",
    },
    async ({ ctx }) => ({ data: await onlineBookingSettings.get({ ctx }) }),
  );

  route.serve(
    declared.saveOnlineBooking,
    {
      ...write,
      summary:
        "Edit online booking's rules (audited as online_booking_settings_updated); 400 invalid_value on an unknown treatment or professional; 409 version_conflict with details.current when stale (the clinic's version, shared with the other settings)",
    },
    async ({ ctx, body }) => ({
      data: await onlineBookingSettings.update({ ctx, input: body }),
      code: 'online_booking_settings_updated' as const,
    }),
  );
};
