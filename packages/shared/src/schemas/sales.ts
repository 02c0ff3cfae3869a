import { z } from 'zod';
import { refineLineTotals } from '../amount-bounds.ts';
import { dateText, decimalText, instantText, moneyText, named } from '../api-schema.ts';
import { correctingDocumentTypes, einvoiceStatuses, saleDocumentTypes } from '../commercial.ts';
import { fdiTeeth } from '../enums.ts';
import {
  calendarDate,
  moneyAmount,
  optionalCalendarDate,
  optionalId,
  percentage,
  requiredText,
  safeText,
} from '../validation.ts';
import { pointOfSaleCode } from './clinic-fiscal.ts';
import {
  documentBaseSchema,
  documentLineSchema,
  documentTermsFields,
  maxDocumentLines,
  quantityField,
} from './commercial-documents.ts';
import { idSchema, listQuerySchema, pageSchema } from './common.ts';
import { versionField } from './records.ts';

/**
 * Sales (issue 18): the clinic's own documents to its customers — a patient, a company or an
 * insurer. The same document model as purchases (commercial-documents.ts), numbered by the clinic
 * when issued (`0001-00000123`) and chained by hash per point of sale (sale-chain.ts).
 */

const knownTeeth = new Set(fdiTeeth.map(String));
/** One tooth in FDI notation ('16'), or nothing. */
export const toothField = () =>
  z
    .union([safeText(), z.number()])
    .nullish()
    .transform((value) => (value === null || value === undefined ? '' : String(value).trim()))
    .refine((value) => value === '' || knownTeeth.has(value), 'invalid_tooth')
    .transform((value) => (value === '' ? null : value));

export const saleLineFields = {
  /** A medicine or supply of the catalogue (moves stock when an invoice or delivery note is issued). */
  itemId: optionalId(),
  /** A treatment of the price list. */
  treatmentId: optionalId(),
  tooth: toothField(),
  description: requiredText(300),
  quantity: quantityField(),
  unitPrice: moneyAmount(),
  discountRate: percentage().default('0'),
  vatRate: percentage(),
  /** What the line bills: an attendance's fee (attendanceId alone) or one of its lines… */
  attendanceId: optionalId(),
  attendanceLineId: optionalId(),
  /** …or a line of the budget (or document) it was made from. */
  sourceLineId: optionalId(),
  /**
   * Who did it (issue 35): production by professional counts the line for them. Omitted: the
   * professional of the attendance or budget line it bills; null: none (sold at the desk).
   */
  professionalId: idSchema.nullish(),
};
export const saleLineInputSchema = z.object(saleLineFields).superRefine((line, ctx) => {
  if (line.itemId && line.treatmentId)
    ctx.addIssue({ code: 'custom', path: ['treatmentId'], message: 'item_or_treatment' });
  if (line.itemId && !/^\d+\.00$/.test(line.quantity))
    ctx.addIssue({ code: 'custom', path: ['quantity'], message: 'whole_quantity_required' });
  if (line.attendanceLineId && !line.attendanceId)
    ctx.addIssue({ code: 'custom', path: ['attendanceId'], message: 'required' });
});
export type SaleLineInput = z.input<typeof saleLineInputSchema>;

export const saleFields = {
  documentType: z.enum(saleDocumentTypes),
  /** A company's or insurer's customer id… */
  customerId: optionalId(),
  /** …or a patient (their customer row is made on first billing). */
  patientId: optionalId(),
  /** The clinic's point of sale ('0001'): it numbers the document when issued. */
  pointOfService: pointOfSaleCode(),
  date: calendarDate(),
  /** Null: the customer's payment term from `date` (current account only). */
  dueDate: optionalCalendarDate(),
  ...documentTermsFields,
  /** A credit note for goods the customer gave back: its catalogue lines go back to stock. */
  returnsGoods: z.boolean().default(false),
  lines: z.array(saleLineInputSchema).min(1, 'required').max(maxDocumentLines, 'too_big').superRefine(refineLineTotals),
};

const cardMethods = new Set(['credit_card', 'debit_card']);

function refineSale(
  value: {
    documentType: string;
    customerId: string | null;
    patientId: string | null;
    relatedDocumentId: string | null;
    date: string;
    dueDate: string | null;
    conditionSale: string;
    paymentMethod: string | null;
  },
  ctx: z.RefinementCtx,
) {
  if (!value.customerId && !value.patientId)
    ctx.addIssue({ code: 'custom', path: ['customerId'], message: 'required' });
  if ((correctingDocumentTypes as readonly string[]).includes(value.documentType) && !value.relatedDocumentId)
    ctx.addIssue({ code: 'custom', path: ['relatedDocumentId'], message: 'related_document_required' });
  if (value.dueDate && value.dueDate < value.date)
    ctx.addIssue({ code: 'custom', path: ['dueDate'], message: 'due_before_date' });
  if (value.conditionSale === 'cards' && !(value.paymentMethod && cardMethods.has(value.paymentMethod)))
    ctx.addIssue({ code: 'custom', path: ['paymentMethod'], message: 'card_method_required' });
  if (value.conditionSale === 'cash' && value.paymentMethod && value.paymentMethod !== 'cash_payment')
    ctx.addIssue({ code: 'custom', path: ['paymentMethod'], message: 'cash_method_required' });
}

/**
 * Where a sale issued on cash or cards takes its money (issue 40): the cash register whose open
 * session receives the collection the issue creates. Not stored on the sale: it is the
 * collection's (and its register movement's); null or omitted, collected outside any register.
 */
const saleRegister = { registerId: idSchema.nullish() };

/** POST /api/sales: a draft, or issued at once with `issue: true`. */
export const createSaleSchema = z
  .object({ ...saleFields, issue: z.boolean().default(false), ...saleRegister })
  .superRefine(refineSale);
export type CreateSale = z.output<typeof createSaleSchema>;
export type CreateSaleInput = z.input<typeof createSaleSchema>;
/** PUT /api/sales/:id: a draft's new content (409 document_final once issued). */
export const updateSaleSchema = z
  .object({ ...saleFields, version: versionField, issue: z.boolean().default(false), ...saleRegister })
  .superRefine(refineSale);
export type UpdateSale = z.output<typeof updateSaleSchema>;
/** POST /api/sales/:id/issue: the draft's version, and the register that takes its cash or cards. */
export const issueSaleSchema = z.object({ version: versionField, ...saleRegister });
/** POST /api/sales/:id/correct: a draft credit or debit note of an issued invoice, debit note or receipt. */
export const correctSaleSchema = z.object({ documentType: z.enum(correctingDocumentTypes) });

export const saleLineSchema = named(
  'SaleLine',
  documentLineSchema.extend({
    treatmentId: z.string().nullable(),
    tooth: z.string().nullable(),
    attendanceId: z.string().nullable(),
    attendanceLineId: z.string().nullable(),
    sourceLineId: z.string().nullable(),
    professionalId: z.string().nullable(),
    professionalName: z.string().nullable(),
  }),
);
export type SaleLine = z.infer<typeof saleLineSchema>;

const saleHead = {
  customerId: z.string().nullable(),
  customerName: z.string().nullable(),
  patientId: z.string().nullable(),
  /** The printed number, `0001-00000123`; null while a draft. */
  number: z.string().nullable(),
};

export const saleListItemSchema = named(
  'SaleListItem',
  documentBaseSchema
    .pick({
      id: true,
      side: true,
      status: true,
      documentType: true,
      pointOfService: true,
      documentNumber: true,
      date: true,
      dueDate: true,
      currency: true,
      conditionSale: true,
      paymentMethod: true,
      subtotal2: true,
      vatTotal: true,
      total: true,
      openAmount: true,
      registeredAt: true,
      updatedAt: true,
      version: true,
    })
    .extend(saleHead),
);
export type SaleListItem = z.infer<typeof saleListItemSchema>;

export const einvoiceSchema = named(
  'SaleEinvoice',
  z.object({
    /** The regime it went under: local, arca, verifactu. */
    adapter: z.string(),
    /** Where it went: a homologation (test) authorisation has no fiscal validity either. */
    environment: z.enum(['homologation', 'production']).nullable(),
    status: z.enum(einvoiceStatuses),
    attempts: z.number().int(),
    /** ARCA: A, B or C; the voucher type code (6 = Factura B); the authority's number, '0003-00000042'. */
    letter: z.string().nullable(),
    voucherType: z.number().int().nullable(),
    fiscalNumber: z.string().nullable(),
    /** The authority's code: ARCA's CAE, the AEAT's CSV. */
    authorizationCode: z.string().nullable(),
    /** ARCA: the CAE's due date. */
    authorizationDueDate: dateText().nullable(),
    authorizedAt: instantText().nullable(),
    qrUrl: z.string().nullable(),
    /** The authority's observations and errors, each with our message key when we know it. */
    messages: z.array(z.object({ code: z.string(), key: z.string().nullable(), message: z.string() })),
    lastError: z.string().nullable(),
  }),
);
export type Einvoice = z.infer<typeof einvoiceSchema>;

export const saleSchema = named(
  'Sale',
  documentBaseSchema.omit({ providerId: true, providerName: true, lines: true }).extend({
    ...saleHead,
    documentType: z.enum(saleDocumentTypes),
    lines: z.array(saleLineSchema),
    sequenceNumber: z.number().int().nullable(),
    chainIndex: z.number().int().nullable(),
    previousHash: z.string().nullable(),
    contentHash: z.string().nullable(),
    einvoice: einvoiceSchema.nullable(),
  }),
);
export type Sale = z.infer<typeof saleSchema>;

export const saleResponseSchema = z.object({
  data: saleSchema,
  code: z.enum(['sale_created', 'sale_updated', 'sale_issued', 'einvoice_retry_queued']).optional(),
});
export const saleDeletedSchema = z.object({ code: z.literal('sale_deleted') });
export const saleSentSchema = z.object({ code: z.literal('sale_sent'), to: z.string() });

export const saleSortColumns = ['date', 'documentNumber', 'total', 'dueDate'] as const;
export const saleListQuerySchema = listQuerySchema(saleSortColumns).extend({
  customerId: idSchema.optional(),
  patientId: idSchema.optional(),
  documentType: z.enum(saleDocumentTypes).optional(),
  status: z.enum(['draft', 'issued']).optional(),
  dateFrom: calendarDate().optional(),
  dateTo: calendarDate().optional(),
});
export type SaleListQuery = z.output<typeof saleListQuerySchema>;
export const salePageSchema = pageSchema(saleListItemSchema);

/** GET /api/sales/integrity: the numbering and hash-chain report (sale-chain.ts verifySaleChains). */
export const saleIntegrityQuerySchema = z.object({ pointOfService: pointOfSaleCode().optional() });
const chainProblemSchema = z.object({
  kind: z.enum(['content_changed', 'link_broken', 'index_gap', 'chain_head_mismatch', 'date_out_of_order']),
  documentId: z.string().nullable(),
  documentType: z.string().nullable(),
  documentNumber: z.string().nullable(),
  chainIndex: z.number().int().nullable(),
});
const numberRangeSchema = z.object({ documentType: z.string(), from: z.number().int(), to: z.number().int() });
export const saleIntegritySchema = z.object({
  data: z.object({
    ok: z.boolean(),
    checkedAt: instantText(),
    pointsOfSale: z.array(
      z.object({
        pointOfService: z.string(),
        documents: z.number().int(),
        lastNumbers: z.array(z.object({ documentType: z.string(), lastNumber: z.number().int() })),
        gaps: z.array(numberRangeSchema),
        /** Numbers jumped on purpose in the settings (a starting number): not missing documents. */
        skipped: z.array(numberRangeSchema),
        problems: z.array(chainProblemSchema),
        lastHash: z.string().nullable(),
      }),
    ),
  }),
});
export type SaleIntegrity = z.infer<typeof saleIntegritySchema>['data'];

/** GET /api/billables?q=: the price list's treatments and the catalogue's items in one search. */
export const billablesQuerySchema = z.object({ q: safeText().trim().max(100, 'too_long').default('') });
export const billableSchema = z.object({
  kind: z.enum(['treatment', 'medication', 'supply']),
  id: idSchema,
  code: z.string().nullable(),
  name: z.string(),
  group: z.string().nullable(),
  unitPrice: moneyText(),
  vatRate: decimalText(),
  /** Units in stock (catalogue items), null for a treatment. */
  stock: z.number().int().nullable(),
});
export type Billable = z.infer<typeof billableSchema>;
export const billablesSchema = z.object({ data: z.array(billableSchema) });
