import type { PaymentMethod } from '@odontia/shared/enums';
import type { TaxIdKind } from '@odontia/shared/tax-ids';
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  customType,
  date,
  foreignKey,
  index,
  integer,
  jsonb,
  numeric,
  type PgColumn,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { keptKey } from '../spanish-order.ts';
import { accounts } from './accounts.ts';
import { treatments } from './agenda.ts';
import { attendances } from './clinical.ts';
import { clinicColumn, clinicRowColumns } from './columns.ts';
import { inventoryItems } from './inventory.ts';
import { patientRecordKeys, patientRef } from './patients.ts';
import {
  clinicKeys,
  clinicKeysOn,
  clinicRef,
  clinicSearchIndex,
  recordKeys,
  recordStamps,
  userRefs,
} from './records.ts';

/**
 * The commercial area (issue 17; the sales side of issue 18 shares it): the clinic's points of
 * sale and logo (its fiscal data are columns of `accounts`), providers, ONE document model for
 * purchases and sales with its lines, payments and collections with their allocations to
 * documents, and ONE current-account ledger with the balance of each party kept beside it.
 *
 * Money is numeric(14,2) and a decimal string in code. Registered documents, payments and ledger
 * entries are never updated in what they say nor deleted: the migration's triggers refuse it, and
 * corrections are new rows (credit/debit notes, reversals).
 */

const money = (name: string) => numeric(name, { precision: 14, scale: 2 });
/**
 * A figure summed over any number of documents (a day's sales, issue 35): room for a million
 * documents of the largest amount a document may hold, so no day's figure can overflow.
 */
const figureAmount = (name: string) => numeric(name, { precision: 20, scale: 2 });
/** Issue 35: a document or a payment is in its clinic's currency (accounts_id_currency_unique). */
const clinicCurrency = (table: { accountId: PgColumn; currency: PgColumn }, name: string) =>
  foreignKey({
    columns: [table.accountId, table.currency],
    foreignColumns: [accounts.id, accounts.systemCurrency],
    name,
  });
const bytea = customType<{ data: Buffer }>({ dataType: () => 'bytea' });

/** The clinic's logo, printed on every PDF: one row per clinic, the bytes in the database (backed up with it). */
export const clinicLogos = pgTable(
  'clinic_logos',
  {
    ...clinicColumn,
    contentType: text('content_type').notNull(),
    bytes: bytea('bytes').notNull(),
    sha256: text('sha256').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    updatedBy: uuid('updated_by'),
  },
  (table) => [
    ...clinicKeysOn(table),
    ...userRefs({ accountId: table.accountId, id: table.accountId }, table.updatedBy),
  ],
);

/** A point of sale (punto de venta, e.g. 0001): the prefix of the clinic's own document numbers. */
export const pointsOfSale = pgTable(
  'points_of_sale',
  {
    ...clinicRowColumns,
    /** Four or five digits, '0001'. */
    code: text('code').notNull(),
    name: text('name').notNull(),
    active: boolean('active').notNull().default(true),
    /** The authority's number for it (ARCA's punto de venta enabled for web services); null: the code's. */
    authorityNumber: integer('authority_number'),
    ...recordStamps,
  },
  (table) => [
    ...recordKeys(table),
    uniqueIndex('points_of_sale_code_unique').on(table.accountId, table.code).where(sql`${table.deletedAt} is null`),
    check('points_of_sale_code', sql`${table.code} ~ '^[0-9]{4,5}$'`),
    check(
      'points_of_sale_authority_number',
      sql`${table.authorityNumber} is null or ${table.authorityNumber} between 1 and 99998`,
    ),
  ],
);

/** Spec §3 "Provider". `tax_id_key` is the tax id without separators, upper-cased: unique per clinic. */
export const providers = pgTable(
  'providers',
  {
    ...clinicRowColumns,
    nif: text('nif'),
    /** Which kind of tax id `nif` is (cuit, nif, cnpj, siren…), so its check digits are checked. */
    taxIdKind: text('tax_id_kind').$type<TaxIdKind>(),
    taxIdKey: text('tax_id_key').generatedAlwaysAs(
      sql`nullif(upper(regexp_replace(nif, '[^0-9A-Za-z]', '', 'g')), '')`,
    ),
    fantasyName: text('fantasy_name').notNull(),
    bussinesName: text('bussines_name'),
    companyName: text('company_name'),
    fiscalCondition: text('fiscal_condition'),
    bankName: text('bank_name'),
    bankAccount: text('bank_account'),
    bankKey: text('bank_key'),
    currency: text('currency').notNull(),
    contactName: text('contact_name'),
    commercialAddress: text('commercial_address'),
    phoneAreaBussines: text('phone_area_bussines'),
    phoneBusiness: text('phone_business'),
    phoneMobile: text('phone_mobile'),
    email: text('email'),
    /** Days from a document's date to its due date when the paper does not say (0 = cash). */
    paymentTermDays: integer('payment_term_days').notNull().default(30),
    notes: text('notes'),
    active: boolean('active').notNull().default(true),
    searchText: text('search_text').generatedAlwaysAs(
      sql`odontia_search_text(fantasy_name, bussines_name, company_name, nif, contact_name)`,
    ),
    /** The name's key in Spanish order (db/spanish-order.ts), kept on write: the current accounts sort every provider by it. */
    nameKey: text('name_key').generatedAlwaysAs(sql`odontia_sort_key(fantasy_name)`),
    ...recordStamps,
  },
  (table) => [
    ...recordKeys(table),
    uniqueIndex('providers_tax_id_unique')
      .on(table.accountId, table.taxIdKey)
      .where(sql`${table.deletedAt} is null and ${table.taxIdKey} is not null`),
    index('providers_name_idx')
      .on(table.accountId, keptKey(table.nameKey), table.id)
      .where(sql`${table.deletedAt} is null`),
    clinicSearchIndex('providers_search_idx', table),
    check('providers_payment_term', sql`${table.paymentTermDays} between 0 and 365`),
  ],
);

/**
 * The provider's SKU of a catalogue item, remembered the first time a purchase line pairs them,
 * so the next document's line with that SKU finds the item by itself.
 */
export const providerItems = pgTable(
  'provider_items',
  {
    ...clinicColumn,
    providerId: uuid('provider_id').notNull(),
    /** The provider's SKU, trimmed and lower-cased. */
    skuKey: text('sku_key').notNull(),
    sku: text('sku').notNull(),
    itemId: uuid('item_id').notNull(),
    lastUnitCost: money('last_unit_cost'),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.accountId, table.providerId, table.skuKey] }),
    foreignKey({ columns: [table.accountId, table.providerId], foreignColumns: [providers.accountId, providers.id] }),
    foreignKey({
      columns: [table.accountId, table.itemId],
      foreignColumns: [inventoryItems.accountId, inventoryItems.id],
    }),
    index('provider_items_item_idx').on(table.accountId, table.itemId),
  ],
);

/**
 * Who a sale bills (issue 18): a patient, or another party the clinic bills — a company or an
 * insurer (obra social, mutua, seguradora) — with its own fiscal data. Every sale and collection
 * names a customer, so the customers' current accounts are one table whatever the party. A
 * patient's customer row is made the first time the patient is billed (one per patient); its
 * name, e-mail and language follow the patient (a trigger of migration 0018), its fiscal data
 * (tax id, condition, address for the invoice) are the customer's own.
 */
export const customers = pgTable(
  'customers',
  {
    ...clinicRowColumns,
    kind: text('kind', { enum: ['patient', 'company', 'insurer'] }).notNull(),
    patientId: uuid('patient_id'),
    /** The name on the invoice: the patient's "Last, First", or the company's legal name. */
    name: text('name').notNull(),
    tradeName: text('trade_name'),
    country: text('country'),
    taxIdKind: text('tax_id_kind').$type<TaxIdKind>(),
    taxId: text('tax_id'),
    taxIdKey: text('tax_id_key').generatedAlwaysAs(
      sql`nullif(upper(regexp_replace(tax_id, '[^0-9A-Za-z]', '', 'g')), '')`,
    ),
    fiscalCondition: text('fiscal_condition'),
    address: text('address'),
    city: text('city'),
    province: text('province'),
    postalCode: text('postal_code'),
    email: text('email'),
    phone: text('phone'),
    /** The language of its documents, statements and e-mails. */
    language: text('language').notNull().default('es'),
    /** Days from an invoice on current account to its due date. */
    paymentTermDays: integer('payment_term_days').notNull().default(0),
    notes: text('notes'),
    active: boolean('active').notNull().default(true),
    searchText: text('search_text').generatedAlwaysAs(sql`odontia_search_text(name, trade_name, tax_id, email, phone)`),
    /** The name's key in Spanish order (db/spanish-order.ts), kept on write: the current accounts sort every customer by it. */
    nameKey: text('name_key').generatedAlwaysAs(sql`odontia_sort_key(name)`),
    ...recordStamps,
  },
  (table) => [
    ...patientRecordKeys(table),
    uniqueIndex('customers_patient_unique')
      .on(table.accountId, table.patientId)
      .where(sql`${table.patientId} is not null`),
    uniqueIndex('customers_tax_id_unique')
      .on(table.accountId, table.taxIdKey)
      .where(sql`${table.deletedAt} is null and ${table.taxIdKey} is not null and ${table.kind} <> 'patient'`),
    index('customers_name_idx')
      .on(table.accountId, keptKey(table.nameKey), table.id)
      .where(sql`${table.deletedAt} is null`),
    clinicSearchIndex('customers_search_idx', table),
    check('customers_patient', sql`(${table.kind} = 'patient') = (${table.patientId} is not null)`),
    check('customers_payment_term', sql`${table.paymentTermDays} between 0 and 365`),
  ],
);

/**
 * One document model for both sides (ARCHITECTURE §4 "Commercial documents"). `side` purchase:
 * typed from a provider's paper, its number is the provider's. `side` sale (issue 18): numbered
 * by the clinic at issue. A draft has `status` draft and may change; `registered` (a purchase)
 * or `issued` (a sale) is final: the database refuses any change but `open_amount` (allocations)
 * and `version`/`updated_*` that go with it. Totals: `subtotal1` the lines' quantity × price
 * before discounts, `discount_total`, `subtotal2` the taxable net after discounts, `vat_total`
 * (per rate in `vat_breakdown`), `total`. `open_amount` is what is still owed on it, signed as the
 * ledger (a credit note's is negative) and 0 for documents without money effect.
 */
export const commercialDocuments = pgTable(
  'commercial_documents',
  {
    ...clinicRowColumns,
    side: text('side', { enum: ['purchase', 'sale'] }).notNull(),
    status: text('status', { enum: ['draft', 'registered', 'issued'] })
      .notNull()
      .default('draft'),
    documentType: text('document_type').notNull(),
    providerId: uuid('provider_id'),
    /** A sale's customer (issue 18); `patient_id` too when the customer is a patient. */
    customerId: uuid('customer_id'),
    patientId: uuid('patient_id'),
    pointOfService: text('point_of_service'),
    documentNumber: text('document_number'),
    /** A sale's number as a number (123 of '00000123'): the numbering report finds gaps with it. */
    sequenceNumber: integer('sequence_number'),
    date: date('date', { mode: 'string' }).notNull(),
    dueDate: date('due_date', { mode: 'string' }),
    /** The day a purchase order asks the goods for (issue 35); null on every other document. */
    deliveryDate: date('delivery_date', { mode: 'string' }),
    currency: text('currency').notNull(),
    conditionSale: text('condition_sale'),
    paymentMethod: text('payment_method').$type<PaymentMethod>(),
    notes: text('notes'),
    /** The document a credit or debit note corrects, or the delivery note an invoice bills. */
    relatedDocumentId: uuid('related_document_id'),
    /** A credit note for goods sent back: its catalogue lines leave the stock. */
    returnsGoods: boolean('returns_goods').notNull().default(false),
    /** Whether registering it moved stock (recorded, so an invoice after its delivery note never moves it twice). */
    movedStock: boolean('moved_stock').notNull().default(false),
    subtotal1: money('subtotal1').notNull().default('0'),
    discountTotal: money('discount_total').notNull().default('0'),
    subtotal2: money('subtotal2').notNull().default('0'),
    vatTotal: money('vat_total').notNull().default('0'),
    total: money('total').notNull().default('0'),
    /** [{ rate: '21.00', base: '100.00', vat: '21.00' }], one per VAT rate of the lines. */
    vatBreakdown: jsonb('vat_breakdown').notNull().default(sql`'[]'::jsonb`),
    openAmount: money('open_amount').notNull().default('0'),
    /** Who issued the paper and who received it, copied when it was registered or issued. */
    issuerSnapshot: jsonb('issuer_snapshot'),
    counterpartySnapshot: jsonb('counterparty_snapshot'),
    registeredAt: timestamp('registered_at', { withTimezone: true }),
    registeredBy: uuid('registered_by'),
    /**
     * The hash chain of an issued sale (issue 18, as Verifactu): its place in its point of sale's
     * chain, the previous document's hash and the SHA-256 of its canonical content with it.
     */
    chainIndex: integer('chain_index'),
    previousHash: text('previous_hash'),
    contentHash: text('content_hash'),
    searchText: text('search_text').generatedAlwaysAs(
      sql`odontia_search_text(point_of_service, document_number, issuer_snapshot ->> 'name', issuer_snapshot ->> 'taxId', counterparty_snapshot ->> 'name', counterparty_snapshot ->> 'taxId', notes)`,
    ),
    ...recordStamps,
  },
  (table) => [
    ...recordKeys(table),
    ...userRefs(table, table.registeredBy),
    clinicRef(table, table.providerId, providers),
    clinicRef(table, table.customerId, customers),
    patientRef(table),
    foreignKey({
      name: 'commercial_documents_related_fk',
      columns: [table.accountId, table.relatedDocumentId],
      foreignColumns: [table.accountId, table.id],
    }),
    uniqueIndex('commercial_documents_purchase_number_unique')
      .on(table.accountId, table.providerId, table.documentType, table.pointOfService, table.documentNumber)
      .where(sql`${table.side} = 'purchase' and ${table.deletedAt} is null`),
    index('commercial_documents_list_idx')
      .on(table.accountId, table.side, table.date.desc(), table.id.desc())
      .where(sql`${table.deletedAt} is null`),
    index('commercial_documents_provider_idx')
      .on(table.accountId, table.providerId, table.date.desc(), table.id.desc())
      .where(sql`${table.deletedAt} is null and ${table.providerId} is not null`),
    // Migration 0017 adds INCLUDE (open_amount, date), which drizzle-kit cannot express: the
    // current accounts' aging is read from this index alone.
    index('commercial_documents_open_idx')
      .on(table.accountId, table.side, table.providerId, table.dueDate, table.id)
      .where(sql`${table.openAmount} <> 0 and ${table.deletedAt} is null`),
    index('commercial_documents_related_idx')
      .on(table.accountId, table.relatedDocumentId)
      .where(sql`${table.relatedDocumentId} is not null`),
    // Issue 18: a sale's number is unique per point of sale and type, its chain link per point of sale.
    uniqueIndex('commercial_documents_sale_number_unique')
      .on(table.accountId, table.pointOfService, table.documentType, table.sequenceNumber)
      .where(sql`${table.side} = 'sale' and ${table.sequenceNumber} is not null`),
    // Issue 35: a purchase order is the clinic's own paper, numbered per clinic (OC-00000001).
    uniqueIndex('commercial_documents_purchase_order_number_unique')
      .on(table.accountId, table.sequenceNumber)
      .where(
        sql`${table.side} = 'purchase' and ${table.documentType} = 'purchase_order' and ${table.sequenceNumber} is not null`,
      ),
    uniqueIndex('commercial_documents_chain_unique')
      .on(table.accountId, table.pointOfService, table.chainIndex)
      .where(sql`${table.side} = 'sale' and ${table.chainIndex} is not null`),
    index('commercial_documents_customer_idx')
      .on(table.accountId, table.customerId, table.date.desc(), table.id.desc())
      .where(sql`${table.deletedAt} is null and ${table.customerId} is not null`),
    // Migration 0018 adds INCLUDE (open_amount, date), as 0017 does for providers.
    index('commercial_documents_customer_open_idx')
      .on(table.accountId, table.customerId, table.dueDate, table.id)
      .where(sql`${table.side} = 'sale' and ${table.openAmount} <> 0 and ${table.deletedAt} is null`),
    index('commercial_documents_patient_idx')
      .on(table.accountId, table.patientId, table.date.desc(), table.id.desc())
      .where(sql`${table.deletedAt} is null and ${table.patientId} is not null`),
    clinicSearchIndex('commercial_documents_search_idx', table),
    check('commercial_documents_party', sql`${table.side} <> 'purchase' or ${table.providerId} is not null`),
    check('commercial_documents_customer', sql`${table.side} <> 'sale' or ${table.customerId} is not null`),
    clinicCurrency(table, 'commercial_documents_currency_fk'),
  ],
);

/** A line of a document: a catalogue item or free text, with its own net, VAT and total. */
export const documentLines = pgTable(
  'document_lines',
  {
    ...clinicRowColumns,
    documentId: uuid('document_id').notNull(),
    position: integer('position').notNull(),
    itemId: uuid('item_id'),
    /** A sale line from the price list (issue 18), optionally for one tooth (FDI, '16'). */
    treatmentId: uuid('treatment_id'),
    tooth: text('tooth'),
    /** Where a sale line came from: an attendance (its fee when `attendance_line_id` is null, else that line)… */
    attendanceId: uuid('attendance_id'),
    attendanceLineId: uuid('attendance_line_id'),
    /** …or a line of the budget (or delivery note) the document was made from. */
    sourceLineId: uuid('source_line_id'),
    /**
     * Who did what a sale line bills (issue 35): production by professional counts the line for
     * them. Taken from the line's source (the attendance, the budget line) unless chosen.
     */
    professionalId: uuid('professional_id'),
    description: text('description').notNull(),
    skuProvider: text('sku_provider'),
    quantity: numeric('quantity', { precision: 12, scale: 2 }).notNull(),
    unitPrice: money('unit_price').notNull(),
    /** Percent off the line (0–100). */
    discountRate: numeric('discount_rate', { precision: 5, scale: 2 }).notNull().default('0'),
    vatRate: numeric('vat_rate', { precision: 5, scale: 2 }).notNull(),
    /** quantity × unit price, before the discount. */
    subtotal1: money('subtotal1').notNull(),
    discount: money('discount').notNull(),
    /** The line's net (spec `subtotal`): subtotal1 − discount. */
    subtotal: money('subtotal').notNull(),
    vat: money('vat').notNull(),
    total: money('total').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.accountId, table.id] }),
    clinicRef(table, table.documentId, commercialDocuments),
    clinicRef(table, table.itemId, inventoryItems),
    clinicRef(table, table.treatmentId, treatments),
    clinicRef(table, table.attendanceId, attendances),
    ...userRefs(table, table.professionalId),
    /** Issue 35: a line of this clinic (the 0028 trigger adds: of an issued budget of the same customer). */
    foreignKey({
      columns: [table.accountId, table.sourceLineId],
      foreignColumns: [table.accountId, table.id],
      name: 'document_lines_source_line_fk',
    }),
    index('document_lines_attendance_idx')
      .on(table.accountId, table.attendanceId)
      .where(sql`${table.attendanceId} is not null`),
    index('document_lines_source_idx')
      .on(table.accountId, table.sourceLineId)
      .where(sql`${table.sourceLineId} is not null`),
    index('document_lines_document_idx').on(table.accountId, table.documentId, table.position),
    check('document_lines_amounts', sql`${table.quantity} > 0 and ${table.unitPrice} >= 0`),
    check('document_lines_rates', sql`${table.discountRate} between 0 and 100 and ${table.vatRate} between 0 and 100`),
  ],
);

/**
 * Each time a registered purchase order was e-mailed to its provider (issue 35): when, to which
 * address and by whom. Written in the transaction that sends it; never changed.
 */
export const purchaseOrderSends = pgTable(
  'purchase_order_sends',
  {
    ...clinicRowColumns,
    documentId: uuid('document_id').notNull(),
    sentTo: text('sent_to').notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
    sentBy: uuid('sent_by').notNull(),
  },
  (table) => [
    ...clinicKeys(table),
    clinicRef(table, table.documentId, commercialDocuments),
    ...userRefs(table, table.sentBy),
    index('purchase_order_sends_document_idx').on(table.accountId, table.documentId, table.sentAt),
  ],
);

/**
 * A payment to a provider (`side` provider) or a collection from a customer (`side` customer,
 * issue 18). Never edited: `status` pending → paid is its only change, and a reversal (with a
 * reason) is a ledger entry of its own that marks it `reversed_at`. `number` is the clinic's
 * proof of payment number (OP-000123).
 */
export const payments = pgTable(
  'payments',
  {
    ...clinicRowColumns,
    side: text('side', { enum: ['provider', 'customer'] }).notNull(),
    number: text('number').notNull(),
    providerId: uuid('provider_id'),
    /** A collection's customer (issue 18); `patient_id` too when the customer is a patient. */
    customerId: uuid('customer_id'),
    patientId: uuid('patient_id'),
    date: date('date', { mode: 'string' }).notNull(),
    amount: money('amount').notNull(),
    currency: text('currency').notNull(),
    /** The method of the collection's largest part (its only one, most of the time). */
    method: text('method').$type<PaymentMethod>().notNull(),
    transactionNumber: text('transaction_number'),
    /**
     * How the money came (issue 35): [{ method, amount, transactionNumber }], one to ten parts whose
     * sum is `amount` (cash + card on one receipt). Checked by `payments_parts` (migration 0030);
     * the day figures count each part under its method. Final like the rest of the row.
     */
    parts: jsonb('parts').notNull(),
    notes: text('notes'),
    status: text('status', { enum: ['pending', 'paid'] }).notNull(),
    paidOn: date('paid_on', { mode: 'string' }),
    /** What of `amount` is allocated to documents; the rest stays on account. */
    allocatedAmount: money('allocated_amount').notNull().default('0'),
    counterpartySnapshot: jsonb('counterparty_snapshot'),
    reversedAt: timestamp('reversed_at', { withTimezone: true }),
    reversedBy: uuid('reversed_by'),
    reversalReason: text('reversal_reason'),
    searchText: text('search_text').generatedAlwaysAs(
      sql`odontia_search_text(number, transaction_number, counterparty_snapshot ->> 'name', notes)`,
    ),
    ...recordStamps,
  },
  (table) => [
    ...recordKeys(table),
    ...userRefs(table, table.reversedBy),
    clinicRef(table, table.providerId, providers),
    clinicRef(table, table.customerId, customers),
    uniqueIndex('payments_number_unique').on(table.accountId, table.side, table.number),
    index('payments_list_idx')
      .on(table.accountId, table.side, table.date.desc(), table.id.desc())
      .where(sql`${table.deletedAt} is null`),
    index('payments_provider_idx')
      .on(table.accountId, table.providerId, table.date.desc(), table.id.desc())
      .where(sql`${table.providerId} is not null`),
    index('payments_unallocated_idx')
      .on(table.accountId, table.side, table.providerId, table.date)
      .where(sql`${table.allocatedAmount} < ${table.amount} and ${table.reversedAt} is null`),
    index('payments_customer_unallocated_idx')
      .on(table.accountId, table.customerId, table.date)
      .where(
        sql`${table.side} = 'customer' and ${table.allocatedAmount} < ${table.amount} and ${table.reversedAt} is null`,
      ),
    index('payments_customer_idx')
      .on(table.accountId, table.customerId, table.date.desc(), table.id.desc())
      .where(sql`${table.customerId} is not null`),
    clinicSearchIndex('payments_search_idx', table),
    check('payments_customer', sql`${table.side} <> 'customer' or ${table.customerId} is not null`),
    check('payments_amounts', sql`${table.amount} > 0 and ${table.allocatedAmount} between 0 and ${table.amount}`),
    check('payments_party', sql`${table.side} <> 'provider' or ${table.providerId} is not null`),
    clinicCurrency(table, 'payments_currency_fk'),
  ],
);

/** A part of a payment applied to a document (or of a credit note to the document it corrects). */
export const paymentAllocations = pgTable(
  'payment_allocations',
  {
    ...clinicRowColumns,
    paymentId: uuid('payment_id'),
    /** A credit note applied to the document it corrects (instead of a payment). */
    creditDocumentId: uuid('credit_document_id'),
    documentId: uuid('document_id').notNull(),
    amount: money('amount').notNull(),
    /** Set when the payment is reversed: the document is open again by `amount`. */
    reversedAt: timestamp('reversed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    createdBy: uuid('created_by'),
  },
  (table) => [
    primaryKey({ columns: [table.accountId, table.id] }),
    clinicRef(table, table.paymentId, payments),
    foreignKey({
      columns: [table.accountId, table.creditDocumentId],
      foreignColumns: [commercialDocuments.accountId, commercialDocuments.id],
    }),
    clinicRef(table, table.documentId, commercialDocuments),
    ...userRefs(table, table.createdBy),
    index('payment_allocations_payment_idx').on(table.accountId, table.paymentId),
    index('payment_allocations_document_idx').on(table.accountId, table.documentId),
    check('payment_allocations_amount', sql`${table.amount} > 0`),
    check('payment_allocations_source', sql`(${table.paymentId} is null) <> (${table.creditDocumentId} is null)`),
  ],
);

/**
 * The current-account ledger of every party (a provider; a customer in issue 18). Append-only.
 * For a provider, `credit` is what the clinic comes to owe (invoice, debit note) and `debit`
 * what settles it (payment, credit note); a reversal is the opposite entry. The balance is the sum
 * of the entries (party_balances keeps it for the lists, in the same transaction).
 */
export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    ...clinicRowColumns,
    partyKind: text('party_kind', { enum: ['provider', 'customer'] }).notNull(),
    partyId: uuid('party_id').notNull(),
    date: date('date', { mode: 'string' }).notNull(),
    kind: text('kind', { enum: ['document', 'payment', 'payment_reversal'] }).notNull(),
    documentId: uuid('document_id'),
    paymentId: uuid('payment_id'),
    description: text('description').notNull(),
    debit: money('debit').notNull().default('0'),
    credit: money('credit').notNull().default('0'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    createdBy: uuid('created_by'),
  },
  (table) => [
    primaryKey({ columns: [table.accountId, table.id] }),
    clinicRef(table, table.documentId, commercialDocuments),
    clinicRef(table, table.paymentId, payments),
    ...userRefs(table, table.createdBy),
    index('ledger_entries_party_idx').on(table.accountId, table.partyKind, table.partyId, table.date, table.id),
    check('ledger_entries_amounts', sql`${table.debit} >= 0 and ${table.credit} >= 0`),
  ],
);

/** Each party's balance and totals, kept with every ledger entry (checked against the ledger in tests). */
export const partyBalances = pgTable(
  'party_balances',
  {
    ...clinicColumn,
    partyKind: text('party_kind', { enum: ['provider', 'customer'] }).notNull(),
    partyId: uuid('party_id').notNull(),
    debits: money('debits').notNull().default('0'),
    credits: money('credits').notNull().default('0'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    ...clinicKeysOn(table, table.partyKind, table.partyId),
    // The biggest debtors (issue 19's dashboard): the first rows by balance, without sorting them all.
    index('party_balances_balance_idx').on(
      table.accountId,
      table.partyKind,
      sql`(${table.debits} - ${table.credits})`,
      table.partyId,
    ),
  ],
);

/**
 * The clinic's figures per day, kept for the screens that sum a period or a whole side: the aging
 * totals of the current accounts (issue 18) and the dashboard (issue 19). A figure is a name, a
 * key and a day (the clinic's calendar day) with an amount and a count; migration 0020 lists them
 * (`odontia_day_figures`: what they must be, computed from the rows themselves). Kept in two parts
 * so that no write waits on another: triggers only APPEND the difference each change makes to
 * `day_figure_changes` (no shared row, so issues, collections and bookings never lock each other
 * here), and `foldDayFigureChanges` folds them into `day_figures` now and then. The figures are
 * always the sum of both tables: exact the moment a change commits, folded or not.
 */
export const dayFigures = pgTable(
  'day_figures',
  {
    ...clinicColumn,
    figure: text('figure').notNull(),
    key: text('key').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    amount: figureAmount('amount').notNull().default('0'),
    count: integer('count').notNull().default(0),
  },
  (table) => [...clinicKeysOn(table, table.figure, table.day, table.key)],
);

/** The changes to `day_figures` not folded in yet (appended by the triggers). */
export const dayFigureChanges = pgTable(
  'day_figure_changes',
  {
    ...clinicColumn,
    id: bigint('id', { mode: 'number' }).generatedAlwaysAsIdentity().notNull(),
    figure: text('figure').notNull(),
    key: text('key').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    amount: figureAmount('amount').notNull(),
    count: integer('count').notNull(),
  },
  (table) => [...clinicKeys(table)],
);

/**
 * Issue 35: the day figures are folded clinic by clinic; a clinic whose fold fails is written here
 * (how many times in a row, when to try again, the error) and retried with backoff, while the other
 * clinics fold on. Its row goes away when a fold succeeds.
 */
export const dayFigureFolds = pgTable(
  'day_figure_folds',
  {
    ...clinicColumn,
    failures: integer('failures').notNull().default(0),
    retryAt: timestamp('retry_at', { withTimezone: true }).notNull(),
    lastError: text('last_error'),
    failedAt: timestamp('failed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [...clinicKeysOn(table)],
);

/**
 * An `Idempotency-Key` of a create that moves money (ARCHITECTURE §4): the first request claims it
 * in its transaction; a concurrent one waits on the key's row and then answers what the first
 * answered. `request_hash` refuses the same key with another body.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    ...clinicColumn,
    scope: text('scope').notNull(),
    key: text('key').notNull(),
    requestHash: text('request_hash').notNull(),
    statusCode: integer('status_code'),
    answer: jsonb('answer'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    ...clinicKeysOn(table, table.scope, table.key),
    index('idempotency_keys_age_idx').on(table.accountId, table.createdAt),
  ],
);

/**
 * The numbering of a point of sale (issue 18): the last number of each document type, and the
 * last link of its hash chain. Issuing locks these rows (an upsert), so concurrent issues on one
 * point of sale wait for each other: numbers without gaps or duplicates, a chain without forks.
 */
export const saleSequences = pgTable(
  'sale_sequences',
  {
    ...clinicColumn,
    pointOfService: text('point_of_service').notNull(),
    documentType: text('document_type').notNull(),
    lastNumber: integer('last_number').notNull().default(0),
    /** The date of the last document issued on this series (issue 35): the next may not be earlier. */
    lastDate: date('last_date', { mode: 'string' }),
  },
  (table) => [
    ...clinicKeysOn(table, table.pointOfService, table.documentType),
    check('sale_sequences_number', sql`${table.lastNumber} >= 0`),
  ],
);

export const saleChains = pgTable(
  'sale_chains',
  {
    ...clinicColumn,
    pointOfService: text('point_of_service').notNull(),
    lastIndex: integer('last_index').notNull().default(0),
    lastHash: text('last_hash'),
    lastDocumentId: uuid('last_document_id'),
  },
  (table) => [...clinicKeysOn(table, table.pointOfService)],
);

/**
 * What has been invoiced, once (issue 18): an attendance's fee (`source_kind` attendance_fee,
 * `source_id` the attendance), an attendance line (attendance_line) or a budget line
 * (budget_line). Written when the invoice is issued; the primary key refuses a second invoice of
 * the same source, whatever races. Never deleted (a credit note corrects money, not this).
 */
export const billedSources = pgTable(
  'billed_sources',
  {
    ...clinicColumn,
    sourceKind: text('source_kind', { enum: ['attendance_fee', 'attendance_line', 'budget_line'] }).notNull(),
    sourceId: uuid('source_id').notNull(),
    documentId: uuid('document_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.accountId, table.sourceKind, table.sourceId] }),
    clinicRef({ accountId: table.accountId, id: table.sourceId }, table.documentId, commercialDocuments),
    index('billed_sources_document_idx').on(table.accountId, table.documentId),
  ],
);

/**
 * The patient's answer to a budget (treatment plan): accepted — signed on the pad (the image, the
 * signer, the exact text and a SHA-256 over both, as authorizations) or marked with a date — or
 * rejected. One per budget, written once: a changed plan is a new budget.
 */
export const budgetDecisions = pgTable(
  'budget_decisions',
  {
    ...clinicRowColumns,
    documentId: uuid('document_id').notNull(),
    decision: text('decision', { enum: ['accepted', 'rejected'] }).notNull(),
    decidedOn: date('decided_on', { mode: 'string' }).notNull(),
    signedText: text('signed_text'),
    signatureImage: bytea('signature_image'),
    signerName: text('signer_name'),
    signerIdNumber: text('signer_id_number'),
    sha256: text('sha256'),
    notes: text('notes'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    createdBy: uuid('created_by'),
  },
  (table) => [
    primaryKey({ columns: [table.accountId, table.id] }),
    clinicRef(table, table.documentId, commercialDocuments),
    ...userRefs(table, table.createdBy),
    uniqueIndex('budget_decisions_document_unique').on(table.accountId, table.documentId),
    check(
      'budget_decisions_signature',
      sql`(${table.signatureImage} is null) = (${table.sha256} is null) and (${table.signatureImage} is null or ${table.signerName} is not null)`,
    ),
  ],
);

/**
 * An issued sale's submission to its clinic's tax authority (issues 18 and 39): ARCA's CAE in
 * Argentina, a Verifactu record in Spain, or `local` (no authority: "sin validez fiscal"). Each
 * authority numbers or chains documents in its own order, so submissions go out per `series`
 * (ARCA: `arca:<point of sale>:<voucher type>`; Verifactu: `verifactu`) in `queue_order`, and a
 * submission left `sending` (its answer lost) is asked for at the authority before it goes again.
 */
export const einvoiceSubmissions = pgTable(
  'einvoice_submissions',
  {
    ...clinicColumn,
    documentId: uuid('document_id').notNull(),
    /** The clinic's regime when the document was issued: local, arca, verifactu. */
    adapter: text('adapter').notNull(),
    status: text('status', {
      enum: ['local', 'pending', 'sending', 'accepted', 'accepted_with_errors', 'rejected', 'contingency', 'not_sent'],
    }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    /** The authority's environment it went to: a homologation CAE or record has no fiscal validity. */
    environment: text('environment', { enum: ['homologation', 'production'] }),
    series: text('series'),
    /** The issue order within the series: the order the authority receives them. */
    queueOrder: bigint('queue_order', { mode: 'number' }).generatedAlwaysAsIdentity(),
    /** ARCA: the letter (A, B, C), the voucher type code and the authority's point of sale. */
    letter: text('letter'),
    voucherType: integer('voucher_type'),
    authorityPointOfSale: integer('authority_point_of_sale'),
    /** ARCA: the number the authority gave (assigned when sent, kept once authorised). */
    fiscalNumber: integer('fiscal_number'),
    /** The authority's answer: a CAE, a Verifactu CSV. */
    authorizationCode: text('authorization_code'),
    /** ARCA: the CAE's due date. */
    authorizationDueDate: date('authorization_due_date'),
    authorizedAt: timestamp('authorized_at', { withTimezone: true }),
    /** The fiscal QR's URL (ARCA's or the AEAT's), printed on the PDF and shown on screen. */
    qrUrl: text('qr_url'),
    /** Verifactu: the record sent (RegistroAlta XML) and its huella. */
    recordXml: text('record_xml'),
    recordHash: text('record_hash'),
    /** The authority's observations and errors: [{ code, message }]. */
    messages: jsonb('messages').$type<{ code: string; key?: string | null; message: string }[]>(),
    response: jsonb('response'),
    lastError: text('last_error'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.accountId, table.documentId] }),
    clinicRef({ accountId: table.accountId, id: table.documentId }, table.documentId, commercialDocuments),
    index('einvoice_submissions_open_idx')
      .on(table.accountId, table.series, table.queueOrder)
      .where(sql`${table.status} in ('pending', 'sending', 'contingency', 'rejected')`),
    check(
      'einvoice_submissions_status',
      sql`${table.status} in ('local', 'pending', 'sending', 'accepted', 'accepted_with_errors', 'rejected', 'contingency', 'not_sent')`,
    ),
    uniqueIndex('einvoice_submissions_fiscal_number_unique')
      .on(table.accountId, table.series, table.fiscalNumber)
      .where(sql`${table.fiscalNumber} is not null`),
  ],
);
