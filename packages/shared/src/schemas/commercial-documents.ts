import { z } from 'zod';
import { refineLineTotals } from '../amount-bounds.ts';
import { dateText, decimalText, instantText, moneyText, named } from '../api-schema.ts';
import { correctingDocumentTypes, documentStatuses, purchaseDocumentTypes } from '../commercial.ts';
import { normalizeDecimal } from '../decimal-input.ts';
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
  tooBigIssue,
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

const quantityPattern = /^\d+(\.\d{1,2})?$/;
/** The largest quantity of a line: numeric(12,2) keeps ten digits before the point; 999.999.999 is plenty. */
export const maxLineQuantity = 999_999_999;
/** A quantity > 0 with at most two decimals, typed "2", "1,5", "1.000"; answered as a decimal string. */
export const quantityField = () =>
  z
    .union([safeText(), z.number()])
    .transform((value) => (String(value).trim() === '' ? '' : (normalizeDecimal(value) ?? String(value).trim())))
    .refine((value) => value !== '', 'required')
    .refine((value) => value === '' || quantityPattern.test(value), 'invalid_number')
    .refine((value) => !quantityPattern.test(value) || Number(value) > 0, 'too_small')
    .superRefine((value, ctx) => {
      if (quantityPattern.test(value) && Number(value) > maxLineQuantity) tooBigIssue(ctx, maxLineQuantity);
    })
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

/**
 * A purchase line: a document line and, on a delivery note or invoice that receives a purchase
 * order (issue 35), the order's line it receives.
 */
export const purchaseLineInputSchema = z
  .object({ ...documentLineFields, sourceLineId: optionalId() })
  .superRefine((line, ctx) => {
    if (line.itemId && !/^\d+\.00$/.test(line.quantity))
      ctx.addIssue({ code: 'custom', path: ['quantity'], message: 'whole_quantity_required' });
  });

/** The terms a purchase and a sale document both state, and the document a note corrects. */
export const documentTermsFields = {
  currency: z.enum(currencies),
  conditionSale: z.enum(conditionsSale).default('current_account'),
  paymentMethod: z
    .enum(paymentMethods)
    .nullish()
    .transform((value) => value ?? null),
  notes: optionalText(2000),
  /** The document a credit or debit note corrects, or the delivery note an invoice bills. */
  relatedDocumentId: optionalId(),
};

/** What a purchase document states, as typed from the provider's paper. */
export const purchaseFields = {
  providerId: idSchema,
  documentType: z.enum(purchaseDocumentTypes),
  /** The provider's point of sale ('0001'); none on a purchase order (the clinic numbers it). */
  pointOfService: pointOfSaleCode()
    .nullish()
    .transform((value) => value ?? null),
  /** The provider's number: unique per provider, type and point of sale; none on a purchase order. */
  documentNumber: documentNumberField()
    .nullish()
    .transform((value) => value ?? null),
  date: calendarDate(),
  /** Null: the provider's payment term from `date`. */
  dueDate: optionalCalendarDate(),
  /** The day a purchase order asks the goods for (issue 35); ignored on other documents. */
  deliveryDate: optionalCalendarDate(),
  ...documentTermsFields,
  /** A credit note for goods sent back to the provider: its catalogue lines leave the stock. */
  returnsGoods: z.boolean().default(false),
  lines: z
    .array(purchaseLineInputSchema)
    .min(1, 'required')
    .max(maxDocumentLines, 'too_big')
    .superRefine(refineLineTotals),
};

function refineDocument(
  value: {
    documentType: string;
    relatedDocumentId: string | null;
    date: string;
    dueDate: string | null;
    pointOfService: string | null;
    documentNumber: string | null;
  },
  ctx: z.RefinementCtx,
) {
  // The provider's paper has its number; a purchase order is numbered by the clinic when registered.
  if (value.documentType !== 'purchase_order') {
    if (!value.pointOfService) ctx.addIssue({ code: 'custom', path: ['pointOfService'], message: 'required' });
    if (!value.documentNumber) ctx.addIssue({ code: 'custom', path: ['documentNumber'], message: 'required' });
  }
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

export const documentLineSchema = named(
  'DocumentLine',
  z.object({
    id: idSchema,
    position: z.number().int(),
    itemId: z.string().nullable(),
    itemName: z.string().nullable(),
    itemKind: z.enum(['medication', 'supply']).nullable(),
    description: z.string(),
    skuProvider: z.string().nullable(),
    quantity: decimalText(),
    unitPrice: moneyText(),
    discountRate: decimalText(),
    vatRate: decimalText(),
    subtotal1: moneyText(),
    discount: moneyText(),
    subtotal: moneyText(),
    vat: moneyText(),
    total: moneyText(),
  }),
);
export type DocumentLine = z.infer<typeof documentLineSchema>;

export const vatShareSchema = named('VatShare', z.object({ rate: decimalText(), base: moneyText(), vat: moneyText() }));

/** Another document in a line of its own: a related document, an allocation's document. */
export const documentRefSchema = named(
  'DocumentRef',
  z.object({
    id: idSchema,
    documentType: z.enum(documentTypes),
    pointOfService: z.string().nullable(),
    documentNumber: z.string().nullable(),
    date: dateText(),
    total: moneyText(),
  }),
);
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
  date: dateText(),
  dueDate: dateText().nullable(),
  currency: z.enum(currencies),
  conditionSale: z.enum(conditionsSale).nullable(),
  paymentMethod: z.enum(paymentMethods).nullable(),
  subtotal2: moneyText(),
  vatTotal: moneyText(),
  total: moneyText(),
  /** What is still owed on it (signed as the current account; 0 when it moves no money). */
  openAmount: moneyText(),
  registeredAt: instantText().nullable(),
};

/** A row of the documents' list. */
export const purchaseListItemSchema = named(
  'PurchaseListItem',
  z.object({
    ...documentHead,
    updatedAt: instantText(),
    version: z.number().int(),
  }),
);
export type PurchaseListItem = z.infer<typeof purchaseListItemSchema>;

/** One document with its lines, totals, related documents and the parties' copied data (sales extend it too). */
export const documentBaseSchema = z.object({
  ...documentHead,
  notes: z.string().nullable(),
  relatedDocumentId: z.string().nullable(),
  relatedDocument: documentRefSchema.nullable(),
  /** Credit and debit notes that correct it, and the invoice that bills a delivery note. */
  relatedFrom: z.array(documentRefSchema),
  returnsGoods: z.boolean(),
  movedStock: z.boolean(),
  subtotal1: moneyText(),
  discountTotal: moneyText(),
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
      date: dateText(),
      amount: moneyText(),
      reversed: z.boolean(),
    }),
  ),
  ...recordStampsSchema,
});

/** A purchase line as answered: the order line it receives, if any. */
export const purchaseLineSchema = documentLineSchema.extend({ sourceLineId: z.string().nullable() });

/** How far a registered purchase order is received (issue 35). */
export const orderReceptionStatuses = ['pending', 'partially_received', 'received'] as const;
export type OrderReceptionStatus = (typeof orderReceptionStatuses)[number];

/** A registered purchase order's receptions: per line ordered, received (registered receipts) and pending. */
export const orderReceptionSchema = z.object({
  status: z.enum(orderReceptionStatuses),
  lines: z.array(
    z.object({
      lineId: idSchema,
      description: z.string(),
      ordered: decimalText(),
      received: decimalText(),
      pending: decimalText(),
    }),
  ),
  /** The delivery notes and invoices that receive it (drafts too, with their status). */
  receipts: z.array(documentRefSchema.extend({ status: z.enum(documentStatuses) })),
  /** Each e-mail of the order to its provider. */
  sends: z.array(z.object({ sentAt: instantText(), to: z.string(), sentByName: z.string().nullable() })),
});
export type OrderReception = z.infer<typeof orderReceptionSchema>;

/** One purchase: the document, its delivery date and, for a registered order, its receptions. */
export const purchaseSchema = named(
  'Purchase',
  documentBaseSchema.extend({
    deliveryDate: dateText().nullable(),
    lines: z.array(purchaseLineSchema),
    order: orderReceptionSchema.nullable(),
  }),
);
export type Purchase = z.infer<typeof purchaseSchema>;

/** POST /api/purchases/:id/receive: a draft delivery note or invoice of what is still pending. */
export const receiveOrderSchema = z.object({
  documentType: z.enum(['delivery_note', 'invoice']),
  /** Less than what is pending, line by line; absent: everything pending. */
  lines: z
    .array(z.object({ sourceLineId: idSchema, quantity: quantityField() }))
    .max(maxDocumentLines, 'too_big')
    .optional(),
});
export type ReceiveOrder = z.output<typeof receiveOrderSchema>;

/** POST /api/purchases/:id/send: the order was e-mailed to its provider. */
export const purchaseOrderSentSchema = z.object({
  code: z.literal('purchase_order_sent'),
  to: z.string(),
  sentAt: z.string(),
});

export const purchaseResponseSchema = z.object({
  data: purchaseSchema,
  code: z.enum(['purchase_created', 'purchase_updated', 'purchase_registered', 'purchase_received']).optional(),
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
      lastUnitCost: decimalText().nullable(),
    })
    .nullable(),
});
