import { z } from 'zod';
import { instantText } from '../api-schema.ts';
import { toothStatuses, toothZones } from '../enums.ts';
import { isFdiTooth, scopeAllows } from '../odontogram.ts';
import { instant, optionalText, requiredText } from '../validation.ts';
import { idSchema, pageSchema } from './common.ts';

/**
 * The odontogram (issue 6): /api/patients/:patientId/odontogram. Append-only dated entries; the
 * chart at an instant is computed from them (see ../odontogram.ts). A mistaken entry is voided
 * with a reason, never edited or deleted.
 */

export const maxMarksPerBatch = 200;

/** GET …/odontogram?at= (default: now) and GET …/odontogram.pdf?at= */
export const odontogramQuerySchema = z.object({ at: instant().optional() });
export type OdontogramQuery = z.output<typeof odontogramQuerySchema>;

/** …/odontogram/entries/:entryId */
export const odontogramEntryParamsSchema = z.object({ patientId: idSchema, entryId: idSchema });

/** One mark of a batch: a status on a tooth's zone, or on the complete piece (`zone` null). */
export const odontogramMarkSchema = z
  .object({
    tooth: z
      .number()
      .int('invalid_value')
      .refine((tooth) => isFdiTooth(tooth), 'invalid_value'),
    zone: z
      .enum(toothZones)
      .nullish()
      .transform((zone) => zone ?? null),
    status: z.enum(toothStatuses),
    notes: optionalText(500),
  })
  // The wrong scope for the status (a crown on one zone, a caries on the whole piece).
  .refine((mark) => scopeAllows(mark.status, mark.zone), { path: ['zone'], message: 'invalid_value' });
export type OdontogramMarkInput = z.input<typeof odontogramMarkSchema>;
export type OdontogramMark = z.output<typeof odontogramMarkSchema>;

/** POST …/odontogram/entries: one batch, one transaction, one audit event. */
export const createOdontogramEntriesRequestSchema = z.object({
  marks: z
    .array(odontogramMarkSchema)
    .min(1, 'required')
    .max(maxMarksPerBatch, 'too_big')
    // One mark per tooth and zone in a batch (two would race for "latest").
    .refine(
      (marks) => new Set(marks.map((mark) => `${mark.tooth}:${mark.zone ?? ''}`)).size === marks.length,
      'invalid_value',
    ),
  /** When it was charted (default now); never in the future. */
  chartedAt: instant().optional(),
  /** Default: the signed-in user. */
  professionalId: idSchema.optional(),
  /** An attendance of this patient. */
  attendanceId: idSchema.nullish().transform((value) => value ?? null),
});
export type CreateOdontogramEntriesRequest = z.input<typeof createOdontogramEntriesRequestSchema>;
export type OdontogramEntriesInput = z.output<typeof createOdontogramEntriesRequestSchema>;

/** DELETE …/odontogram/entries/:entryId: voids the entry (kept, hidden from the chart). */
export const voidOdontogramEntryRequestSchema = z.object({ reason: requiredText(500) });
export type VoidOdontogramEntryRequest = z.input<typeof voidOdontogramEntryRequestSchema>;

export const odontogramEntrySchema = z.object({
  id: z.uuid(),
  patientId: z.uuid(),
  tooth: z.number().int(),
  zone: z.enum(toothZones).nullable(),
  status: z.enum(toothStatuses),
  notes: z.string().nullable(),
  chartedAt: instantText(),
  professionalId: z.uuid(),
  professionalName: z.string(),
  attendanceId: z.uuid().nullable(),
  attendanceTitle: z.string().nullable(),
  createdAt: instantText(),
  createdByName: z.string().nullable(),
});
export type OdontogramEntry = z.infer<typeof odontogramEntrySchema>;

const chartMarkSchema = z.object({ status: z.enum(toothStatuses), entryId: z.uuid(), chartedAt: instantText() });

export const toothStateSchema = z.object({
  tooth: z.number().int(),
  piece: chartMarkSchema.nullable(),
  zones: z.object({
    mesial: chartMarkSchema.optional(),
    distal: chartMarkSchema.optional(),
    buccal: chartMarkSchema.optional(),
    lingual: chartMarkSchema.optional(),
    occlusal: chartMarkSchema.optional(),
  }),
});

export const odontogramChartSchema = z.object({
  /** The instant shown. */
  at: instantText(),
  /** Teeth with something to show, by FDI number. */
  teeth: z.array(toothStateSchema),
  /** Every instant with entries (non-voided), oldest first: the timeline's stops. */
  dates: z.array(z.string()),
  /** Whether the patient's teeth include primary ones (the web opens the mixed view then). */
  hasPrimary: z.boolean(),
});
export type OdontogramChart = z.infer<typeof odontogramChartSchema>;

export const odontogramChartResponseSchema = z.object({ data: odontogramChartSchema });
/** GET …/odontogram/entries: newest first (charted, then written). */
export const odontogramEntriesPageSchema = pageSchema(odontogramEntrySchema);
export const odontogramEntriesCreatedSchema = z.object({
  data: z.array(odontogramEntrySchema),
  code: z.literal('odontogram_entries_saved'),
});
export const odontogramEntryVoidedSchema = z.object({ code: z.literal('odontogram_entry_voided') });
