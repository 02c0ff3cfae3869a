import { z } from 'zod';
import { dateText, instantText, named } from '../api-schema.ts';
import { recallChannels, recallCloseReasons, recallOutcomes, recallStatuses, recallViews } from '../enums.ts';
import { optionalText } from '../validation.ts';
import { idSchema, pageSchema } from './common.ts';

/**
 * Recalls (issue 38): a finished attendance line whose treatment has a rule ("recall after 6
 * months") leaves a recall due that long after; the front desk calls or writes (attempts), books
 * the patient (an appointment for the treatment books it by itself) or closes it with a reason.
 * GET /api/recalls (patients.read), writes under /api/recalls/:id (appointments.write).
 */

/** What the staff may close a recall for (`superseded` is only written by a newer recall). */
export const recallStaffCloseReasons = recallCloseReasons.filter(
  (reason): reason is Exclude<(typeof recallCloseReasons)[number], 'superseded'> => reason !== 'superseded',
);

export const recallSorts = ['dueOn', '-dueOn'] as const;

export const recallsQuerySchema = z.object({
  view: z.enum(recallViews).default('open'),
  professionalId: idSchema.optional(),
  treatmentId: idSchema.optional(),
  patientId: idSchema.optional(),
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(25),
  sort: z.enum(recallSorts).default('dueOn'),
});
export type RecallsQuery = z.input<typeof recallsQuerySchema>;

export const recallAttemptSchema = z.object({
  id: idSchema,
  channel: z.enum(recallChannels),
  outcome: z.enum(recallOutcomes),
  note: z.string().nullable(),
  /** Written by the automatic e-mail, not by a person. */
  automatic: z.boolean(),
  createdAt: instantText(),
  createdByName: z.string().nullable(),
});
export type RecallAttempt = z.infer<typeof recallAttemptSchema>;

export const recallSchema = named(
  'Recall',
  z.object({
    id: idSchema,
    patientId: idSchema,
    patientName: z.string(),
    patientPhone: z.string().nullable(),
    patientEmail: z.string().nullable(),
    treatmentId: idSchema,
    treatmentName: z.string(),
    professionalId: idSchema,
    professionalName: z.string(),
    attendanceId: idSchema,
    dueOn: dateText(),
    reason: z.string().nullable(),
    status: z.enum(recallStatuses),
    /** The list's word for it: its state, or `overdue` when open and past its day (the clinic's today). */
    view: z.enum(recallViews),
    appointmentId: idSchema.nullable(),
    appointmentStartsAt: instantText().nullable(),
    closedReason: z.enum(recallCloseReasons).nullable(),
    closeNote: z.string().nullable(),
    attemptCount: z.number().int(),
    lastAttemptAt: instantText().nullable(),
    createdAt: instantText(),
    version: z.number().int(),
  }),
);
export type Recall = z.infer<typeof recallSchema>;

export const recallPageSchema = pageSchema(recallSchema);
export const recallDetailSchema = recallSchema.extend({ attempts: z.array(recallAttemptSchema) });
export type RecallDetail = z.infer<typeof recallDetailSchema>;

export const recallAnswerSchema = z.object({
  data: recallDetailSchema,
  code: z.enum(['recall_attempt_logged', 'recall_booked', 'recall_closed']).optional(),
});

/** POST /api/recalls/:id/attempts: a call, message or e-mail and what came of it. */
export const recallAttemptRequestSchema = z.object({
  channel: z.enum(recallChannels),
  outcome: z.enum(recallOutcomes),
  note: optionalText(1000),
});
export type RecallAttemptRequest = z.input<typeof recallAttemptRequestSchema>;

/** POST /api/recalls/:id/book: the patient's appointment that answers it. */
export const recallBookRequestSchema = z.object({ appointmentId: idSchema });

/** POST /api/recalls/:id/close: why it needs nothing more. */
export const recallCloseRequestSchema = z.object({
  reason: z.enum(recallStaffCloseReasons),
  note: optionalText(1000),
});
export type RecallCloseRequest = z.input<typeof recallCloseRequestSchema>;
