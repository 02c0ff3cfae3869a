import type { DocumentType, Language } from '@odontia/shared/enums';

/**
 * What the server prints of the commercial area in the reader's language (Spanish first): the
 * names of document types and payment methods, and how a ledger row names its document or payment
 * ("Factura 0001-00001234", "Pago OP-000012"). Used by the proof of payment, the ledger (JSON,
 * CSV, PDF) and its exports.
 */

export const documentTypeNames: Record<Language, Record<DocumentType, string>> = {
  es: {
    budget: 'Presupuesto',
    proforma_invoice: 'Factura proforma',
    purchase_order: 'Orden de compra',
    delivery_note: 'Remito',
    invoice: 'Factura',
    credit_note: 'Nota de crédito',
    debit_note: 'Nota de débito',
    proof_payment: 'Comprobante de pago',
    receipt: 'Recibo',
    opening_balance: 'Saldo inicial importado',
  },
  en: {
    budget: 'Quote',
    proforma_invoice: 'Proforma invoice',
    purchase_order: 'Purchase order',
    delivery_note: 'Delivery note',
    invoice: 'Invoice',
    credit_note: 'Credit note',
    debit_note: 'Debit note',
    proof_payment: 'Proof of payment',
    receipt: 'Receipt',
    opening_balance: 'Imported opening balance',
  },
  fr: {
    budget: 'Devis',
    proforma_invoice: 'Facture proforma',
    purchase_order: 'Bon de commande',
    delivery_note: 'Bon de livraison',
    invoice: 'Facture',
    credit_note: 'Avoir',
    debit_note: 'Note de débit',
    proof_payment: 'Justificatif de paiement',
    receipt: 'Reçu',
    opening_balance: 'Solde initial importé',
  },
  pt: {
    budget: 'Orçamento',
    proforma_invoice: 'Fatura proforma',
    purchase_order: 'Pedido de compra',
    delivery_note: 'Guia de remessa',
    invoice: 'Fatura',
    credit_note: 'Nota de crédito',
    debit_note: 'Nota de débito',
    proof_payment: 'Comprovante de pagamento',
    receipt: 'Recibo',
    opening_balance: 'Saldo inicial importado',
  },
};

// The payment methods' names live below the commercial area: the cash registers print them too.
export { paymentMethodNames } from '../../lib/payment-method-names.ts';

const ledgerWords: Record<Language, { payment: string; reversal: string }> = {
  es: { payment: 'Pago', reversal: 'Anulación del pago' },
  en: { payment: 'Payment', reversal: 'Reversal of payment' },
  fr: { payment: 'Paiement', reversal: 'Annulation du paiement' },
  pt: { payment: 'Pagamento', reversal: 'Estorno do pagamento' },
};

/** '0001-00001234', or the number alone, or '—'. */
export function documentNumberText(document: { pointOfService: string | null; documentNumber: string | null }): string {
  if (document.pointOfService && document.documentNumber)
    return `${document.pointOfService}-${document.documentNumber}`;
  return document.documentNumber ?? document.pointOfService ?? '—';
}

/** 'Factura 0001-00001234' in the reader's language. */
export function documentReference(
  language: Language,
  document: { documentType: DocumentType; pointOfService: string | null; documentNumber: string | null },
): string {
  return `${documentTypeNames[language][document.documentType]} ${documentNumberText(document)}`;
}

/** 'Pago OP-000012' or 'Anulación del pago OP-000012'. */
export function paymentReference(language: Language, number: string, reversal = false): string {
  const words = ledgerWords[language];
  return `${reversal ? words.reversal : words.payment} ${number}`;
}
