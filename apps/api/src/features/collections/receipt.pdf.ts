import type { Language } from '@odontia/shared/enums';
import type { Collection } from '@odontia/shared/schemas/collections';
import type { CollectionInstalments } from '@odontia/shared/schemas/payment-plans';
import {
  type ClinicPrintHeader,
  clinicHeader,
  type PdfDocument,
  pdfField,
  pdfFile,
  printLanguage,
} from '../../lib/pdf.ts';
import { type PaymentPrintTexts, paymentDocument } from '../commercial/payment-print.ts';
import { amountInWords } from './amount-in-words.ts';

/** "Cuota 2 de 6", "Cuotas 2 y 3 de 6" in the receipt's language. */
const instalmentWords: Record<Language, { one: string; many: string; and: string }> = {
  es: { one: 'Cuota {n} de {count}', many: 'Cuotas {n} de {count}', and: 'y' },
  en: { one: 'Instalment {n} of {count}', many: 'Instalments {n} of {count}', and: 'and' },
  fr: { one: 'Échéance {n} sur {count}', many: 'Échéances {n} sur {count}', and: 'et' },
  pt: { one: 'Parcela {n} de {count}', many: 'Parcelas {n} de {count}', and: 'e' },
};

export function instalmentText(language: Language, numbers: number[], count: number): string {
  const words = instalmentWords[language];
  const list =
    numbers.length === 1 ? String(numbers[0]) : `${numbers.slice(0, -1).join(', ')} ${words.and} ${numbers.at(-1)}`;
  return (numbers.length === 1 ? words.one : words.many).replace('{n}', list).replace('{count}', String(count));
}

/**
 * The receipt of a collection ("Recibo de cobro", issue 18), printed for the customer in the
 * customer's language (Spanish first): the clinic's header, who paid, how much and how, what it
 * settled and what stays on account (the amount in words too), and a reversal stamp
 * once reversed.
 */

const texts: Record<Language, PaymentPrintTexts & { receivedFrom: string; taxId: string; address: string }> = {
  es: {
    title: 'Recibo de cobro',
    number: 'Número',
    date: 'Fecha',
    receivedFrom: 'Recibimos de',
    taxId: 'Identificación fiscal',
    address: 'Domicilio',
    amount: 'La suma de',
    method: 'Forma de pago',
    transaction: 'N.º de operación',
    partAmount: 'Importe',
    status: 'Estado',
    pending: 'Pendiente de acreditación',
    paidOn: 'Acreditado el',
    allocations: 'En concepto de',
    document: 'Comprobante',
    documentDate: 'Fecha',
    documentTotal: 'Total',
    applied: 'Imputado',
    noAllocations: 'Pago a cuenta: todo el importe queda a su favor.',
    onAccount: 'Queda a cuenta',
    notes: 'Observaciones',
    reversed: 'ANULADO',
    reversedOn: 'Anulado el',
    reason: 'Motivo',
    signature: 'Firma y aclaración',
  },
  en: {
    title: 'Payment receipt',
    number: 'Number',
    date: 'Date',
    receivedFrom: 'Received from',
    taxId: 'Tax ID',
    address: 'Address',
    amount: 'The sum of',
    method: 'Payment method',
    transaction: 'Transaction number',
    partAmount: 'Amount',
    status: 'Status',
    pending: 'Pending clearance',
    paidOn: 'Cleared on',
    allocations: 'In payment of',
    document: 'Document',
    documentDate: 'Date',
    documentTotal: 'Total',
    applied: 'Applied',
    noAllocations: 'Payment on account: the whole amount stays in your favour.',
    onAccount: 'Left on account',
    notes: 'Notes',
    reversed: 'REVERSED',
    reversedOn: 'Reversed on',
    reason: 'Reason',
    signature: 'Signature and name',
  },
  fr: {
    title: 'Reçu de paiement',
    number: 'Numéro',
    date: 'Date',
    receivedFrom: 'Reçu de',
    taxId: 'Identifiant fiscal',
    address: 'Adresse',
    amount: 'La somme de',
    method: 'Mode de paiement',
    transaction: 'N° d’opération',
    partAmount: 'Montant',
    status: 'État',
    pending: 'En attente d’encaissement',
    paidOn: 'Encaissé le',
    allocations: 'En règlement de',
    document: 'Pièce',
    documentDate: 'Date',
    documentTotal: 'Total',
    applied: 'Imputé',
    noAllocations: 'Acompte : tout le montant reste en votre faveur.',
    onAccount: 'Reste en acompte',
    notes: 'Observations',
    reversed: 'ANNULÉ',
    reversedOn: 'Annulé le',
    reason: 'Motif',
    signature: 'Signature et nom',
  },
  pt: {
    title: 'Recibo de pagamento',
    number: 'Número',
    date: 'Data',
    receivedFrom: 'Recebemos de',
    taxId: 'Identificação fiscal',
    address: 'Endereço',
    amount: 'A quantia de',
    method: 'Forma de pagamento',
    transaction: 'N.º da operação',
    partAmount: 'Valor',
    status: 'Estado',
    pending: 'Pendente de compensação',
    paidOn: 'Compensado em',
    allocations: 'Referente a',
    document: 'Documento',
    documentDate: 'Data',
    documentTotal: 'Total',
    applied: 'Imputado',
    noAllocations: 'Pagamento por conta: todo o valor fica a seu favor.',
    onAccount: 'Fica por conta',
    notes: 'Observações',
    reversed: 'ANULADO',
    reversedOn: 'Anulado em',
    reason: 'Motivo',
    signature: 'Assinatura e nome',
  },
};

export interface ReceiptData {
  collection: Collection;
  /** The instalments of payment plans each allocation paid (issue 40): "Cuota 2 de 6". */
  instalments?: CollectionInstalments;
  clinic: ClinicPrintHeader;
  customerLanguage: string | null;
  timeZone: string;
}

/** The receipt as a pdfmake document. */
export function receiptDocument({
  collection,
  clinic,
  customerLanguage,
  timeZone,
  instalments = [],
}: ReceiptData): PdfDocument {
  const language = printLanguage(customerLanguage);
  const t = texts[language];
  const customer = collection.counterpartySnapshot;
  return paymentDocument({
    payment: collection,
    language,
    timeZone,
    texts: t,
    header: clinicHeader({ clinicName: clinic.name, clinicContact: '', clinic, language }),
    partyFields: [
      pdfField(t.receivedFrom, customer?.name ?? collection.customerName),
      ...(customer?.taxId ? [pdfField(t.taxId, customer.taxId)] : []),
      ...(customer?.address ? [pdfField(t.address, [customer.address, customer.city].filter(Boolean).join(', '))] : []),
    ],
    // The custom of a recibo: the amount in words too.
    underAmount: [
      { text: amountInWords(collection.amount, collection.currency, language), italics: true, margin: [0, 2, 0, 4] },
    ],
    printsNothingOnAccount: false,
    allocationNotes: new Map(
      instalments.map((paid) => [paid.allocationId, instalmentText(language, paid.numbers, paid.instalmentCount)]),
    ),
  });
}

export async function receiptPdf(data: ReceiptData) {
  return pdfFile(receiptDocument(data), `${data.collection.number}.pdf`);
}
