import { z } from 'zod';
import { instantText } from '../api-schema.ts';
import { languages } from '../languages.ts';
import { emailAddress, instant, phoneNumber, requiredText, wholeNumber } from '../validation.ts';
import { idSchema } from './common.ts';
import { createPatientRequestSchema } from './patients.ts';
import { portalClinicSchema } from './portal.ts';
import { versionField } from './records.ts';

/**
 * Online booking (issue 37; docs/decisions.md "Online booking (issue 37)"): the clinic's rules
 * (GET/PUT /api/settings/online-booking, settings.manage), the free slots and bookings of the
 * patient portal (/api/portal/…) and of the public page for new patients (/api/public/clinics/:slug/…).
 */

/** Bounds of the clinic's rules. */
export const onlineBookingBounds = {
  leadHours: { min: 0, max: 720 },
  horizonDays: { min: 1, max: 365 },
  maxPending: { min: 1, max: 20 },
  changeHours: { min: 0, max: 720 },
} as const;

const ruleFields = {
  enabled: z.boolean(),
  /** Price-list treatments patients may book (each for its own duration). */
  treatmentIds: z.array(idSchema).max(500, 'too_big'),
  /** Professionals whose agenda is offered. */
  professionalIds: z.array(idSchema).max(500, 'too_big'),
  /** A booking starts at least this many hours from now. */
  leadHours: wholeNumber(onlineBookingBounds.leadHours.min, onlineBookingBounds.leadHours.max),
  /** …and at most this many days ahead. */
  horizonDays: wholeNumber(onlineBookingBounds.horizonDays.min, onlineBookingBounds.horizonDays.max),
  /** Upcoming online bookings a patient may hold at once. */
  maxPending: wholeNumber(onlineBookingBounds.maxPending.min, onlineBookingBounds.maxPending.max),
  /** Whether the public page books people who are not yet the clinic's patients. */
  newPatients: z.boolean(),
  /** Confirm, cancel or reschedule online up to this many hours before the appointment. */
  changeHours: wholeNumber(onlineBookingBounds.changeHours.min, onlineBookingBounds.changeHours.max),
};

export const updateOnlineBookingSettingsSchema = z.object({ ...ruleFields, version: versionField });
export type UpdateOnlineBookingSettings = z.output<typeof updateOnlineBookingSettingsSchema>;

const optionSchema = z.object({ id: z.uuid(), name: z.string() });
const treatmentOptionSchema = optionSchema.extend({ durationMinutes: z.number().int() });

/** The rules as stored, with what the form picks from (the active treatments and professionals). */
export const onlineBookingSettingsSchema = z.object({
  enabled: z.boolean(),
  treatmentIds: z.array(z.uuid()),
  professionalIds: z.array(z.uuid()),
  leadHours: z.number().int(),
  horizonDays: z.number().int(),
  maxPending: z.number().int(),
  newPatients: z.boolean(),
  changeHours: z.number().int(),
  treatments: z.array(treatmentOptionSchema),
  professionals: z.array(optionSchema),
  version: z.number().int(),
});
export type OnlineBookingSettings = z.infer<typeof onlineBookingSettingsSchema>;
export const onlineBookingSettingsResponseSchema = z.object({
  data: onlineBookingSettingsSchema,
  code: z.enum(['online_booking_settings_updated']).optional(),
});

/** GET …/free-slots: a bookable treatment, optionally one professional, over [from, from + days). */
export const onlineFreeSlotsQuerySchema = z.object({
  treatmentId: idSchema,
  professionalId: idSchema.optional(),
  from: instant().optional(),
  days: wholeNumber(1, 60).default(14),
  limit: wholeNumber(1, 200).default(50),
});
export type OnlineFreeSlotsQuery = z.output<typeof onlineFreeSlotsQuerySchema>;
export const onlineFreeSlotSchema = z.object({
  startsAt: instantText(),
  endsAt: instantText(),
  professionalId: z.uuid(),
  professionalName: z.string(),
});
export const onlineFreeSlotsResponseSchema = z.object({ data: z.array(onlineFreeSlotSchema) });

/** A booking by a patient of the portal. */
export const onlineBookingRequestSchema = z.object({
  treatmentId: idSchema,
  professionalId: idSchema,
  startsAt: instant(),
});
export type OnlineBookingRequest = z.output<typeof onlineBookingRequestSchema>;

/**
 * A booking of the public page: who the person is, and the slot. Sex and birthdate too: a patient
 * record requires them (spec §2), and a new patient is created from these fields once confirmed.
 */
export const publicBookingRequestSchema = onlineBookingRequestSchema.extend({
  firstName: createPatientRequestSchema.shape.firstName,
  lastName: createPatientRequestSchema.shape.lastName,
  email: emailAddress(),
  phone: phoneNumber(),
  idNumber: requiredText(30),
  sex: createPatientRequestSchema.shape.sex,
  birthdate: createPatientRequestSchema.shape.birthdate,
  language: z.enum(languages).optional(),
});
export type PublicBookingRequest = z.output<typeof publicBookingRequestSchema>;

/**
 * A move of the patient's appointment: the new start, and the professional and treatment when the
 * patient chose others (left out: the appointment's own). Another treatment must be bookable and
 * brings its duration.
 */
export const rescheduleOnlineRequestSchema = z.object({
  startsAt: instant(),
  professionalId: idSchema.optional(),
  treatmentId: idSchema.optional(),
});

/** What a patient sees of one of their appointments. */
export const onlineAppointmentSchema = z.object({
  id: z.uuid(),
  startsAt: instantText(),
  endsAt: instantText(),
  timeZone: z.string(),
  status: z.enum(['scheduled', 'completed', 'cancelled', 'rescheduled']),
  treatmentId: z.uuid().nullable(),
  treatmentName: z.string().nullable(),
  professionalId: z.uuid(),
  professionalName: z.string(),
  confirmedAt: instantText().nullable(),
  origin: z.enum(['staff', 'online']),
});
export type OnlineAppointment = z.infer<typeof onlineAppointmentSchema>;
export const onlineAppointmentResponseSchema = z.object({
  data: onlineAppointmentSchema,
  code: z
    .enum(['appointment_booked_online', 'appointment_confirmed', 'appointment_cancelled', 'appointment_rescheduled'])
    .optional(),
});

export const portalAppointmentParamsSchema = z.object({ id: idSchema });

/** The public page's heading (the clinic and its brand, as the portal shows it) and choices. */
export const publicBookingPageSchema = z.object({
  clinic: portalClinicSchema,
  newPatients: z.boolean(),
  leadHours: z.number().int(),
  horizonDays: z.number().int(),
  treatments: z.array(treatmentOptionSchema),
  professionals: z.array(optionSchema),
});
export const publicBookingPageResponseSchema = z.object({ data: publicBookingPageSchema });

/** A pending public booking: held until `expiresAt`, confirmed by the e-mailed link. */
export const publicHoldSchema = z.object({
  startsAt: instantText(),
  endsAt: instantText(),
  expiresAt: instantText(),
  treatmentName: z.string(),
  professionalName: z.string(),
});
export const publicHoldResponseSchema = z.object({
  data: publicHoldSchema,
  code: z.enum(['online_booking_held']).optional(),
});

export const bookingTokenParamsSchema = z.object({ token: z.string().trim().min(16).max(200) });
export const confirmedHoldResponseSchema = z.object({
  data: onlineAppointmentSchema,
  code: z.enum(['appointment_booked_online']).optional(),
});
