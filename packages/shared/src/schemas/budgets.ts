import { z } from 'zod';
import { dateText, decimalText, instantText, moneyText, named } from '../api-schema.ts';
import { budgetDecisionKinds } from '../commercial.ts';
import { currencies, documentTypes } from '../enums.ts';
import { optionalCalendarDate, optionalText, requiredText, safeText } from '../validation.ts';
import { signatureLimits } from './authorizations.ts';
import { idSchema } from './common.ts';

/**
 * Budgets (treatment plans) and invoicing what a patient was attended for (issue 18). A budget
 * is a sale of type budget: issued like any sale, then answered ONCE (accepted — signed on the pad
 * or marked with a date — or rejected), followed (what the attendances carried out of each line)
 * and converted into a proforma or an invoice draft. A patient's billing lists what is not yet
 * invoiced of the billable attendances (their fee and lines) and of the accepted budgets.
 */

/** The signature on the pad: the PNG as base64 (a canvas' data: URL), who signed and their id number. */
export const budgetSignatureSchema = z.object({
  image: safeText()
    .trim()
    .min(1, 'required')
    .max(Math.ceil((signatureLimits.maxBytes * 4) / 3) + 64, 'too_big'),
  signerName: requiredText(200),
  signerIdNumber: requiredText(40),
});

/**
 * POST /api/sales/:id/decision. Accepted with a signature (the day is the clinic's today) or
 * without one (marked, with the day it was accepted); rejected with its day. One per budget.
 */
export const budgetDecisionRequestSchema = z
  .object({
    decision: z.enum(budgetDecisionKinds, {
      error: (issue) => (issue.input == null ? 'required' : 'invalid_value'),
    }),
    /** The day of the answer; the clinic's today when missing. Ignored with a signature. */
    decidedOn: optionalCalendarDate(),
    signature: budgetSignatureSchema.nullish().transform((value) => value ?? null),
    notes: optionalText(1000),
  })
  .superRefine((value, ctx) => {
    if (value.decision === 'rejected' && value.signature) {
      ctx.addIssue({ code: 'custom', path: ['signature'], message: 'invalid_value' });
    }
  });
export type BudgetDecisionRequest = z.output<typeof budgetDecisionRequestSchema>;

export const budgetDecisionSchema = z.object({
  id: idSchema,
  documentId: idSchema,
  decision: z.enum(budgetDecisionKinds),
  decidedOn: dateText(),
  signedText: z.string().nullable(),
  /** The signature as a data: URL (image/png), or null when marked without one. */
  signatureImage: z.string().nullable(),
  signerName: z.string().nullable(),
  signerIdNumber: z.string().nullable(),
  sha256: z.string().nullable(),
  notes: z.string().nullable(),
  createdAt: instantText(),
  createdByName: z.string().nullable(),
});
export type BudgetDecision = z.infer<typeof budgetDecisionSchema>;
export const budgetDecisionResponseSchema = z.object({
  data: budgetDecisionSchema,
  code: z.enum(['budget_accepted', 'budget_rejected']),
});

/** An attendance that carried out (part of) a budget line. */
export const budgetLineAttendanceSchema = z.object({
  attendanceId: idSchema,
  attendanceLineId: idSchema,
  /** The attendance's instant (an attendance has a time, not only a day). */
  date: instantText(),
  titleResume: z.string(),
  quantity: z.number().int(),
});

/** One line of a budget with what is done of it and whether it is invoiced. */
export const budgetProgressLineSchema = z.object({
  id: idSchema,
  position: z.number().int(),
  description: z.string(),
  treatmentId: z.string().nullable(),
  treatmentCode: z.string().nullable(),
  tooth: z.string().nullable(),
  quantity: decimalText(),
  /** Σ quantity of the live attendance lines that carry it out. */
  done: decimalText(),
  /** quantity − done, never below 0. */
  left: decimalText(),
  unitPrice: moneyText(),
  total: moneyText(),
  /** In billed_sources as a budget line, or an attendance line carrying it out is billed. */
  invoiced: z.boolean(),
  attendances: z.array(budgetLineAttendanceSchema),
});
export type BudgetProgressLine = z.infer<typeof budgetProgressLineSchema>;

/** GET /api/sales/:id/progress */
export const budgetProgressSchema = named(
  'Budget',
  z.object({
    budgetId: idSchema,
    status: z.enum(['draft', 'issued']),
    decision: budgetDecisionSchema.nullable(),
    /** The text a signature would seal (the budget's canonical summary), for the signing dialog. */
    textToSign: z.string(),
    lines: z.array(budgetProgressLineSchema),
    /** The drafts and documents converted from it (related_document_id = the budget). */
    converted: z.array(
      z.object({
        id: idSchema,
        documentType: z.enum(documentTypes),
        status: z.string(),
        pointOfService: z.string().nullable(),
        documentNumber: z.string().nullable(),
        date: dateText(),
        total: moneyText(),
      }),
    ),
  }),
);
export type BudgetProgress = z.infer<typeof budgetProgressSchema>;
export const budgetProgressResponseSchema = z.object({ data: budgetProgressSchema });

/** POST /api/sales/:id/convert: the type of the draft made from the accepted budget. */
export const convertBudgetRequestSchema = z.object({
  documentType: z.enum(['proforma_invoice', 'invoice'], {
    error: (issue) => (issue.input == null ? 'required' : 'invalid_value'),
  }),
});
export type ConvertBudgetRequest = z.input<typeof convertBudgetRequestSchema>;

/** A sale draft made from sources (a budget, attendances): where to open it. */
export const saleDraftCreatedSchema = z.object({
  data: z.object({
    id: idSchema,
    documentType: z.enum(documentTypes),
    total: moneyText(),
    lines: z.number().int(),
  }),
  code: z.literal('sale_created'),
});
export type SaleDraftCreated = z.infer<typeof saleDraftCreatedSchema>;

/** A piece of an attendance not yet invoiced: its fee, or one of its lines. */
export const billablePieceSchema = z.object({
  kind: z.enum(['attendance_fee', 'attendance_line']),
  /** The attendance (fee) or the attendance line. */
  sourceId: idSchema,
  description: z.string(),
  treatmentId: z.string().nullable(),
  tooth: z.string().nullable(),
  quantity: decimalText(),
  unitPrice: moneyText(),
  vatRate: decimalText(),
  /** With VAT. */
  total: moneyText(),
});
export type BillablePiece = z.infer<typeof billablePieceSchema>;

export const billableAttendanceSchema = z.object({
  id: idSchema,
  date: dateText(),
  titleResume: z.string(),
  professionalName: z.string().nullable(),
  finished: z.boolean(),
  pieces: z.array(billablePieceSchema),
  total: moneyText(),
});
export type BillableAttendance = z.infer<typeof billableAttendanceSchema>;

export const pendingBudgetSchema = z.object({
  id: idSchema,
  pointOfService: z.string().nullable(),
  documentNumber: z.string().nullable(),
  date: dateText(),
  total: moneyText(),
  currency: z.enum(currencies),
  /** The lines not yet invoiced, with what is done of them. */
  lines: z.array(budgetProgressLineSchema),
});
export type PendingBudget = z.infer<typeof pendingBudgetSchema>;

/** GET /api/patients/:patientId/billing: what is not yet invoiced. */
export const patientBillingSchema = z.object({
  patientId: idSchema,
  customerId: z.string().nullable(),
  currency: z.enum(currencies),
  attendances: z.array(billableAttendanceSchema),
  /** Σ of the attendances' pieces, with VAT. */
  total: moneyText(),
  budgets: z.array(pendingBudgetSchema),
});
export type PatientBilling = z.infer<typeof patientBillingSchema>;
export const patientBillingResponseSchema = z.object({ data: patientBillingSchema });

/** POST /api/patients/:patientId/invoice-draft: these attendances, or everything not yet invoiced. */
export const invoiceDraftRequestSchema = z.object({
  attendanceIds: z
    .array(idSchema)
    .max(200, 'too_big')
    .nullish()
    .transform((value) => value ?? null),
});
export type InvoiceDraftRequest = z.input<typeof invoiceDraftRequestSchema>;
