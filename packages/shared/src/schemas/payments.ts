import { z } from 'zod';
import { dateText, instantText, moneyText, named } from '../api-schema.ts';
import { currencies, paymentMethods, paymentStatuses } from '../enums.ts';
import { calendarDate, moneyAmount, optionalCalendarDate, optionalText, requiredText } from '../validation.ts';
import { partySnapshotSchema } from './clinic-fiscal.ts';
import { documentRefSchema } from './commercial-documents.ts';
import { idSchema, listQuerySchema, pageSchema } from './common.ts';
import { recordStampsSchema, versionField } from './records.ts';

/**
 * Payments to providers (issue 17; collections of issue 18 are the same record, side customer):
 * /api/payments. A payment is never edited: it is allocated to open documents (partly, oldest
 * first by default), its remainder stays on account and can be allocated later, pending → paid is
 * its only state change, and a mistake is reversed with a reason. Every create carries an
 * `Idempotency-Key` header: the same key answers the first result.
 */

export const allocationInputSchema = z.object({
  documentId: idSchema,
  amount: moneyAmount().refine((value) => Number(value) > 0, 'too_small'),
});
export type AllocationInput = z.output<typeof allocationInputSchema>;

export const createPaymentSchema = z.object({
  providerId: idSchema,
  date: calendarDate(),
  amount: moneyAmount().refine((value) => Number(value) > 0, 'too_small'),
  currency: z.enum(currencies),
  method: z.enum(paymentMethods),
  /** Transfer, cheque or card operation number. */
  transactionNumber: optionalText(60),
  notes: optionalText(2000),
  /** pending: a scheduled transfer or a post-dated cheque; paid on `paidOn` (default `date`). */
  status: z.enum(paymentStatuses).default('paid'),
  paidOn: optionalCalendarDate(),
  allocations: z.array(allocationInputSchema).max(200, 'too_big').default([]),
  /** The cash register it is paid from (issue 40): a movement out of its open session. */
  registerId: idSchema.nullish(),
});
export type CreatePayment = z.output<typeof createPaymentSchema>;

/** POST /api/payments/:id/allocations: allocate what is still on account. */
export const allocatePaymentSchema = z.object({
  version: versionField,
  allocations: z.array(allocationInputSchema).min(1, 'required').max(200, 'too_big'),
});
/** POST /api/payments/:id/reverse */
export const reversePaymentSchema = z.object({ version: versionField, reason: requiredText(500) });
/** POST /api/payments/:id/paid: a pending payment left the bank. */
export const markPaymentPaidSchema = z.object({ version: versionField, paidOn: calendarDate() });

export const paymentAllocationSchema = named(
  'PaymentAllocation',
  z.object({
    id: idSchema,
    document: documentRefSchema,
    amount: moneyText(),
    createdAt: instantText(),
    reversed: z.boolean(),
  }),
);

/**
 * Where the money of a collection or payment went through a cash register (issue 40): per
 * register session, what it took (or, `reversal`, gave back), and the closing's number (Z-000001)
 * once that session is closed.
 */
export const paymentRegisterMovementSchema = named(
  'PaymentRegisterMovement',
  z.object({
    sessionId: idSchema,
    registerId: idSchema,
    registerName: z.string(),
    /** The Z report's number; null while the session is open. */
    closingNumber: z.string().nullable(),
    reversal: z.boolean(),
    amount: moneyText(),
  }),
);
export type PaymentRegisterMovement = z.infer<typeof paymentRegisterMovementSchema>;

/** What a payment and a collection both carry after how the money came: its state, allocations and reversal. */
export const moneyMovementState = {
  /** Its movements in cash register sessions (GET …/:id only); empty when not taken at a register. */
  registerMovements: z.array(paymentRegisterMovementSchema),
  notes: z.string().nullable(),
  status: z.enum(paymentStatuses),
  paidOn: dateText().nullable(),
  allocatedAmount: moneyText(),
  /** On account: amount − allocated (0 once reversed). */
  unallocatedAmount: moneyText(),
  allocations: z.array(paymentAllocationSchema),
  counterpartySnapshot: partySnapshotSchema.nullable(),
  reversedAt: instantText().nullable(),
  reversedByName: z.string().nullable(),
  reversalReason: z.string().nullable(),
  ...recordStampsSchema,
};

export const paymentSchema = named(
  'Payment',
  z.object({
    id: idSchema,
    side: z.enum(['provider', 'customer']),
    /** The clinic's proof-of-payment number, OP-000123. */
    number: z.string(),
    providerId: z.string().nullable(),
    providerName: z.string().nullable(),
    date: dateText(),
    amount: moneyText(),
    currency: z.enum(currencies),
    method: z.enum(paymentMethods),
    transactionNumber: z.string().nullable(),
    ...moneyMovementState,
  }),
);
export type Payment = z.infer<typeof paymentSchema>;

/** A money movement's answer, with the side's success codes (`payment_created`, `collection_created`…). */
export function movementResponseSchema<const TEntity extends string, T extends z.ZodType>(entity: TEntity, data: T) {
  return z.object({
    data,
    code: z
      .enum([`${entity}_created`, `${entity}_allocated`, `${entity}_reversed`, `${entity}_marked_paid`] as const)
      .optional(),
  });
}

/** A money movement as its list shows it: without its allocations, its party's snapshot and its register movements (GET …/:id has them). */
export function movementListItemSchema<
  TShape extends z.ZodRawShape & {
    allocations: z.ZodType;
    counterpartySnapshot: z.ZodType;
    registerMovements: z.ZodType;
  },
>(id: string, movement: z.ZodObject<TShape>) {
  const details = { allocations: true, counterpartySnapshot: true, registerMovements: true } as const;
  // The shape is generic, so zod cannot check the keys itself: TShape has both.
  return named(id, movement.omit<typeof details>(details as never));
}

/** What a list of money movements sorts by. */
export const movementSortColumns = ['date', 'number', 'amount'] as const;

export const paymentListItemSchema = movementListItemSchema('PaymentListItem', paymentSchema);
export type PaymentListItem = z.infer<typeof paymentListItemSchema>;

export const paymentResponseSchema = movementResponseSchema('payment', paymentSchema);

export const paymentListQuerySchema = listQuerySchema(movementSortColumns).extend({
  providerId: idSchema.optional(),
  status: z.enum([...paymentStatuses, 'reversed']).optional(),
  from: calendarDate().optional(),
  to: calendarDate().optional(),
});
export type PaymentListQuery = z.output<typeof paymentListQuerySchema>;
export const paymentPageSchema = pageSchema(paymentListItemSchema);

/** GET /api/providers/:id/open-documents: what a payment can be allocated to, oldest due first. */
export const openDocumentSchema = documentRefSchema.extend({
  dueDate: dateText().nullable(),
  currency: z.enum(currencies),
  openAmount: moneyText(),
});
export type OpenDocument = z.infer<typeof openDocumentSchema>;
export const openDocumentsSchema = z.object({ data: z.array(openDocumentSchema) });
