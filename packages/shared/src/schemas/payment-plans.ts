import { z } from 'zod';
import { dateText, decimalText, instantText, moneyText, named } from '../api-schema.ts';
import { normalizeDecimal } from '../decimal-input.ts';
import { currencies } from '../enums.ts';
import { fitsInstalments, maxPlanAnnualRate, maxPlanInstalments, paymentPlanFrequencies } from '../payment-plans.ts';
import { calendarDate, moneyAmount, optionalText, requiredText, tooBigIssue, wholeNumber } from '../validation.ts';
import { idSchema, pageSchema } from './common.ts';
import { versionField } from './records.ts';

/**
 * Payment plans (planes de pago, issue 40): an issued invoice (or debit note) paid in instalments.
 * GET /api/payment-plans (commercial.read), POST /api/payment-plans and
 * POST /api/payment-plans/:id/cancel (commercial.write, `Idempotency-Key` required),
 * GET /api/payment-plans/instalments (the due and overdue instalments).
 */

export const paymentPlanStatuses = ['active', 'completed', 'cancelled'] as const;
export type PaymentPlanStatus = (typeof paymentPlanStatuses)[number];
export const instalmentStates = ['pending', 'partly_paid', 'paid', 'overdue'] as const;
export const instalmentViews = ['overdue', 'due', 'open'] as const;
export type InstalmentView = (typeof instalmentViews)[number];

/** An annual rate 0–200 % with at most two decimals, typed "12", "9,5"; blank is none. */
const annualRateField = z.preprocess(
  (value) => (value === '' || value === undefined ? null : value),
  z
    .union([z.string(), z.number()])
    .transform((value) => normalizeDecimal(value) ?? String(value).trim())
    .refine((value) => /^\d+(\.\d{1,2})?$/.test(value), 'invalid_number')
    .superRefine((value, ctx) => {
      if (Number(value) > maxPlanAnnualRate) tooBigIssue(ctx, maxPlanAnnualRate);
    })
    .transform((value) => String(Number(value)))
    .nullable(),
);

export const createPaymentPlanSchema = z
  .object({
    documentId: idSchema,
    /** What is financed; blank: what the invoice still owes. */
    amount: moneyAmount().optional(),
    instalmentCount: wholeNumber(1, maxPlanInstalments),
    firstDueOn: calendarDate(),
    frequency: z.enum(paymentPlanFrequencies),
    annualRate: annualRateField.default(null),
    notes: optionalText(1000),
  })
  .superRefine((value, ctx) => {
    if (value.amount !== undefined && !fitsInstalments(value.amount, value.instalmentCount)) {
      ctx.addIssue({ code: 'custom', path: ['amount'], message: 'too_small' });
    }
  });
export type CreatePaymentPlan = z.input<typeof createPaymentPlanSchema>;

export const cancelPaymentPlanSchema = z.object({ version: versionField, reason: requiredText(500) });
export type CancelPaymentPlan = z.input<typeof cancelPaymentPlanSchema>;

export const instalmentSchema = z.object({
  id: idSchema,
  number: z.number().int(),
  dueOn: dateText(),
  principal: moneyText(),
  interest: moneyText(),
  amount: moneyText(),
  /** What of it is paid (collections to the plan's documents, oldest instalment first). */
  paid: moneyText(),
  state: z.enum(instalmentStates),
});
export type Instalment = z.infer<typeof instalmentSchema>;

export const paymentPlanSchema = named(
  'PaymentPlan',
  z.object({
    id: idSchema,
    documentId: idSchema,
    documentNumber: z.string().nullable(),
    documentType: z.string(),
    customerId: idSchema,
    customerName: z.string(),
    patientId: idSchema.nullable(),
    currency: z.enum(currencies),
    principal: moneyText(),
    interest: moneyText(),
    total: moneyText(),
    paid: moneyText(),
    pending: moneyText(),
    instalmentCount: z.number().int(),
    firstDueOn: dateText(),
    frequency: z.enum(paymentPlanFrequencies),
    annualRate: decimalText().nullable(),
    interestDocumentId: idSchema.nullable(),
    interestDocumentNumber: z.string().nullable(),
    status: z.enum(paymentPlanStatuses),
    /** Instalments past their due date and not paid (the clinic's today). */
    overdueCount: z.number().int(),
    notes: z.string().nullable(),
    replacesId: idSchema.nullable(),
    cancelReason: z.string().nullable(),
    cancelledAt: instantText().nullable(),
    createdAt: instantText(),
    version: z.number().int(),
    instalments: z.array(instalmentSchema),
  }),
);
export type PaymentPlan = z.infer<typeof paymentPlanSchema>;

export const paymentPlanAnswerSchema = z.object({
  data: paymentPlanSchema,
  code: z.enum(['payment_plan_created', 'payment_plan_cancelled']).optional(),
});

export const paymentPlansQuerySchema = z.object({
  status: z.enum(paymentPlanStatuses).optional(),
  documentId: idSchema.optional(),
  customerId: idSchema.optional(),
  patientId: idSchema.optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(25),
});
export type PaymentPlansQuery = z.input<typeof paymentPlansQuerySchema>;
export const paymentPlanPageSchema = pageSchema(paymentPlanSchema);

/** One instalment in the due/overdue list, with its plan's invoice and customer. */
export const planInstalmentSchema = instalmentSchema.extend({
  planId: idSchema,
  instalmentCount: z.number().int(),
  documentId: idSchema,
  documentNumber: z.string().nullable(),
  customerId: idSchema,
  customerName: z.string(),
  patientId: idSchema.nullable(),
  currency: z.enum(currencies),
});
export type PlanInstalment = z.infer<typeof planInstalmentSchema>;

export const instalmentsQuerySchema = z.object({
  /** overdue (default): past due and unpaid; due: unpaid and due up to `to`; open: every unpaid one. */
  view: z.enum(instalmentViews).default('overdue'),
  to: calendarDate().optional(),
  customerId: idSchema.optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(25),
});
export type InstalmentsQuery = z.input<typeof instalmentsQuerySchema>;
export const planInstalmentPageSchema = pageSchema(planInstalmentSchema);

/** What a collection paid of payment plans: per allocation to a planned document, the instalments it went to. */
export const collectionInstalmentsSchema = z.object({
  data: z.array(
    z.object({
      allocationId: idSchema,
      documentId: idSchema,
      documentNumber: z.string().nullable(),
      planId: idSchema,
      /** The instalments (numbers) the allocation paid or paid part of, oldest first. */
      numbers: z.array(z.number().int()),
      instalmentCount: z.number().int(),
    }),
  ),
});
export type CollectionInstalments = z.infer<typeof collectionInstalmentsSchema>['data'];
