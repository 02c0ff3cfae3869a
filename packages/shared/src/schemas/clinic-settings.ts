import { z } from 'zod';
import { instantText } from '../api-schema.ts';
import { saleDocumentTypes } from '../commercial.ts';
import { currencies, dateFormats, languages } from '../enums.ts';
import { instalmentReminderDaysMax } from '../payment-plans.ts';
import { recallMessageDaysMax } from '../recalls.ts';
import { optionalHexColor, optionalText, optionalWholeNumber, safeText, wholeNumber } from '../validation.ts';
import { pointOfSaleCode } from './clinic-fiscal.ts';
import { versionField } from './records.ts';

/**
 * The clinic's system settings (issue 19, spec §1 "system settings"): GET/PUT /api/settings/clinic
 * (settings.manage), and the numbering of its sales per point of sale at /api/settings/numbering.
 * A user's own language, date format and currency stay in /profile; these are the clinic's: what a
 * new user or patient starts with, its time zone, when the screen locks, when reminders leave and
 * how big an upload may be (never above the installation's UPLOAD_MAX_MB).
 */

/** The screen locks after 1 minute to 4 hours without activity. */
export const lockMinutesBounds = { min: 1, max: 240 } as const;
/** A reminder leaves 1 hour to 7 days before the appointment (as /api/schedules/reminders). */
export const reminderLeadBounds = { min: 60, max: 7 * 24 * 60 } as const;

/** An IANA time zone this runtime knows ('Europe/Madrid', 'UTC'); anything else is `invalid_value`. */
export function isTimeZone(value: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(value)) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

export const timeZoneField = () =>
  safeText()
    .trim()
    .min(1, 'required')
    .max(64, 'too_long') // Blank is `required` alone.
    .refine((value) => value === '' || isTimeZone(value), { message: 'invalid_value' });

const clinicSettingsFields = {
  currency: z.enum(currencies),
  dateFormat: z.enum(dateFormats),
  defaultLanguage: z.enum(languages),
  timeZone: timeZoneField(),
  lockAfterMinutes: wholeNumber(lockMinutesBounds.min, lockMinutesBounds.max),
  remindersEnabled: z.boolean(),
  reminderLeadMinutes: wholeNumber(reminderLeadBounds.min, reminderLeadBounds.max),
  /** Largest file a user may upload, in MB; blank: the installation's maximum. */
  uploadMaxMb: optionalWholeNumber(1, 100_000),
  /**
   * The patient portal's "how to pay" text (issue 37), beside the patient's balance; blank: none.
   * Left out of a PUT, it stays as it is (clients older than the portal).
   */
  portalPaymentInstructions: optionalText(2000).optional(),
  /** Recalls (issue 38): the automatic e-mail this many days before a recall is due; 0 = none. Left out: unchanged. */
  recallMessageDays: wholeNumber(0, recallMessageDaysMax).optional(),
  /** Payment plans (issue 40): the patient's reminder this many days before an instalment is due; 0 = none. Left out: unchanged. */
  instalmentReminderDays: wholeNumber(0, instalmentReminderDaysMax).optional(),
  /**
   * The brand colour of the portal's pages and the e-mails to patients; blank: the product's own.
   * Left out of a PUT, it stays as it is.
   */
  brandColor: optionalHexColor().optional(),
};

/**
 * PUT /api/settings/clinic: every setting and the version the edit started from (409 when stale).
 * The upload limit's upper bound is the installation's (`uploadMaxMbLimit` of the GET): the form
 * passes it, the server checks it again (`too_big` with `max`).
 */
export function clinicSettingsUpdateSchema(installationMaxMb?: number) {
  return z.object({ ...clinicSettingsFields, version: versionField }).superRefine((value, ctx) => {
    if (installationMaxMb !== undefined && value.uploadMaxMb !== null && value.uploadMaxMb > installationMaxMb)
      ctx.addIssue({
        code: 'too_big',
        origin: 'number',
        maximum: installationMaxMb,
        path: ['uploadMaxMb'],
        message: 'too_big',
      });
  });
}
export const updateClinicSettingsSchema = clinicSettingsUpdateSchema();
export type UpdateClinicSettings = z.output<typeof updateClinicSettingsSchema>;

/** The settings as answered, with the installation's upload maximum the limit must stay within. */
export const clinicSettingsSchema = z.object({
  currency: z.enum(currencies),
  dateFormat: z.enum(dateFormats),
  defaultLanguage: z.enum(languages),
  timeZone: z.string(),
  lockAfterMinutes: z.number().int(),
  remindersEnabled: z.boolean(),
  reminderLeadMinutes: z.number().int(),
  uploadMaxMb: z.number().int().nullable(),
  portalPaymentInstructions: z.string().nullable(),
  recallMessageDays: z.number().int(),
  instalmentReminderDays: z.number().int(),
  brandColor: z.string().nullable(),
  /** The installation's UPLOAD_MAX_MB: the clinic's limit is at most this (and this when blank). */
  uploadMaxMbLimit: z.number(),
  updatedAt: instantText(),
  version: z.number().int(),
});
export type ClinicSettings = z.infer<typeof clinicSettingsSchema>;
export const clinicSettingsResponseSchema = z.object({
  data: clinicSettingsSchema,
  code: z.enum(['system_setting_updated', 'reminders_apply_to_new_bookings']).optional(),
});

// ———————————————————————————————————————————— numbering

/** One point of sale and sale document type: the last number issued and the next one. */
export const numberingRowSchema = z.object({
  pointOfSale: z.object({ id: z.uuid(), code: z.string(), name: z.string() }),
  documentType: z.enum(saleDocumentTypes),
  /** The highest number issued so far (0: none). */
  lastIssued: z.number().int(),
  /** The number the next issue takes. */
  nextNumber: z.number().int(),
});
export type NumberingRow = z.infer<typeof numberingRowSchema>;
export const numberingResponseSchema = z.object({ data: z.array(numberingRowSchema) });

/** PUT /api/settings/numbering: the next number of one point of sale's document type. */
export const setNextNumberSchema = z.object({
  pointOfSale: pointOfSaleCode(),
  documentType: z.enum(saleDocumentTypes),
  nextNumber: wholeNumber(1, 99_999_999),
});
export type SetNextNumber = z.output<typeof setNextNumberSchema>;
export const numberingRowResponseSchema = z.object({
  data: numberingRowSchema,
  code: z.literal('system_setting_updated'),
});
