import { z } from 'zod';
import { dateText, instantText, named } from '../api-schema.ts';
import { languages, waitingListOfferStatuses, waitingListPriorities, waitingListStatuses, weekdays } from '../enums.ts';
import { instant, optionalCalendarDate, optionalId, optionalText, safeText } from '../validation.ts';
import { clinicBrandSchema } from './clinic-brand.ts';
import { idSchema, maxPageSize, pageSchema } from './common.ts';
import { patientContactFields } from './patients.ts';
import { recordContracts, recordStampsSchema } from './records.ts';
import { wallTime } from './schedules.ts';

/**
 * The waiting list (issue 38; docs/decisions.md "The waiting list (issue 38)"): a patient waits
 * for a treatment (its duration), with one professional or any, on preferred weekdays and times,
 * until an optional day. When a slot frees, matching entries are offered it by e-mail; the first
 * to accept books it. /api/waiting-list, /api/public/waiting-list-offers/:token.
 */

/** At most this many preferred time ranges per entry (the database checks the JSON is an array). */
export const maxWaitingTimeRanges = 4;

const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/** A preferred time of day, wall-clock in the clinic's zone: the slot must lie within [from, to]. */
export const waitingTimeRangeSchema = z
  .object({ from: wallTime(), to: wallTime() })
  .refine((range) => minutesOf(range.to) > minutesOf(range.from), { message: 'end_before_start', path: ['to'] });
export type WaitingTimeRange = z.infer<typeof waitingTimeRangeSchema>;

const waitingListFields = {
  patientId: z.uuid({ error: (issue) => (issue.input == null || issue.input === '' ? 'required' : 'invalid_value') }),
  treatmentId: z.uuid({ error: (issue) => (issue.input == null || issue.input === '' ? 'required' : 'invalid_value') }),
  /** Null: any professional. */
  professionalId: optionalId(),
  /** Empty: any day. */
  weekdays: z
    .array(z.enum(weekdays, 'invalid_value'))
    .max(7, 'too_big')
    .default([])
    .transform((days) => weekdays.filter((day) => days.includes(day))),
  /** Empty: any time the agenda is open. */
  timeRanges: z.array(waitingTimeRangeSchema).max(maxWaitingTimeRanges, 'too_big').default([]),
  /** The last day the patient still wants a slot (null: until booked or removed). */
  until: optionalCalendarDate(),
  priority: z.enum(waitingListPriorities, 'invalid_value').default('normal'),
  notes: optionalText(1000),
};

export const waitingListEntrySchema = named(
  'WaitingListEntry',
  z.object({
    id: z.uuid(),
    ...patientContactFields,
    treatmentId: z.uuid(),
    treatmentName: z.string(),
    durationMinutes: z.number().int(),
    professionalId: z.uuid().nullable(),
    professionalName: z.string().nullable(),
    weekdays: z.array(z.enum(weekdays)),
    timeRanges: z.array(z.object({ from: z.string(), to: z.string() })),
    until: dateText().nullable(),
    priority: z.enum(waitingListPriorities),
    notes: z.string().nullable(),
    status: z.enum(waitingListStatuses),
    appointmentId: z.uuid().nullable(),
    /** The latest offer's state (null: never offered). */
    lastOfferStatus: z.enum(waitingListOfferStatuses).nullable(),
    ...recordStampsSchema,
  }),
);
export type WaitingListEntry = z.infer<typeof waitingListEntrySchema>;
export type WaitingListEntryInput = z.input<typeof waitingListContracts.create>;

export const waitingListContracts = recordContracts('waiting_list_entry', waitingListFields, waitingListEntrySchema, {
  refine(value, ctx) {
    if (new Set(value.weekdays).size !== value.weekdays.length) {
      ctx.addIssue({ code: 'custom', path: ['weekdays'], message: 'invalid_value' });
    }
  },
});

export const waitingListSorts = ['priority', 'createdAt'] as const;

/** GET /waiting-list: by priority then arrival (default) or by arrival, filtered. */
export const waitingListQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(maxPageSize).default(20),
  sort: z.enum(waitingListSorts).default('priority'),
  status: z.enum(waitingListStatuses).default('waiting'),
  professionalId: idSchema.optional(),
  treatmentId: idSchema.optional(),
  patientId: idSchema.optional(),
});
export type WaitingListQuery = z.output<typeof waitingListQuerySchema>;

export const waitingListOfferSchema = named(
  'WaitingListOffer',
  z.object({
    id: z.uuid(),
    entryId: z.uuid(),
    professionalId: z.uuid(),
    professionalName: z.string(),
    startsAt: instantText(),
    endsAt: instantText(),
    status: z.enum(waitingListOfferStatuses),
    expiresAt: instantText(),
    sentAt: instantText().nullable(),
    answeredAt: instantText().nullable(),
    appointmentId: z.uuid().nullable(),
    /** Who offered it by hand (null: offered automatically when the slot freed). */
    createdByName: z.string().nullable(),
    createdAt: instantText(),
  }),
);
export type WaitingListOffer = z.infer<typeof waitingListOfferSchema>;
export const waitingListOffersResponseSchema = z.object({ data: z.array(waitingListOfferSchema) });

/** POST /waiting-list/:id/offers: staff offer one free start of the entry's treatment. */
export const waitingListOfferRequestSchema = z.object({
  professionalId: z.uuid({
    error: (issue) => (issue.input == null || issue.input === '' ? 'required' : 'invalid_value'),
  }),
  startsAt: instant(),
});
export const waitingListOfferAnswerSchema = z.object({
  data: waitingListOfferSchema,
  code: z.literal('waiting_list_offer_sent'),
});

export const waitingListPageSchema = pageSchema(waitingListEntrySchema);

// ———————————————————————————————————————— the patient's link (public)

export const waitingListOfferLinkParamsSchema = z.object({
  token: safeText().trim().min(20, 'invalid_value').max(200, 'invalid_value'),
});

/** What the link page shows of the offer: enough to decide, nothing of the record. */
export const waitingListOfferLinkSchema = z.object({
  clinicName: z.string(),
  /** The clinic's colour and logo on the page (issue 37). */
  clinicBrand: clinicBrandSchema,
  clinicAddress: z.string().nullable(),
  clinicPhone: z.string().nullable(),
  patientFirstName: z.string(),
  treatmentName: z.string(),
  professionalName: z.string(),
  startsAt: instantText(),
  endsAt: instantText(),
  timeZone: z.string(),
  language: z.enum(languages),
  expiresAt: instantText(),
  /** open: may be accepted; accepted: booked (by this link); expired; gone: taken by another. */
  state: z.enum(['open', 'accepted', 'expired', 'gone']),
});
export type WaitingListOfferLink = z.infer<typeof waitingListOfferLinkSchema>;
export const waitingListOfferLinkAnswerSchema = z.object({
  data: waitingListOfferLinkSchema,
  code: z.literal('waiting_list_offer_accepted').optional(),
});
