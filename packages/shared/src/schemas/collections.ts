import { z } from 'zod';
import { dateText, moneyText, named } from '../api-schema.ts';
import { currencies, paymentMethods, paymentStatuses } from '../enums.ts';
import { calendarDate, moneyAmount, optionalCalendarDate, optionalText } from '../validation.ts';
import { idSchema, listQuerySchema, pageSchema } from './common.ts';
import {
  allocatePaymentSchema,
  allocationInputSchema,
  markPaymentPaidSchema,
  moneyMovementState,
  movementListItemSchema,
  movementResponseSchema,
  movementSortColumns,
  openDocumentSchema,
  reversePaymentSchema,
} from './payments.ts';

/**
 * Collections (cobranzas, issue 18): money a customer — a patient, a company, an insurer — pays the
 * clinic: /api/collections. The same record as a payment to a provider (side customer, numbered
 * RC-000001): never edited; allocated to the customer's open sales (oldest due first by default),
 * the remainder stays on account; pending → paid; a mistake is reversed with a reason. Every create
 * carries an `Idempotency-Key` header: the same key answers the first result.
 */

/** The most parts one collection may be split into (the database's `payments_parts` says the same). */
export const maxCollectionParts = 10;

/** One part of a collection (issue 35): how some of the money came. */
export const collectionPartInputSchema = z.object({
  method: z.enum(paymentMethods),
  amount: moneyAmount().refine((value) => Number(value) > 0, 'too_small'),
  /** Transfer, cheque or card operation number of this part. */
  transactionNumber: optionalText(60),
});
export type CollectionPartInput = z.input<typeof collectionPartInputSchema>;

export const collectionPartSchema = z.object({
  method: z.enum(paymentMethods),
  amount: moneyText(),
  transactionNumber: z.string().nullable(),
});
export type CollectionPart = z.infer<typeof collectionPartSchema>;

/** In cents, so "12.500,50" typed in parts adds up exactly (amounts are decimal strings with two places). */
const cents = (value: string) => {
  const [units = '0', decimals = ''] = value.split('.');
  return BigInt(units) * 100n + BigInt(decimals.padEnd(2, '0').slice(0, 2) || '0');
};

export const createCollectionSchema = z
  .object({
    /** The customer, or the patient (whose customer row is made on first billing). */
    customerId: idSchema.optional(),
    patientId: idSchema.optional(),
    date: calendarDate(),
    /** The whole collection: one receipt of this amount. */
    amount: moneyAmount().refine((value) => Number(value) > 0, 'too_small'),
    currency: z.enum(currencies),
    /** One method for the whole amount… */
    method: z.enum(paymentMethods).optional(),
    /** Transfer, cheque or card operation number. */
    transactionNumber: optionalText(60),
    /** …or the parts it is split into (cash + card), which add up to `amount` (issue 35). */
    parts: z.array(collectionPartInputSchema).min(1, 'required').max(maxCollectionParts, 'too_big').optional(),
    notes: optionalText(2000),
    /** pending: a post-dated cheque or a transfer announced; paid on `paidOn` (default `date`). */
    status: z.enum(paymentStatuses).default('paid'),
    paidOn: optionalCalendarDate(),
    allocations: z.array(allocationInputSchema).max(200, 'too_big').default([]),
    /** The cash register it is taken at (issue 40): one movement per part in its open session. */
    registerId: idSchema.nullish(),
    /**
     * A collection against an accepted budget's payment plan (issue 40): the money stays on account
     * tagged to the plan (it pays the instalments oldest first) until the budget's lines are invoiced.
     */
    paymentPlanId: idSchema.nullish(),
  })
  .superRefine((value, ctx) => {
    if (!value.customerId && !value.patientId)
      ctx.addIssue({ code: 'custom', path: ['customerId'], message: 'required' });
    if (!value.parts && !value.method) ctx.addIssue({ code: 'custom', path: ['method'], message: 'required' });
    if (value.parts && value.parts.reduce((sum, part) => sum + cents(part.amount), 0n) !== cents(value.amount))
      ctx.addIssue({ code: 'custom', path: ['parts'], message: 'parts_total_mismatch' });
  });
export type CreateCollection = z.output<typeof createCollectionSchema>;

/** POST /api/collections/:id/allocate, /reverse, /paid: the payments' shapes. */
export const allocateCollectionSchema = allocatePaymentSchema;
export const reverseCollectionSchema = reversePaymentSchema;
export const markCollectionPaidSchema = markPaymentPaidSchema;

export const collectionSchema = named(
  'Collection',
  z.object({
    id: idSchema,
    /** The clinic's receipt number, RC-000123. */
    number: z.string(),
    customerId: z.string(),
    customerName: z.string(),
    customerKind: z.enum(['patient', 'company', 'insurer']),
    patientId: z.string().nullable(),
    date: dateText(),
    amount: moneyText(),
    currency: z.enum(currencies),
    /** The method of the largest part (the only one of an unsplit collection). */
    method: z.enum(paymentMethods),
    transactionNumber: z.string().nullable(),
    /** How the money came: one part, or several (cash + card) adding up to `amount`. */
    parts: z.array(collectionPartSchema),
    ...moneyMovementState,
  }),
);
export type Collection = z.infer<typeof collectionSchema>;

export const collectionListItemSchema = movementListItemSchema('CollectionListItem', collectionSchema);
export type CollectionListItem = z.infer<typeof collectionListItemSchema>;

export const collectionResponseSchema = movementResponseSchema('collection', collectionSchema);

export const collectionListQuerySchema = listQuerySchema(movementSortColumns).extend({
  customerId: idSchema.optional(),
  patientId: idSchema.optional(),
  status: z.enum([...paymentStatuses, 'reversed']).optional(),
  method: z.enum(paymentMethods).optional(),
  from: calendarDate().optional(),
  to: calendarDate().optional(),
});
export type CollectionListQuery = z.output<typeof collectionListQuerySchema>;
export const collectionPageSchema = pageSchema(collectionListItemSchema);

/**
 * GET /api/customers/:customerId/open-documents: the customer's issued sales with something still
 * owed, oldest due first, and what the customer has on account (collections not allocated, credit
 * notes not applied) — what the collection form proposes to allocate.
 */
export const customerOpenDocumentsSchema = z.object({
  data: z.object({
    customerId: idSchema,
    name: z.string(),
    balance: moneyText(),
    onAccount: moneyText(),
    documents: z.array(openDocumentSchema),
  }),
});
export type CustomerOpenDocuments = z.infer<typeof customerOpenDocumentsSchema>['data'];

/** GET /api/patients/:patientId/balance: the patient's account at a glance (customerId null: never billed). */
export const patientBalanceSchema = z.object({
  data: z.object({
    customerId: z.string().nullable(),
    currency: z.enum(currencies),
    balance: moneyText(),
    overdue: moneyText(),
    onAccount: moneyText(),
  }),
});
export type PatientBalance = z.infer<typeof patientBalanceSchema>['data'];
