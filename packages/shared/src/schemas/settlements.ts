import { z } from 'zod';
import { dateText, decimalText, instantText, moneyText, named } from '../api-schema.ts';
import { calendarDate, moneyAmount, optionalId, optionalText, safeText } from '../validation.ts';
import { idSchema, pageSchema } from './common.ts';
import { recordContracts, recordStampsSchema } from './records.ts';

/**
 * Professional settlements (liquidaciones, issue 40): rules per professional (by treatment, by
 * treatment group or a default for all; a percentage or a fixed amount per unit; on what is
 * invoiced or on what is collected; with the treatment's lab cost deducted or not; valid from a
 * date), a period's preview and its confirmation into a numbered, immutable settlement whose
 * total is owed to the professional's provider (paid through /api/payments).
 */

export const settlementRuleScopes = ['treatment', 'group', 'default'] as const;
export type SettlementRuleScope = (typeof settlementRuleScopes)[number];
export const settlementRuleMethods = ['percentage', 'fixed'] as const;
export type SettlementRuleMethod = (typeof settlementRuleMethods)[number];
export const settlementBases = ['invoiced', 'collected'] as const;
export type SettlementBasis = (typeof settlementBases)[number];
export const settlementLineKinds = ['regular', 'adjustment'] as const;
export const settlementSourceKinds = ['invoice_line', 'collection', 'collection_reversal'] as const;
export type SettlementSourceKind = (typeof settlementSourceKinds)[number];

/** The longest period one settlement may cover (a year and a day): a month is the usual. */
export const maxSettlementPeriodDays = 366;

const settlementRuleFields = {
  professionalId: idSchema,
  scope: z.enum(settlementRuleScopes),
  treatmentId: optionalId(),
  groupName: z.preprocess(
    (value) => (typeof value === 'string' && value.trim() === '' ? null : value),
    safeText().trim().max(60, 'too_long').nullable().default(null),
  ),
  method: z.enum(settlementRuleMethods),
  /** A percentage (0–100) or a fixed amount per unit, in the clinic's currency. */
  value: moneyAmount(),
  basis: z.enum(settlementBases),
  deductLabCost: z.boolean().default(false),
  validFrom: calendarDate(),
  notes: optionalText(500),
};

export const settlementRuleSchema = named(
  'SettlementRule',
  z.object({
    id: idSchema,
    professionalId: idSchema,
    professionalName: z.string().nullable(),
    scope: z.enum(settlementRuleScopes),
    treatmentId: idSchema.nullable(),
    treatmentName: z.string().nullable(),
    groupName: z.string().nullable(),
    method: z.enum(settlementRuleMethods),
    value: moneyText(),
    basis: z.enum(settlementBases),
    deductLabCost: z.boolean(),
    validFrom: dateText(),
    notes: z.string().nullable(),
    ...recordStampsSchema,
  }),
);
export type SettlementRule = z.infer<typeof settlementRuleSchema>;

export const settlementRuleContracts = recordContracts('settlement_rule', settlementRuleFields, settlementRuleSchema, {
  refine: (value, ctx) => {
    if (value.scope === 'treatment' && !value.treatmentId)
      ctx.addIssue({ code: 'custom', path: ['treatmentId'], message: 'required' });
    if (value.scope === 'group' && !value.groupName)
      ctx.addIssue({ code: 'custom', path: ['groupName'], message: 'required' });
    if (value.method === 'percentage' && Number(value.value) > 100)
      ctx.addIssue({
        code: 'too_big',
        origin: 'number',
        maximum: 100,
        inclusive: true,
        input: value.value,
        path: ['value'],
        message: 'too_big',
      });
  },
});
export type CreateSettlementRuleRequest = z.input<typeof settlementRuleContracts.create>;

/** GET /api/settlement-rules: a professional's rules (or every professional's), newest validity first. */
export const settlementRulesQuerySchema = z.object({
  professionalId: idSchema.optional(),
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(50),
});

const periodFields = {
  professionalId: idSchema,
  from: calendarDate(),
  to: calendarDate(),
};
const checkPeriod = (value: { from: string; to: string }, ctx: z.RefinementCtx) => {
  if (value.to < value.from) ctx.addIssue({ code: 'custom', path: ['to'], message: 'end_before_start' });
  else if ((Date.parse(value.to) - Date.parse(value.from)) / 86_400_000 >= maxSettlementPeriodDays)
    ctx.addIssue({ code: 'custom', path: ['to'], message: 'range_too_long' });
};

/** GET /api/settlements/preview: what confirming the period would settle, written nowhere. */
export const settlementPreviewQuerySchema = z.object(periodFields).superRefine(checkPeriod);

/** POST /api/settlements: confirm the period. `expectedTotal` (the preview's) refuses a stale preview with 409. */
export const confirmSettlementSchema = z
  .object({
    ...periodFields,
    expectedTotal: z
      .string()
      .regex(/^-?\d{1,12}\.\d{2}$/, 'invalid_number')
      .optional(),
    notes: optionalText(500),
  })
  .superRefine(checkPeriod);
export type ConfirmSettlementRequest = z.input<typeof confirmSettlementSchema>;

export const settlementLineSchema = named(
  'SettlementLine',
  z.object({
    id: idSchema.nullable(),
    kind: z.enum(settlementLineKinds),
    sourceKind: z.enum(settlementSourceKinds),
    sourceId: idSchema,
    documentLineId: idSchema,
    documentId: idSchema,
    documentLabel: z.string(),
    paymentId: idSchema.nullable(),
    attendanceId: idSchema.nullable(),
    patientId: idSchema.nullable(),
    patientName: z.string().nullable(),
    treatmentId: idSchema.nullable(),
    description: z.string(),
    groupName: z.string().nullable(),
    sourceDate: dateText(),
    quantity: decimalText(),
    base: moneyText(),
    labCost: moneyText(),
    ruleId: idSchema,
    ruleScope: z.enum(settlementRuleScopes),
    ruleMethod: z.enum(settlementRuleMethods),
    ruleValue: moneyText(),
    ruleBasis: z.enum(settlementBases),
    amount: moneyText(),
  }),
);
export type SettlementLine = z.infer<typeof settlementLineSchema>;

const totalsFields = {
  currency: z.string(),
  baseTotal: moneyText(),
  labCostTotal: moneyText(),
  adjustmentTotal: moneyText(),
  total: moneyText(),
  lineCount: z.number().int(),
};

export const settlementPreviewSchema = named(
  'SettlementPreview',
  z.object({
    professionalId: idSchema,
    professionalName: z.string(),
    from: dateText(),
    to: dateText(),
    ...totalsFields,
    /** The first lines (up to 1,000) in print order; `lineCount` says how many there are. */
    lines: z.array(settlementLineSchema),
    /** A settlement of this professional already covers part of the period. */
    overlaps: z.boolean(),
  }),
);
export const settlementPreviewResponseSchema = z.object({ data: settlementPreviewSchema });
export type SettlementPreview = z.infer<typeof settlementPreviewSchema>;

export const settlementSchema = named(
  'Settlement',
  z.object({
    id: idSchema,
    number: z.string(),
    professionalId: idSchema,
    professionalName: z.string(),
    providerId: idSchema,
    periodFrom: dateText(),
    periodTo: dateText(),
    ...totalsFields,
    /** The payable in the provider's account (null when the total is 0): what is still open of it. */
    documentId: idSchema.nullable(),
    openAmount: moneyText(),
    status: z.enum(['pending', 'partially_paid', 'paid', 'nothing_to_pay']),
    notes: z.string().nullable(),
    createdAt: instantText(),
    createdByName: z.string().nullable(),
  }),
);
export type Settlement = z.infer<typeof settlementSchema>;

/** One settlement with its first 1,000 lines in print order (`lineCount` says how many; the PDF has them all). */
export const settlementDetailSchema = settlementSchema.extend({ lines: z.array(settlementLineSchema) });
export const settlementResponseSchema = z.object({
  data: settlementDetailSchema,
  code: z.literal('settlement_created').optional(),
});
export const settlementPageSchema = pageSchema(settlementSchema);
export const settlementListQuerySchema = z.object({
  professionalId: idSchema.optional(),
  status: z.enum(['pending', 'paid']).optional(),
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});
