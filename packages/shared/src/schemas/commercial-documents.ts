import { z } from 'zod';
import { correctingDocumentTypes, documentStatuses, purchaseDocumentTypes } from '../commercial.ts';
import { conditionsSale, currencies, documentTypes, paymentMethods } from '../enums.ts';
import {
  calendarDate,
  moneyAmount,
  optionalCalendarDate,
  optionalId,
  optionalText,
  percentage,
  requiredText,
  safeText,
} from '../validation.ts';
import { partySnapshotSchema, pointOfSaleCode } from './clinic-fiscal.ts';
import { idSchema, listQuerySchema, pageSchema } from './common.ts';
import { recordStampsSchema, versionField } from './records.ts';

/**
 * One document model for purchases (issue 17) and sales (issue 18), spec §3 "Documents": its type,
 * point of sale and number, dates, currency, condition and method of payment, lines (a catalogue
 * item or free text) and totals (document-totals.ts does the arithmetic on both sides). A draft
 * is edited and deleted; a registered purchase or issued sale is final and is corrected by a
 * credit or debit note that names it (`relatedDocumentId`).
 */

const quantityPattern = /^\d{1,9}(\.\d{1,2})?$/;
/** A quantity > 0 with at most two decimals, typed "2", "1,5"; answered as a decimal string. */
export const quantityField = () =>
  z
    .union([safeText(), z.number()])
    .transform((value) => String(value).trim().replace(',', '.'))
    .refine((value) => value !== '', 'required')
    .refine((value) => value === '' || quantityPattern.test(value), 'invalid_number')
    .refine((value) => !quantityPattern.test(value) || Number(value) > 0, 'too_small')
    .transform((value) => (quantityPattern.test(value) ? Number(value).toFixed(2) : value));

/** A document number as printed on the paper: digits are padded to 8 (00001234); letters, '/' and '-' kept. */
export const documentNumberField = () =>
  safeText()
    .trim()
    .min(1, 'required')
    .max(20, 'too_long')
    .regex(/^[0-9A-Za-z/-]+$/, 'invalid_format')
    .transform((value) => (/^\d+$/.test(value) ? value.padStart(8, '0') : value.toUpperCase()));

export const documentLineFields = {
  /** A medicine or supply of the catalogue; null for a free-text line (a service, a freight charge). */
  itemId: optionalId(),
  description: requiredText(300),
  /** The provider's code of the item; a line with a known one finds its item by itself. */
  skuProvider: optionalText(60),
  quantity: quantityField(),
  unitPrice: moneyAmount(),
  discountRate: percentage().default('0'),
  vatRate: percentage(),
};
export const documentLineInputSchema = z.object(documentLineFields).superRefine((line, ctx) => {
  if (line.itemId && !/^\d+\.00$/.test(line.quantity))
    ctx.addIssue({ code: 'custom', path: ['quantity'], message: 'whole_quantity_required' });
});
export type DocumentLineInput = z.input<typeof documentLineInputSchema>;

export const maxDocumentLines = 200;

/** What a purchase document states, as typed from the provider's paper. */
export const purchaseFields = {
  providerId: idSchema,
  documentType: z.enum(purchaseDocumentTypes),
  /** The provider's point of sale ('0001'). */
  pointOfService: pointOfSaleCode(),
  /** The provider's number: unique per provider, type and point of sale. */
  documentNumber: documentNumberField(),
  date: calendarDate(),
  /** Null: the provider's payment term from `date`. */
  dueDate: optionalCalendarDate(),
  currency: z.enum(currencies),
  conditionSale: z.enum(conditionsSale).default('current_account'),
  paymentMethod: z
    .enum(paymentMethods)
    .nullish()
    .transform((value) => value ?? null),
  notes: optionalText(2000),
  /** The document a credit or debit note corrects, or the delivery note an invoice bills. */
  relatedDocumentId: optionalId(),
  /** A credit note for goods sent back to the provider: its catalogue lines leave the stock. */
  returnsGoods: z.boolean().default(false),
  lines: z.array(documentLineInputSchema).min(1, 'required').max(maxDocumentLines, 'too_big'),
};

function refineDocument(
  value: { documentType: string; relatedDocumentId: string | null; date: string; dueDate: string | null },
  ctx: z.RefinementCtx,
) {
  if ((correctingDocumentTypes as readonly string[]).includes(value.documentType) && !value.relatedDocumentId)
    ctx.addIssue({ code: 'custom', path: ['relatedDocumentId'], message: 'related_document_required' });
  if (value.dueDate && value.dueDate < value.date)
    ctx.addIssue({ code: 'custom', path: ['dueDate'], message: 'due_before_date' });
}

/** POST /api/purchases: a draft, or registered at once with `register: true`. */
export const createPurchaseSchema = z
  .object({ ...purchaseFields, register: z.boolean().default(false) })
  .superRefine(refineDocument);
export type CreatePurchase = z.output<typeof createPurchaseSchema>;
/** PUT /api/purchases/:id: a draft's new content (409 `document_final` once registered). */
export const updatePurchaseSchema = z
  .object({ ...purchaseFields, version: versionField, register: z.boolean().default(false) })
  .superRefine(refineDocument);
export type UpdatePurchase = z.output<typeof updatePurchaseSchema>;
/** POST /api/purchases/:id/register: the draft's version. */
export const registerDocumentSchema = z.object({ version: versionField });

export const documentLineSchema = z.object({
  id: idSchema,
  position: z.number().int(),
  itemId: z.string().nullable(),
  itemName: z.string().nullable(),
  itemKind: z.enum(['medication', 'supply']).nullable(),
  description: z.string(),
  skuProvider: z.string().nullable(),
  quantity: z.string(),
  unitPrice: z.string(),
  discountRate: z.string(),
  vatRate: z.string(),
  subtotal1: z.string(),
  discount: z.string(),
  subtotal: z.string(),
  vat: z.string(),
  total: z.string(),
});
export type DocumentLine = z.infer<typeof documentLineSchema>;

export const vatShareSchema = z.object({ rate: z.string(), base: z.string(), vat: z.string() });

/** Another document in a line of its own: a related document, an allocation's document. */
export const documentRefSchema = z.object({
  id: idSchema,
  documentType: z.enum(documentTypes),
  pointOfService: z.string().nullable(),
  documentNumber: z.string().nullable(),
  date: z.string(),
  total: z.string(),
});
export type DocumentRef = z.infer<typeof documentRefSchema>;

const documentHead = {
  id: idSchema,
  side: z.enum(['purchase', 'sale']),
  status: z.enum(documentStatuses),
  documentType: z.enum(documentTypes),
  providerId: z.string().nullable(),
  providerName: z.string().nullable(),
  pointOfService: z.string().nullable(),
  documentNumber: z.string().nullable(),
  date: z.string(),
  dueDate: z.string().nullable(),
  currency: z.enum(currencies),
  conditionSale: z.enum(conditionsSale).nullable(),
  paymentMethod: z.enum(paymentMethods).nullable(),
  subtotal2: z.string(),
  vatTotal: z.string(),
  total: z.string(),
  /** What is still owed on it (signed as the current account; 0 when it moves no money). */
  openAmount: z.string(),
  registeredAt: z.string().nullable(),
};

/** A row of the documents' list. */
export const purchaseListItemSchema = z.object({ ...documentHead, updatedAt: z.string(), version: z.number().int() });
export type PurchaseListItem = z.infer<typeof purchaseListItemSchema>;

/** One document with its lines, totals, related documents and the parties' copied data. */
export const purchaseSchema = z.object({
  ...documentHead,
  notes: z.string().nullable(),
  relatedDocumentId: z.string().nullable(),
  relatedDocument: documentRefSchema.nullable(),
  /** Credit and debit notes that correct it, and the invoice that bills a delivery note. */
  relatedFrom: z.array(documentRefSchema),
  returnsGoods: z.boolean(),
  movedStock: z.boolean(),
  subtotal1: z.string(),
  discountTotal: z.string(),
  vatBreakdown: z.array(vatShareSchema),
  issuerSnapshot: partySnapshotSchema.nullable(),
  counterpartySnapshot: partySnapshotSchema.nullable(),
  registeredByName: z.string().nullable(),
  lines: z.array(documentLineSchema),
  /** Payments and credit notes applied to it. */
  allocations: z.array(
    z.object({
      id: idSchema,
      paymentId: z.string().nullable(),
      paymentNumber: z.string().nullable(),
      creditDocumentId: z.string().nullable(),
      date: z.string(),
      amount: z.string(),
      reversed: z.boolean(),
    }),
  ),
  ...recordStampsSchema,
});
export type Purchase = z.infer<typeof purchaseSchema>;

export const purchaseResponseSchema = z.object({
  data: purchaseSchema,
  code: z.enum(['purchase_created', 'purchase_updated', 'purchase_registered']).optional(),
});
export const purchaseDeletedSchema = z.object({ code: z.literal('purchase_deleted') });

export const purchaseSortColumns = ['date', 'documentNumber', 'total', 'dueDate'] as const;
export const purchaseListQuerySchema = listQuerySchema(purchaseSortColumns).extend({
  providerId: idSchema.optional(),
  documentType: z.enum(purchaseDocumentTypes).optional(),
  status: z.enum(['draft', 'registered']).optional(),
  from: calendarDate().optional(),
  to: calendarDate().optional(),
});
export type PurchaseListQuery = z.output<typeof purchaseListQuerySchema>;
export const purchasePageSchema = pageSchema(purchaseListItemSchema);

/** GET /api/items/by-provider-sku: the catalogue item a provider's SKU was last paired with. */
export const providerSkuQuerySchema = z.object({ providerId: idSchema, sku: requiredText(60) });
export const providerSkuMatchSchema = z.object({
  data: z
    .object({
      itemId: idSchema,
      itemName: z.string(),
      itemKind: z.enum(['medication', 'supply']),
      lastUnitCost: z.string().nullable(),
    })
    .nullable(),
});
