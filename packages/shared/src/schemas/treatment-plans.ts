import { z } from 'zod';
import { dateText, decimalText, instantText, moneyText, named } from '../api-schema.ts';
import { toothStatuses } from '../enums.ts';
import { isFdiTooth } from '../odontogram.ts';
import {
  isToothSurface,
  itemAmount,
  planPhaseKinds,
  planSessionStatuses,
  planZones,
  sharesTotal,
  treatmentPlanStatuses,
} from '../treatment-plans.ts';
import {
  instant,
  maxMoneyAmount,
  moneyAmount,
  optionalId,
  optionalText,
  percentage,
  requiredText,
  tooBigIssue,
  wholeNumber,
} from '../validation.ts';
import { budgetSignatureSchema } from './budgets.ts';
import { professionalIdField } from './clinical.ts';
import { maxDocumentLines } from './commercial-documents.ts';
import { idSchema, pageSchema } from './common.ts';
import { patientRecordParamsSchema, recordStampsSchema, versionField } from './records.ts';

/**
 * Treatment plans (issue 41): /api/patients/:patientId/treatment-plans. A plan is a patient's
 * case with its alternatives (plan A / plan B, each with its total), in ordered phases of items
 * per tooth or zone (a treatment of the price list, its price, quantity, discount) carried out in
 * sessions that split the item's amount (impression 40 %, seating 60 %). Accepting one
 * alternative makes and accepts the budget (one budget line per session) and closes the others;
 * a session is then booked (an appointment), carried out (an attendance line with its budget line)
 * and invoiced through the budget or the attendance, once. docs/decisions.md "Treatment plans".
 */

export const maxPlanAlternatives = 4;
export const maxPlanItems = 150;
export const maxItemSessions = 6;
/** Ten digits before the point: × 99 stays within what the database keeps. */
export const maxPlanUnitPrice = 9_999_999_999.99;

const fdiToothNumber = z
  .number('invalid_value')
  .int('invalid_value')
  .refine((tooth) => isFdiTooth(tooth), 'invalid_value')
  .nullish()
  .transform((tooth) => tooth ?? null);

export const planSessionInputSchema = z.object({
  /** 'Toma de impresión', 'Cementado'; the item's description when empty. */
  description: optionalText(200),
  sharePercent: percentage().refine((share) => Number(share) > 0, 'too_small'),
});

export const planItemInputSchema = z
  .object({
    tooth: fdiToothNumber,
    zone: z
      .enum(planZones)
      .nullish()
      .transform((zone) => zone ?? null),
    treatmentId: idSchema,
    /** The treatment's name when empty. */
    description: optionalText(200),
    unitPrice: moneyAmount(maxPlanUnitPrice),
    quantity: wholeNumber(1, 99).default(1),
    discountRate: percentage().default('0'),
    notes: optionalText(1000),
    sessions: z
      .array(planSessionInputSchema)
      .min(1, 'required')
      .max(maxItemSessions, 'too_big')
      .default([{ description: null, sharePercent: '100' }]),
  })
  .superRefine((item, ctx) => {
    // A surface needs its tooth; a zone of the mouth names no tooth.
    if (item.zone && isToothSurface(item.zone) !== (item.tooth !== null))
      ctx.addIssue({ code: 'custom', path: ['zone'], message: 'invalid_value' });
    if (!sharesTotal(item.sessions.map((session) => session.sharePercent)).eq(100))
      ctx.addIssue({ code: 'custom', path: ['sessions'], message: 'invalid_value' });
  });
export type PlanItemInput = z.input<typeof planItemInputSchema>;

export const planPhaseInputSchema = z.object({
  kind: z.enum(planPhaseKinds, { error: (issue) => (issue.input == null ? 'required' : 'invalid_value') }),
  name: requiredText(120),
  items: z.array(planItemInputSchema).max(maxPlanItems, 'too_big').default([]),
});

export const planAlternativeInputSchema = z
  .object({
    label: requiredText(80),
    phases: z.array(planPhaseInputSchema).min(1, 'required').max(12, 'too_big'),
  })
  .superRefine((alternative, ctx) => {
    const items = alternative.phases.flatMap((phase) => phase.items);
    if (items.length > maxPlanItems) tooBigIssue(ctx, maxPlanItems, ['phases']);
    // One budget line per session: a budget holds maxDocumentLines.
    const sessions = items.reduce((sum, item) => sum + item.sessions.length, 0);
    if (sessions > maxDocumentLines) tooBigIssue(ctx, maxDocumentLines, ['phases']);
    const total = items.reduce(
      (sum, item) => sum + Number(itemAmount(item.unitPrice, item.quantity, item.discountRate)),
      0,
    );
    if (total > maxMoneyAmount) tooBigIssue(ctx, maxMoneyAmount, ['phases']);
  });

const planFields = {
  title: requiredText(200),
  professionalId: professionalIdField,
  notes: optionalText(4000),
  alternatives: z.array(planAlternativeInputSchema).min(1, 'required').max(maxPlanAlternatives, 'too_big'),
};

/** POST …/treatment-plans: a draft. */
export const createTreatmentPlanSchema = z.object(planFields);
export type CreateTreatmentPlanRequest = z.input<typeof createTreatmentPlanSchema>;
export type TreatmentPlanInput = z.output<typeof createTreatmentPlanSchema>;
/** PUT …/treatment-plans/:id: the whole content again (draft or presented; 409 once answered). */
export const updateTreatmentPlanSchema = z.object({ ...planFields, version: versionField });
export type UpdateTreatmentPlanRequest = z.input<typeof updateTreatmentPlanSchema>;

/** POST …/:id/present | reject | cancel, DELETE …/:id */
export const planStepSchema = z.object({ version: versionField });

/** POST …/:id/accept: one alternative becomes the budget, accepted (signed on the pad or marked). */
export const acceptTreatmentPlanSchema = z.object({
  version: versionField,
  alternativeId: idSchema,
  signature: budgetSignatureSchema.nullish().transform((value) => value ?? null),
});
export type AcceptTreatmentPlanRequest = z.input<typeof acceptTreatmentPlanSchema>;

export const planSessionParamsSchema = patientRecordParamsSchema.extend({ sessionId: idSchema });

/** POST …/:id/sessions/:sessionId/appointment: book it (an appointment of the agenda for the item's treatment). */
export const bookPlanSessionSchema = z.object({
  professionalId: professionalIdField,
  chairId: optionalId(),
  startsAt: instant(),
  endsAt: instant(),
  notes: optionalText(2000),
  allowOutsideSchedule: z.boolean().default(false),
});
export type BookPlanSessionRequest = z.input<typeof bookPlanSessionSchema>;

const progressCounts = z.object({
  done: z.number().int(),
  scheduled: z.number().int(),
  pending: z.number().int(),
  total: z.number().int(),
});
const progressMoney = z.object({ done: moneyText(), scheduled: moneyText(), pending: moneyText(), total: moneyText() });
export const planProgressSchema = z.object({ items: progressCounts, sessions: progressCounts, money: progressMoney });
export type PlanProgress = z.infer<typeof planProgressSchema>;

export const planSessionSchema = z.object({
  id: idSchema,
  position: z.number().int(),
  description: z.string(),
  sharePercent: decimalText(),
  amount: moneyText(),
  status: z.enum(planSessionStatuses),
  budgetLineId: idSchema.nullable(),
  /** The appointment booked for it (the last of its moves), while it is scheduled. */
  appointmentId: idSchema.nullable(),
  appointmentStartsAt: instantText().nullable(),
  /** The attendance that carried it out. */
  attendanceId: idSchema.nullable(),
  doneAt: instantText().nullable(),
  /** Billed by an issued invoice (through the budget or the attendance). */
  invoiced: z.boolean(),
});
export type PlanSession = z.infer<typeof planSessionSchema>;

export const planItemSchema = z.object({
  id: idSchema,
  position: z.number().int(),
  tooth: z.number().int().nullable(),
  zone: z.enum(planZones).nullable(),
  treatmentId: idSchema,
  treatmentCode: z.string().nullable(),
  treatmentName: z.string(),
  description: z.string(),
  unitPrice: moneyText(),
  quantity: z.number().int(),
  discountRate: decimalText(),
  vatRate: decimalText(),
  amount: moneyText(),
  notes: z.string().nullable(),
  /** done: every session done; scheduled: some session booked; else pending. */
  status: z.enum(planSessionStatuses),
  sessions: z.array(planSessionSchema),
});
export type PlanItem = z.infer<typeof planItemSchema>;

export const planPhaseSchema = z.object({
  id: idSchema,
  position: z.number().int(),
  kind: z.enum(planPhaseKinds),
  name: z.string(),
  items: z.array(planItemSchema),
});

export const planAlternativeSchema = z.object({
  id: idSchema,
  position: z.number().int(),
  label: z.string(),
  /** accepted: the plan's budget; closed: another was accepted. */
  state: z.enum(['open', 'accepted', 'closed']),
  total: moneyText(),
  phases: z.array(planPhaseSchema),
});
export type PlanAlternative = z.infer<typeof planAlternativeSchema>;

const planSummaryFields = {
  id: idSchema,
  patientId: idSchema,
  title: z.string(),
  professionalId: idSchema,
  professionalName: z.string(),
  status: z.enum(treatmentPlanStatuses),
  notes: z.string().nullable(),
  presentedAt: instantText().nullable(),
  decidedAt: instantText().nullable(),
  acceptedAlternativeId: idSchema.nullable(),
  budgetId: idSchema.nullable(),
  budgetNumber: z.string().nullable(),
  /** Of the accepted alternative, else of the first. */
  progress: planProgressSchema,
  ...recordStampsSchema,
};

export const treatmentPlanSummarySchema = z.object({
  ...planSummaryFields,
  alternatives: z.array(z.object({ id: idSchema, label: z.string(), total: moneyText() })),
});
export type TreatmentPlanSummary = z.infer<typeof treatmentPlanSummarySchema>;

export const treatmentPlanSchema = named(
  'TreatmentPlan',
  z.object({ ...planSummaryFields, alternatives: z.array(planAlternativeSchema) }),
);
export type TreatmentPlan = z.infer<typeof treatmentPlanSchema>;

export const treatmentPlanPageSchema = pageSchema(treatmentPlanSummarySchema);
export const treatmentPlanAnswerSchema = z.object({
  data: treatmentPlanSchema,
  code: z
    .enum([
      'treatment_plan_created',
      'treatment_plan_updated',
      'treatment_plan_presented',
      'treatment_plan_accepted',
      'treatment_plan_rejected',
      'treatment_plan_cancelled',
      'treatment_plan_session_booked',
    ])
    .optional(),
});
export const treatmentPlanDeletedSchema = z.object({ code: z.literal('treatment_plan_deleted') });

/** GET …/treatment-plans/suggestions: what the odontogram's current findings ask for. */
export const planSuggestionSchema = z.object({
  tooth: z.number().int(),
  zone: z.enum(planZones).nullable(),
  finding: z.enum(toothStatuses),
  phaseKind: z.enum(planPhaseKinds),
  treatmentId: idSchema.nullable(),
  treatmentCode: z.string().nullable(),
  treatmentName: z.string().nullable(),
  unitPrice: moneyText().nullable(),
});
export type PlanSuggestion = z.infer<typeof planSuggestionSchema>;
export const planSuggestionsSchema = z.object({ data: z.array(planSuggestionSchema) });

/** GET /api/treatment-plans/follow-up: accepted plans with work pending, the front desk's call list. */
export const planFollowUpRowSchema = z.object({
  planId: idSchema,
  patientId: idSchema,
  patientName: z.string(),
  phone: z.string().nullable(),
  title: z.string(),
  professionalName: z.string(),
  decidedAt: instantText().nullable(),
  pendingSessions: z.number().int(),
  scheduledSessions: z.number().int(),
  pendingAmount: moneyText(),
  total: moneyText(),
  nextItem: z.string().nullable(),
  nextTooth: z.number().int().nullable(),
  lastVisit: dateText().nullable(),
});
export type PlanFollowUpRow = z.infer<typeof planFollowUpRowSchema>;
export const planFollowUpPageSchema = pageSchema(planFollowUpRowSchema);
