import { z } from 'zod';
import { instantText, named } from '../api-schema.ts';
import {
  appointmentCancelReasons,
  appointmentOrigins,
  appointmentStatuses,
  confirmationChannels,
  languages,
  reminderStates,
} from '../enums.ts';
import { appointmentStepCodes } from '../errors.ts';
import { instant, optionalId, optionalText, safeText, wholeNumber } from '../validation.ts';
import { clinicBrandSchema } from './clinic-brand.ts';
import { professionalIdField } from './clinical.ts';
import { idSchema, maxPageSize, pageSchema } from './common.ts';
import { patientContactFields } from './patients.ts';
import { recordContracts, recordStampsSchema, versionField } from './records.ts';

/**
 * Appointments (issue 16, spec §2 "Calendar", §4 states): /api/appointments. Times are instants;
 * the clinic's IANA zone (stored with each appointment) turns them into the wall-clock time the
 * patient was told. docs/decisions.md "The agenda" writes down the states and their transitions:
 *
 * - scheduled → completed (its attendance was saved, or marked done), cancelled (with a reason;
 *   `no_show` once it has started), rescheduled (moved: a new scheduled appointment takes the new
 *   time and the old one points at it);
 * - cancelled → scheduled (restored, when the time is still free);
 * - completed and rescheduled are final.
 */

/** The longest appointment: a long surgery. The database checks it too. */
export const maxAppointmentMinutes = 12 * 60;

const appointmentFields = {
  patientId: z.uuid({ error: (issue) => (issue.input == null || issue.input === '' ? 'required' : 'invalid_value') }),
  professionalId: professionalIdField,
  chairId: optionalId(),
  treatmentId: optionalId(),
  startsAt: instant(),
  endsAt: instant(),
  reason: optionalText(200),
  notes: optionalText(2000),
  /** Book even outside the professional's hours or inside a block: the warning was confirmed. */
  allowOutsideSchedule: z.boolean().default(false),
};

function refineTimes(value: { startsAt: string; endsAt: string }, ctx: z.RefinementCtx) {
  const start = Date.parse(value.startsAt);
  const end = Date.parse(value.endsAt);
  if (end <= start) ctx.addIssue({ code: 'custom', path: ['endsAt'], message: 'end_before_start' });
  else if (end - start > maxAppointmentMinutes * 60_000)
    ctx.addIssue({ code: 'custom', path: ['endsAt'], message: 'too_big' });
  if (start % 60_000 !== 0) ctx.addIssue({ code: 'custom', path: ['startsAt'], message: 'invalid_time' });
  if (end % 60_000 !== 0) ctx.addIssue({ code: 'custom', path: ['endsAt'], message: 'invalid_time' });
}

export const appointmentSchema = named(
  'Appointment',
  z.object({
    id: z.uuid(),
    ...patientContactFields,
    professionalId: z.uuid(),
    professionalName: z.string(),
    chairId: z.uuid().nullable(),
    chairName: z.string().nullable(),
    treatmentId: z.uuid().nullable(),
    treatmentName: z.string().nullable(),
    treatmentColor: z.string().nullable(),
    startsAt: instantText(),
    endsAt: instantText(),
    timeZone: z.string(),
    reason: z.string().nullable(),
    notes: z.string().nullable(),
    status: z.enum(appointmentStatuses),
    outsideSchedule: z.boolean(),
    confirmedAt: instantText().nullable(),
    confirmationChannel: z.enum(confirmationChannels).nullable(),
    /** Null with a confirmation: the patient confirmed through the reminder's link. */
    confirmedByName: z.string().nullable(),
    arrivedAt: instantText().nullable(),
    cancelledAt: instantText().nullable(),
    cancelReason: z.enum(appointmentCancelReasons).nullable(),
    cancelNote: z.string().nullable(),
    cancelledByName: z.string().nullable(),
    rescheduledTo: z.uuid().nullable(),
    rescheduledFrom: z.uuid().nullable(),
    attendanceId: z.uuid().nullable(),
    reminderState: z.enum(reminderStates),
    reminderSentAt: instantText().nullable(),
    reminderError: z.string().nullable(),
    /** Booked by the staff, or by the patient online (issue 37): the agenda marks the latter. */
    origin: z.enum(appointmentOrigins),
    ...recordStampsSchema,
  }),
);
export type Appointment = z.infer<typeof appointmentSchema>;

const answerCodes = ['appointment_created', 'appointment_updated', ...appointmentStepCodes] as const;

/**
 * /api/appointments[/:id]. An edit that changes `startsAt` moves the appointment: it answers
 * `appointment_rescheduled` with the new appointment (the old one is `rescheduled`, pointing at
 * it). Any other edit (end, professional, chair, reason, notes) changes the same appointment.
 */
const baseContracts = recordContracts('appointment', appointmentFields, appointmentSchema, { refine: refineTimes });
export const appointmentContracts = {
  ...baseContracts,
  one: z.object({ data: appointmentSchema, code: z.enum(answerCodes).optional() }),
};
export const createAppointmentRequestSchema = appointmentContracts.create;
export const updateAppointmentRequestSchema = appointmentContracts.update;
export type CreateAppointmentRequest = z.input<typeof createAppointmentRequestSchema>;
export type UpdateAppointmentRequest = z.input<typeof updateAppointmentRequestSchema>;
export type AppointmentInput = z.output<typeof createAppointmentRequestSchema>;
export type AppointmentAnswer = z.infer<typeof appointmentContracts.one>;

/** POST /api/appointments/:id/cancel: a reason, and a note ("other" needs one). */
export const cancelAppointmentRequestSchema = z
  .object({ reason: z.enum(appointmentCancelReasons), note: optionalText(500), version: versionField })
  .superRefine((value, ctx) => {
    if (value.reason === 'other' && !value.note) ctx.addIssue({ code: 'custom', path: ['note'], message: 'required' });
  });
export type CancelAppointmentRequest = z.input<typeof cancelAppointmentRequestSchema>;

/** POST /api/appointments/:id/confirm: how the patient confirmed (staff record it). */
export const confirmAppointmentRequestSchema = z.object({
  channel: z.enum(confirmationChannels).exclude(['reminder_link', 'online']),
  version: versionField,
});
export type ConfirmAppointmentRequest = z.input<typeof confirmAppointmentRequestSchema>;

/** POST …/:id/unconfirm, …/:id/arrive, …/:id/complete: the version read. */
export const appointmentActionRequestSchema = z.object({ version: versionField });

/** POST …/:id/restore: a cancelled appointment back to scheduled, if its time is still free. */
export const restoreAppointmentRequestSchema = z.object({
  version: versionField,
  allowOutsideSchedule: z.boolean().default(false),
});

/** The longest range the calendar reads at once: a month view with its leading and trailing weeks. */
export const maxCalendarRangeDays = 42;

const idList = z.preprocess(
  (value) => (typeof value === 'string' ? value.split(',').filter(Boolean) : value),
  z.array(idSchema).max(50, 'too_big'),
);

/**
 * GET /api/appointments/calendar: every appointment that overlaps [from, to) (at most 42 days),
 * of the professionals or chairs named (all when none), in start order; cancelled and rescheduled
 * ones only with `inactive=true` (the list view shows them).
 */
export const calendarQuerySchema = z
  .object({
    from: instant(),
    to: instant(),
    professionalIds: idList.optional(),
    chairIds: idList.optional(),
    inactive: z.enum(['true', 'false']).optional(),
  })
  .superRefine((value, ctx) => {
    const span = Date.parse(value.to) - Date.parse(value.from);
    if (span <= 0) ctx.addIssue({ code: 'custom', path: ['to'], message: 'end_before_start' });
    else if (span > maxCalendarRangeDays * 24 * 3_600_000)
      ctx.addIssue({ code: 'custom', path: ['to'], message: 'too_big' });
  });
export type CalendarQuery = z.input<typeof calendarQuerySchema>;
/**
 * An appointment as the calendar and the day's agenda draw it: what a block shows and a drag
 * sends back (the fields of an edit and the version). A week of ten professionals is about 1,250
 * of them, so the details (who confirmed, the reminder's times, the stamps) come with GET
 * /api/appointments/:id when one is opened (issue 16 bench: half the bytes, a third of the time).
 */
export const calendarAppointmentSchema = appointmentSchema
  .pick({
    id: true,
    patientId: true,
    patientName: true,
    patientPhone: true,
    professionalId: true,
    professionalName: true,
    chairId: true,
    chairName: true,
    treatmentId: true,
    treatmentName: true,
    treatmentColor: true,
    startsAt: true,
    endsAt: true,
    reason: true,
    notes: true,
    status: true,
    outsideSchedule: true,
    confirmedAt: true,
    arrivedAt: true,
    cancelReason: true,
    reminderState: true,
    origin: true,
    version: true,
  })
  .extend({
    /** Issue 41: a dental lab case to be seated at it is not received and will not be by the day before. */
    labCaseWarning: z.boolean(),
  });
export type CalendarAppointment = z.infer<typeof calendarAppointmentSchema>;
export const calendarResponseSchema = z.object({ data: z.array(calendarAppointmentSchema) });

/**
 * GET /api/appointments: the searchable, paginated list (by patient name, status, professional,
 * dates), soonest first; `-startsAt` newest first.
 */
export const appointmentsListQuerySchema = z.object({
  q: safeText().trim().max(200, 'too_long').optional(),
  status: z.enum(appointmentStatuses).optional(),
  professionalId: idSchema.optional(),
  from: instant().optional(),
  to: instant().optional(),
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(maxPageSize).default(20),
  sort: z.enum(['startsAt', '-startsAt']).optional(),
});
export const appointmentsPageSchema = pageSchema(appointmentSchema);

/** GET /api/patients/:patientId/appointments: next ones first (soonest first), then past ones (newest first). */
export const patientAppointmentsQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(maxPageSize).default(20),
});

/**
 * GET /api/appointments/free-slots: the next free times of a professional (or of any, when none
 * is named) for a duration, within their hours (or the clinic's opening hours when they have
 * none), outside recesses, exceptions and other appointments; the chair's too when named.
 */
export const freeSlotsQuerySchema = z.object({
  professionalId: idSchema.optional(),
  chairId: idSchema.optional(),
  durationMinutes: wholeNumber(5, maxAppointmentMinutes),
  from: instant().optional(),
  days: wholeNumber(1, 60).default(14),
  limit: wholeNumber(1, 50).default(10),
});
export type FreeSlotsQuery = z.input<typeof freeSlotsQuerySchema>;
export const freeSlotSchema = z.object({
  startsAt: instantText(),
  endsAt: instantText(),
  professionalId: z.uuid(),
  professionalName: z.string(),
});
export type FreeSlot = z.infer<typeof freeSlotSchema>;
export const freeSlotsResponseSchema = z.object({ data: z.array(freeSlotSchema) });

/** Why a booking is outside the schedule (409 appointment_outside_schedule, details.reasons). */
export const outsideScheduleReasons = [
  'closed_day',
  'outside_hours',
  'recess',
  'holiday',
  'vacation',
  'block',
] as const;
export type OutsideScheduleReason = (typeof outsideScheduleReasons)[number];

// Public reminder links (no sign-in): /api/public/appointment-links/:token

export const appointmentLinkParamsSchema = z.object({
  token: safeText().trim().min(20, 'invalid_value').max(200, 'invalid_value'),
});

/** Why a link can no longer change its appointment. */
export const staleLinkReasons = ['rescheduled', 'cancelled', 'completed', 'past', 'answered'] as const;

/** What the public page shows: enough to recognise the appointment, nothing of the medical record. */
export const appointmentLinkSchema = z.object({
  purpose: z.enum(['confirm', 'cancel']),
  clinicName: z.string(),
  /** The clinic's colour and logo on the page (issue 37). */
  clinicBrand: clinicBrandSchema,
  clinicAddress: z.string().nullable(),
  clinicPhone: z.string().nullable(),
  patientFirstName: z.string(),
  professionalName: z.string(),
  startsAt: instantText(),
  endsAt: instantText(),
  timeZone: z.string(),
  language: z.enum(languages),
  status: z.enum(appointmentStatuses),
  confirmedAt: instantText().nullable(),
  /** Null: the link still acts; otherwise why it does not. */
  stale: z.enum(staleLinkReasons).nullable(),
});
export type AppointmentLink = z.infer<typeof appointmentLinkSchema>;
export const appointmentLinkAnswerSchema = z.object({
  data: appointmentLinkSchema,
  code: z.enum(['appointment_confirmed', 'appointment_cancelled']).optional(),
});
