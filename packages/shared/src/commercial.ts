import type { DocumentType } from './enums.ts';

/**
 * The commercial area's rules (issue 17) beside the spec's enumerations (enums.ts): the fiscal
 * countries with their tax-id kinds and fiscal conditions, which document types a purchase may be,
 * what each type does to a current account, and the aging buckets. A module of its own, so the
 * sign-in page, which needs enums.ts, does not carry them.
 */

/** The clinic's fiscal data belong to a country: its tax ids and fiscal conditions are that country's. 'other' keeps free text for the rest of the world. */
export const fiscalCountries = ['AR', 'ES', 'BR', 'FR', 'other'] as const;
export type FiscalCountry = (typeof fiscalCountries)[number];

/** The tax-id kinds of each country (tax-ids.ts checks them). */
export const taxIdKindsByCountry: Record<
  FiscalCountry,
  readonly ('cuit' | 'nif' | 'cpf' | 'cnpj' | 'siren' | 'siret' | 'other')[]
> = {
  AR: ['cuit'],
  ES: ['nif'],
  BR: ['cnpj', 'cpf'],
  FR: ['siret', 'siren'],
  other: ['other'],
};

/**
 * Fiscal conditions (condición frente al IVA) by country: Argentina's responsable inscripto,
 * monotributo, exento, consumidor final; Spain's general regime, recargo de equivalencia and the
 * exemption of health care; Brazil's regimes; France's réel, franchise en base and exonération.
 */
export const fiscalConditionsByCountry = {
  AR: ['ar_responsable_inscripto', 'ar_monotributo', 'ar_exento', 'ar_consumidor_final'],
  ES: ['es_regimen_general', 'es_recargo_equivalencia', 'es_exento'],
  BR: ['br_simples_nacional', 'br_lucro_presumido', 'br_lucro_real', 'br_mei'],
  FR: ['fr_regime_reel', 'fr_franchise_base', 'fr_exonere'],
  other: ['other'],
} as const satisfies Record<FiscalCountry, readonly string[]>;
export const fiscalConditions = Object.values(fiscalConditionsByCountry).flat() as FiscalCondition[];
export type FiscalCondition = (typeof fiscalConditionsByCountry)[FiscalCountry][number];

/** The document types of both sides: a purchase and a sale may be any of these. */
const partyDocumentTypes = [
  'budget',
  'proforma_invoice',
  'delivery_note',
  'invoice',
  'debit_note',
  'credit_note',
] as const satisfies readonly DocumentType[];

/** The document types a purchase may be (a receipt and a proof of payment belong to payments). */
export const purchaseDocumentTypes = [
  'purchase_order',
  ...partyDocumentTypes,
] as const satisfies readonly DocumentType[];
export type PurchaseDocumentType = (typeof purchaseDocumentTypes)[number];

/**
 * What a registered document does to its party's current account: +1 the clinic owes (a purchase
 * invoice or debit note) or is owed (a sale's), −1 a credit note, 0 nothing (an order, a budget,
 * a proforma, a delivery note).
 */
export const documentMoneySign: Record<DocumentType, 1 | -1 | 0> = {
  budget: 0,
  proforma_invoice: 0,
  purchase_order: 0,
  delivery_note: 0,
  invoice: 1,
  credit_note: -1,
  debit_note: 1,
  proof_payment: 0,
  receipt: 1,
  // Issue 42: +1 for what the patient owes; a credit in their favour is written as its negative open amount.
  opening_balance: 1,
};

/** The document types that must name the document they correct. */
export const correctingDocumentTypes = ['credit_note', 'debit_note'] as const satisfies readonly DocumentType[];

/** A draft is edited and deleted; a registered purchase (or issued sale) is final. */
export const documentStatuses = ['draft', 'registered', 'issued'] as const;
export type DocumentStatus = (typeof documentStatuses)[number];

/** Aging of what is owed, by days past the due date. */
export const agingBuckets = ['current', 'days_0_30', 'days_31_60', 'days_61_90', 'days_over_90'] as const;
export type AgingBucket = (typeof agingBuckets)[number];

/**
 * The document types a sale may be (issue 18). A receipt is a sale-side paper for a payment
 * received outside a collection; proof_payment belongs to collections and payments.
 */
export const saleDocumentTypes = [...partyDocumentTypes, 'receipt'] as const satisfies readonly DocumentType[];
export type SaleDocumentType = (typeof saleDocumentTypes)[number];

/** Who a sale bills: a patient, or a company or insurer with its own fiscal data. */
export const customerKinds = ['patient', 'company', 'insurer'] as const;
export type CustomerKind = (typeof customerKinds)[number];

/** A budget's answer: accepted (signed on the pad or marked with a date) or rejected. */
export const budgetDecisionKinds = ['accepted', 'rejected'] as const;
export type BudgetDecisionKind = (typeof budgetDecisionKinds)[number];

/** An issued sale's number as printed: point of sale and eight digits, `0001-00000123`. */
export function formatSaleNumber(pointOfService: string, sequenceNumber: number): string {
  return `${pointOfService}-${String(sequenceNumber).padStart(8, '0')}`;
}

/**
 * Where an issued sale stands with its tax authority (issue 39): `local` (no authority: without
 * fiscal validity), `pending` (queued), `sending` (sent, no answer yet: asked again before a
 * resend), `accepted` (the authority's code: CAE, CSV), `accepted_with_errors` (Verifactu: on
 * record, to correct), `rejected` (the reason), `contingency` (the authority unreachable; retrying),
 * `not_sent` (a credit note of a rejected document: neither exists for the authority).
 */
export const einvoiceStatuses = [
  'local',
  'pending',
  'sending',
  'accepted',
  'accepted_with_errors',
  'rejected',
  'contingency',
  'not_sent',
] as const;
export type EinvoiceStatus = (typeof einvoiceStatuses)[number];
