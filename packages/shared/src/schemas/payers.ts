import { z } from 'zod';
import { dateText, decimalText, instantText, moneyText, named } from '../api-schema.ts';
import { currencies, paymentMethods } from '../enums.ts';
import { roundingRules } from '../payer-split.ts';
import {
  blankAsNull,
  calendarDate,
  moneyAmount,
  optionalText,
  requiredText,
  tooBigIssue,
  wholeNumber,
} from '../validation.ts';
import { idSchema, pageSchema } from './common.ts';
import { recordContracts, recordStampsSchema, versionField } from './records.ts';

/**
 * Third-party payers (issue 40): obras sociales, prepagas, mutuas, insurers; their plans with
 * coverage rules; a patient's affiliations; invoicing an attendance split between the patient and
 * the payer (packages/shared/src/payer-split.ts); the monthly presentation and its rejections.
 */

export const payerKinds = ['obra_social', 'prepaga', 'mutua', 'aseguradora'] as const;
export type PayerKind = (typeof payerKinds)[number];
export const coverageModes = ['percentage', 'fixed', 'copay'] as const;
export const coverageLimitKinds = ['none', 'sessions', 'amount'] as const;
export const presentationStatuses = ['building', 'draft', 'sent', 'accepted', 'partially_accepted', 'paid'] as const;
export type PresentationStatus = (typeof presentationStatuses)[number];
export const rejectionDestinations = ['patient', 'loss'] as const;

// ── Payers ─────────────────────────────────────────────────────────────────────────────────────
const payerFields = {
  kind: z.enum(payerKinds, 'invalid_value'),
  name: requiredText(120),
  code: optionalText(30),
  taxId: optionalText(20),
  /** Days from its invoice to the due date (its customer's term). */
  paymentTermDays: wholeNumber(0, 365).default(30),
  notes: optionalText(2000),
  active: z.boolean().default(true),
};

export const payerSchema = named(
  'Payer',
  z.object({
    id: idSchema,
    kind: z.enum(payerKinds),
    name: z.string(),
    code: z.string().nullable(),
    taxId: z.string().nullable(),
    paymentTermDays: z.number().int(),
    notes: z.string().nullable(),
    active: z.boolean(),
    /** Its customer record: its current account and aging are the customers' ones. */
    customerId: idSchema,
    ...recordStampsSchema,
  }),
);
export type Payer = z.infer<typeof payerSchema>;
export const payerContracts = recordContracts('payer', payerFields, payerSchema);
export type PayerInput = z.input<typeof payerContracts.create>;

// ── Plans and their coverage rules ───────────────────────────────────────────────────────────
const coverageRuleFields = z
  .object({
    treatmentId: idSchema.nullish().transform((value) => value ?? null),
    treatmentGroup: optionalText(80),
    mode: z.enum(coverageModes, 'invalid_value'),
    value: moneyAmount(),
    limitKind: z.enum(coverageLimitKinds, 'invalid_value').default('none'),
    limitValue: blankAsNull(moneyAmount()),
    authorizationRequired: z.boolean().default(false),
  })
  .superRefine((rule, ctx) => {
    if (rule.treatmentId && rule.treatmentGroup) {
      ctx.addIssue({ code: 'custom', path: ['treatmentGroup'], message: 'invalid_value' });
    }
    // A percentage above 100: `too_big` with its bound ("El valor máximo es 100").
    if (rule.mode === 'percentage' && Number(rule.value) > 100) tooBigIssue(ctx, 100, ['value']);
    if (rule.limitKind === 'none' && rule.limitValue !== null) {
      ctx.addIssue({ code: 'custom', path: ['limitValue'], message: 'invalid_value' });
    }
    if (rule.limitKind !== 'none' && (rule.limitValue === null || Number(rule.limitValue) <= 0)) {
      ctx.addIssue({ code: 'custom', path: ['limitValue'], message: 'required' });
    }
  });

const planFields = {
  name: requiredText(120),
  code: optionalText(30),
  active: z.boolean().default(true),
  rules: z.array(coverageRuleFields).max(200, 'too_big').default([]),
};

export const coverageRuleSchema = z.object({
  id: idSchema,
  treatmentId: z.string().nullable(),
  treatmentName: z.string().nullable(),
  treatmentGroup: z.string().nullable(),
  mode: z.enum(coverageModes),
  value: moneyText(),
  limitKind: z.enum(coverageLimitKinds),
  limitValue: moneyText().nullable(),
  authorizationRequired: z.boolean(),
});
export type CoverageRule = z.infer<typeof coverageRuleSchema>;

export const payerPlanSchema = named(
  'PayerPlan',
  z.object({
    id: idSchema,
    payerId: idSchema,
    name: z.string(),
    code: z.string().nullable(),
    active: z.boolean(),
    rules: z.array(coverageRuleSchema),
    ...recordStampsSchema,
  }),
);
export type PayerPlan = z.infer<typeof payerPlanSchema>;
export const payerPlanContracts = recordContracts('payer_plan', planFields, payerPlanSchema);
export type PayerPlanInput = z.input<typeof payerPlanContracts.create>;
export const payerParamsSchema = z.object({ payerId: idSchema });
export const payerRecordParamsSchema = z.object({ payerId: idSchema, id: idSchema });

// ── A patient's affiliations ─────────────────────────────────────────────────────────────────
const affiliationFields = {
  payerId: idSchema,
  planId: idSchema,
  memberNumber: requiredText(40),
  validFrom: calendarDate(),
  validTo: blankAsNull(calendarDate()),
  primary: z.boolean().default(true),
  notes: optionalText(1000),
};

export const affiliationSchema = named(
  'PatientAffiliation',
  z.object({
    id: idSchema,
    patientId: idSchema,
    payerId: idSchema,
    payerName: z.string(),
    payerKind: z.enum(payerKinds),
    planId: idSchema,
    planName: z.string(),
    memberNumber: z.string(),
    validFrom: dateText(),
    validTo: dateText().nullable(),
    primary: z.boolean(),
    notes: z.string().nullable(),
    ...recordStampsSchema,
  }),
);
export type Affiliation = z.infer<typeof affiliationSchema>;
export const affiliationContracts = recordContracts('affiliation', affiliationFields, affiliationSchema, {
  refine: (value, ctx) => {
    if (value.validTo && value.validTo < value.validFrom) {
      ctx.addIssue({ code: 'custom', path: ['validTo'], message: 'end_before_start' });
    }
  },
});
export type AffiliationInput = z.input<typeof affiliationContracts.create>;

// ── Invoicing split between the patient and the payer ────────────────────────────────────────
export const coverageQuerySchema = z.object({
  attendanceIds: z
    .union([idSchema, z.array(idSchema).max(200, 'too_big')])
    .optional()
    .transform((value) => (value === undefined ? null : Array.isArray(value) ? value : [value])),
  /** Instead of the attendances: an accepted budget's lines not yet invoiced (issue 40). */
  budgetId: idSchema.optional(),
});

export const coverageTermsSchema = z.object({
  id: idSchema,
  mode: z.enum(coverageModes),
  value: decimalText(),
  limitKind: z.enum(coverageLimitKinds),
  limitValue: decimalText().nullable(),
  authorizationRequired: z.boolean(),
});

/** What a split line comes from: an attendance's fee or line, or an accepted budget's line. */
export const splitSourceKinds = ['attendance_fee', 'attendance_line', 'budget_line'] as const;

export const coverageLineSchema = z.object({
  kind: z.enum(splitSourceKinds),
  sourceId: idSchema,
  /** The attendance of a fee or an attendance line; null for a budget's line. */
  attendanceId: idSchema.nullable(),
  date: dateText(),
  description: z.string(),
  treatmentId: z.string().nullable(),
  treatmentCode: z.string().nullable(),
  quantity: decimalText(),
  /** The line's net (what is split). */
  total: moneyText(),
  vatRate: decimalText(),
  rule: coverageTermsSchema.nullable(),
});
export type CoverageLine = z.infer<typeof coverageLineSchema>;

/** GET /api/patients/:patientId/payer-coverage: what the split preview computes with `splitLines`. */
export const coverageSchema = z.object({
  patientId: idSchema,
  currency: z.enum(currencies),
  affiliation: affiliationSchema.nullable(),
  lines: z.array(coverageLineSchema),
  /** What the patient used this calendar year of each rule, by rule id. */
  usage: z.record(z.string(), z.object({ sessions: decimalText(), amount: decimalText() })),
});
export type Coverage = z.infer<typeof coverageSchema>;
export const coverageResponseSchema = z.object({ data: coverageSchema });

export const payerInvoiceRequestSchema = z.object({
  attendanceIds: z
    .array(idSchema)
    .max(200, 'too_big')
    .nullish()
    .transform((value) => value ?? null),
  /**
   * Instead of the attendances: the accepted budget whose lines not yet invoiced are split (its
   * conversion with the payer, issue 40).
   */
  budgetId: idSchema.nullish().transform((value) => value ?? null),
  /** The payer's authorization number of each line that needs one (its sourceId). */
  authorizations: z
    .array(z.object({ sourceId: idSchema, number: requiredText(40) }))
    .max(500, 'too_big')
    .default([]),
});
export type PayerInvoiceRequest = z.input<typeof payerInvoiceRequestSchema>;

export const splitLineSchema = z.object({
  id: idSchema,
  sourceKind: z.enum(splitSourceKinds),
  sourceId: idSchema,
  attendanceId: idSchema.nullable(),
  date: dateText(),
  description: z.string(),
  treatmentCode: z.string().nullable(),
  memberNumber: z.string(),
  patientId: idSchema,
  patientName: z.string(),
  quantity: decimalText(),
  coveredQuantity: decimalText(),
  lineTotal: moneyText(),
  payerAmount: moneyText(),
  patientAmount: moneyText(),
  rounding: z.enum(roundingRules),
  authorizationNumber: z.string().nullable(),
  patientDocumentId: z.string().nullable(),
  payerDocumentId: z.string().nullable(),
  presentationId: z.string().nullable(),
  rejection: z
    .object({
      id: idSchema,
      amount: moneyText(),
      reason: z.string(),
      destination: z.enum(rejectionDestinations),
      creditNoteId: idSchema,
      patientDocumentId: z.string().nullable(),
    })
    .nullable(),
});
export type SplitLine = z.infer<typeof splitLineSchema>;

export const payerInvoiceResultSchema = z.object({
  data: z.object({
    patientInvoiceId: z.string().nullable(),
    payerInvoiceId: z.string().nullable(),
    patientTotal: moneyText(),
    payerTotal: moneyText(),
    lines: z.array(splitLineSchema),
  }),
  code: z.literal('payer_invoices_issued'),
});
export type PayerInvoiceResult = z.infer<typeof payerInvoiceResultSchema>;

// ── Presentations ────────────────────────────────────────────────────────────────────────────
export const presentationSchema = named(
  'PayerPresentation',
  z.object({
    id: idSchema,
    payerId: idSchema,
    payerName: z.string(),
    number: z.number().int(),
    period: dateText(),
    status: z.enum(presentationStatuses),
    progress: z.number().int(),
    lineCount: z.number().int(),
    total: moneyText(),
    rejectedTotal: moneyText(),
    sentOn: dateText().nullable(),
    acceptedOn: dateText().nullable(),
    paidOn: dateText().nullable(),
    collectionId: z.string().nullable(),
    createdAt: instantText(),
    updatedAt: instantText(),
    version: z.number().int(),
  }),
);
export type Presentation = z.infer<typeof presentationSchema>;
export const presentationResponseSchema = z.object({
  data: presentationSchema,
  code: z
    .enum([
      'payer_presentation_created',
      'payer_presentation_sent',
      'payer_presentation_accepted',
      'payer_presentation_paid',
      'payer_rejection_recorded',
    ])
    .optional(),
});
export const presentationPageSchema = pageSchema(presentationSchema);
export const presentationListQuerySchema = z.object({
  payerId: idSchema.optional(),
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});
export const presentationLinesQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(50),
});
export const splitLinePageSchema = pageSchema(splitLineSchema);

/** A month (any day of it: the first is kept). */
export const createPresentationSchema = z.object({
  payerId: idSchema,
  period: calendarDate().transform((value) => `${value.slice(0, 7)}-01`),
});
export type CreatePresentation = z.input<typeof createPresentationSchema>;

export const presentationStepSchema = z.object({ version: versionField, date: blankAsNull(calendarDate()) });
export type PresentationStep = z.input<typeof presentationStepSchema>;

export const presentationPaySchema = z.object({
  version: versionField,
  date: calendarDate(),
  method: z.enum(paymentMethods, 'invalid_value'),
});
export type PresentationPay = z.input<typeof presentationPaySchema>;

export const rejectionRequestSchema = z.object({
  splitLineId: idSchema,
  amount: moneyAmount(),
  reason: requiredText(500),
  destination: z.enum(rejectionDestinations, 'invalid_value'),
});
export type RejectionRequest = z.input<typeof rejectionRequestSchema>;
