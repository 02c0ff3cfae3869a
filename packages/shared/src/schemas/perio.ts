import { z } from 'zod';
import { dateText, instantText, named } from '../api-schema.ts';
import { isFdiTooth } from '../odontogram.ts';
import {
  emptySite,
  isMultiRooted,
  type PerioSite,
  type PerioSiteValues,
  type PerioTooth,
  perioBounds,
  perioDentitions,
  perioExamStatuses,
  perioSites,
  teethOfDentition,
} from '../perio.ts';
import { calendarDate, optionalText } from '../validation.ts';
import { professionalIdField } from './clinical.ts';
import { pageSchema } from './common.ts';
import { recordStampsSchema, versionField } from './records.ts';

/**
 * The periodontal chart (issue 41): /api/patients/:patientId/perio-exams. An exam is a draft
 * while it is charted (each save a new version, audited with what changed), then closed: a
 * closed exam never changes again (409 perio_exam_already_closed) and is never deleted; a draft
 * may be discarded (soft delete). The teeth are one JSON value of the exam (docs/decisions.md),
 * every value checked here and by the table's checks with the same bounds.
 */

const whole = (min: number, max: number) =>
  z.number('invalid_number').int('invalid_number').min(min, 'too_small').max(max, 'too_big');

const siteInputSchema = z.object({
  depth: whole(perioBounds.depth.min, perioBounds.depth.max)
    .nullish()
    .transform((value) => value ?? null),
  margin: whole(perioBounds.margin.min, perioBounds.margin.max)
    .nullish()
    .transform((value) => value ?? null),
  bleeding: z.boolean('invalid_value').default(false),
  plaque: z.boolean('invalid_value').default(false),
  suppuration: z.boolean('invalid_value').default(false),
});

const knownSites = new Set<string>(perioSites);

/** The six sites by name; one left out is empty; an unknown name is `unknown_site`. */
const sitesInputSchema = z
  .record(z.string(), siteInputSchema)
  .superRefine((sites, ctx) => {
    for (const key of Object.keys(sites))
      if (!knownSites.has(key)) ctx.addIssue({ code: 'custom', path: [key], message: 'unknown_site' });
  })
  .transform(
    (sites) =>
      Object.fromEntries(perioSites.map((site) => [site, sites[site] ?? emptySite()])) as Record<
        PerioSite,
        PerioSiteValues
      >,
  );

export const perioToothInputSchema = z
  .object({
    tooth: z
      .number('invalid_tooth')
      .int('invalid_tooth')
      .refine((tooth) => isFdiTooth(tooth), 'invalid_tooth'),
    missing: z.boolean('invalid_value').default(false),
    implant: z.boolean('invalid_value').default(false),
    mobility: whole(perioBounds.mobility.min, perioBounds.mobility.max)
      .nullish()
      .transform((value) => value ?? null),
    furcation: whole(perioBounds.furcation.min, perioBounds.furcation.max)
      .nullish()
      .transform((value) => value ?? null),
    sites: sitesInputSchema.default(
      () => Object.fromEntries(perioSites.map((site) => [site, emptySite()])) as Record<PerioSite, PerioSiteValues>,
    ),
  })
  .superRefine((tooth, ctx) => {
    if (tooth.furcation !== null && isFdiTooth(tooth.tooth) && !isMultiRooted(tooth.tooth))
      ctx.addIssue({ code: 'custom', path: ['furcation'], message: 'furcation_single_rooted' });
  });
export type PerioToothInput = z.input<typeof perioToothInputSchema>;

const perioExamFields = {
  date: calendarDate(),
  professionalId: professionalIdField,
  dentition: z.enum(perioDentitions, 'invalid_value'),
  notes: optionalText(4000),
  teeth: z.array(perioToothInputSchema).max(52, 'too_big').default([]),
};

/** A tooth of another dentition is `invalid_tooth`; a tooth twice is `invalid_value`. */
function checkTeeth(value: { dentition: (typeof perioDentitions)[number]; teeth: PerioTooth[] }, ctx: z.RefinementCtx) {
  const allowed = new Set(teethOfDentition(value.dentition));
  const seen = new Set<number>();
  value.teeth.forEach((tooth, index) => {
    if (!allowed.has(tooth.tooth))
      ctx.addIssue({ code: 'custom', path: ['teeth', index, 'tooth'], message: 'invalid_tooth' });
    else if (seen.has(tooth.tooth))
      ctx.addIssue({ code: 'custom', path: ['teeth', index, 'tooth'], message: 'invalid_value' });
    seen.add(tooth.tooth);
  });
}

export const createPerioExamRequestSchema = z.object(perioExamFields).superRefine(checkTeeth);
export const updatePerioExamRequestSchema = z
  .object({ ...perioExamFields, version: versionField })
  .superRefine(checkTeeth);
export type CreatePerioExamRequest = z.input<typeof createPerioExamRequestSchema>;
export type UpdatePerioExamRequest = z.input<typeof updatePerioExamRequestSchema>;
export type PerioExamInput = z.output<typeof createPerioExamRequestSchema>;

/** POST …/:id/close: the version the hygienist saw. */
export const closePerioExamRequestSchema = z.object({ version: versionField });

/** GET …/perio-exams/teeth?dentition= */
export const perioTeethQuerySchema = z.object({ dentition: z.enum(perioDentitions, 'invalid_value').optional() });

// ---------------------------------------------------------------------------------------------
// Answers

const indicesSchema = z.object({
  sites: z.number().int(),
  probedSites: z.number().int(),
  plaquePercent: z.number(),
  bleedingPercent: z.number(),
  suppurationSites: z.number().int(),
  depth4Sites: z.number().int(),
  depth6Sites: z.number().int(),
  meanAttachment: z.number().nullable(),
  meanDepth: z.number().nullable(),
});

const siteSchema = z.object({
  depth: z.number().int().nullable(),
  margin: z.number().int().nullable(),
  /** CAL = depth − margin (recession negative), computed by the server; null until both are charted. */
  attachment: z.number().int().nullable(),
  bleeding: z.boolean(),
  plaque: z.boolean(),
  suppuration: z.boolean(),
});

export const perioToothSchema = z.object({
  tooth: z.number().int(),
  missing: z.boolean(),
  implant: z.boolean(),
  mobility: z.number().int().nullable(),
  furcation: z.number().int().nullable(),
  sites: z.object(
    Object.fromEntries(perioSites.map((site) => [site, siteSchema])) as Record<PerioSite, typeof siteSchema>,
  ),
});

const examSummaryFields = {
  id: z.uuid(),
  patientId: z.uuid(),
  date: dateText(),
  professionalId: z.uuid(),
  professionalName: z.string(),
  dentition: z.enum(perioDentitions),
  status: z.enum(perioExamStatuses),
  closedAt: instantText().nullable(),
  notes: z.string().nullable(),
  indices: indicesSchema,
  ...recordStampsSchema,
};

/** An exam in the patient's history (no teeth: the list stays small with 20 exams). */
export const perioExamSummarySchema = named('PerioExamSummary', z.object(examSummaryFields));
export type PerioExamSummary = z.infer<typeof perioExamSummarySchema>;

export const perioExamSchema = named('PerioExam', z.object({ ...examSummaryFields, teeth: z.array(perioToothSchema) }));
export type PerioExam = z.infer<typeof perioExamSchema>;

export const perioExamOneSchema = z.object({
  data: perioExamSchema,
  code: z.enum(['perio_exam_created', 'perio_exam_updated', 'perio_exam_closed']).optional(),
});
/** GET …/perio-exams: newest first (date, then creation). */
export const perioExamsPageSchema = pageSchema(perioExamSummarySchema);
export const perioExamDeletedSchema = z.object({ code: z.literal('perio_exam_deleted') });

/** The teeth a new exam charts: those of the dentition the odontogram does not show missing or extracted. */
export const perioTeethSchema = z.object({
  data: z.object({
    dentition: z.enum(perioDentitions),
    /** Every tooth of the dentition, in FDI order. */
    teeth: z.array(z.number().int()),
    /** Those present (not missing or extracted in the odontogram now). */
    present: z.array(z.number().int()),
    /** Those the odontogram shows as an implant. */
    implants: z.array(z.number().int()),
    /** The dentition the patient's odontogram suggests (primary teeth charted: mixed). */
    suggested: z.enum(perioDentitions),
  }),
});
export type PerioTeeth = z.infer<typeof perioTeethSchema>['data'];
