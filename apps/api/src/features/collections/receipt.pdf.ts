import { calendarDateFormatter, instantFormatter } from '@odontia/shared/date-format';
import type { Language } from '@odontia/shared/enums';
import type { Collection } from '@odontia/shared/schemas/collections';
import {
  type ClinicPrintHeader,
  clinicHeader,
  documentStyles,
  fieldColumns,
  type PdfDocument,
  pdfField,
  printLanguage,
  renderPdf,
  safeFileName,
} from '../../lib/pdf.ts';
import { documentNumberText, documentTypeNames, paymentMethodNames } from '../payments/commercial-texts.ts';
import { moneyFormatter } from '../payments/money-format.ts';
import { amountInWords } from './amount-in-words.ts';

/**
 * The receipt of a collection ("Recibo de cobro", issue 18), printed for the customer in the
 * customer's language (Spanish first): the clinic's header, who paid, how much and how, what it
 * settled and what stays on account (the amount in words too), and a reversal stamp
 * once reversed.
 */

const texts: Record<
  Language,
  {
    title: string;
    number: string;
    date: string;
    receivedFrom: string;
    taxId: string;
    address: string;
    amount: string;
    method: string;
    transaction: string;
    status: string;
    pending: string;
    paidOn: string;
    allocations: string;
    document: string;
    documentDate: string;
    documentTotal: string;
    applied: string;
    noAllocations: string;
    onAccount: string;
    notes: string;
    reversed: string;
    reversedOn: string;
    reason: string;
    signature: string;
  }
> = {
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
  clinic: ClinicPrintHeader;
  customerLanguage: string | null;
  timeZone: string;
}

/** The receipt as a pdfmake document. */
export function receiptDocument({ collection, clinic, customerLanguage, timeZone }: ReceiptData): PdfDocument {
  const language = printLanguage(customerLanguage);
  const t = texts[language];
  const money = moneyFormatter(language, collection.currency);
  const day = calendarDateFormatter(language);
  const customer = collection.counterpartySnapshot;
  const live = collection.allocations.filter((allocation) => !allocation.reversed || collection.reversedAt);
  const table = {
    table: {
      headerRows: 1,
      widths: ['*', 'auto', 'auto', 'auto'],
      body: [
        [t.document, t.documentDate, t.documentTotal, t.applied].map((text, index) => ({
          text,
          bold: true,
          alignment: index >= 2 ? 'right' : 'left',
        })),
        ...live.map((allocation) => [
          `${documentTypeNames[language][allocation.document.documentType]} ${documentNumberText(allocation.document)}`,
          day(allocation.document.date),
          { text: money(allocation.document.total), alignment: 'right' },
          { text: money(allocation.amount), alignment: 'right' },
        ]),
      ],
    },
    layout: 'lightHorizontalLines',
  };
  return {
    info: { title: `${t.title} ${collection.number}`, creator: 'Odontia' },
    pageMargins: [48, 48, 48, 64],
    content: [
      ...clinicHeader({ clinicName: clinic.name, clinicContact: '', clinic, language }),
      { text: t.title, style: 'title' },
      ...(collection.reversedAt
        ? [
            { text: t.reversed, color: '#b91c1c', bold: true, fontSize: 20, alignment: 'center', margin: [0, 0, 0, 4] },
            {
              text: `${t.reversedOn} ${instantFormatter(language, timeZone, 'date')(collection.reversedAt)} — ${t.reason}: ${collection.reversalReason ?? ''}`,
              color: '#b91c1c',
              alignment: 'center',
              margin: [0, 0, 0, 8],
            },
          ]
        : []),
      fieldColumns(
        [
          pdfField(t.number, collection.number),
          pdfField(t.date, day(collection.date)),
          pdfField(t.status, collection.status === 'paid' ? `${t.paidOn} ${day(collection.paidOn)}` : t.pending),
        ],
        [
          pdfField(t.receivedFrom, customer?.name ?? collection.customerName),
          ...(customer?.taxId ? [pdfField(t.taxId, customer.taxId)] : []),
          ...(customer?.address
            ? [pdfField(t.address, [customer.address, customer.city].filter(Boolean).join(', '))]
            : []),
        ],
      ),
      { text: t.amount, style: 'section' },
      { text: money(collection.amount), fontSize: 16, bold: true },
      // The custom of a recibo: the amount in words too.
      {
        text: amountInWords(collection.amount, collection.currency, language),
        italics: true,
        margin: [0, 2, 0, 4],
      },
      fieldColumns(
        [pdfField(t.method, paymentMethodNames[language][collection.method])],
        [pdfField(t.transaction, collection.transactionNumber ?? '—')],
      ),
      { text: t.allocations, style: 'section' },
      live.length > 0 ? table : { text: t.noAllocations, italics: true },
      ...(collection.reversedAt || collection.unallocatedAmount === '0.00'
        ? []
        : [
            {
              margin: [0, 8, 0, 0],
              text: [{ text: `${t.onAccount}: `, bold: true }, money(collection.unallocatedAmount)],
            },
          ]),
      ...(collection.notes ? [{ text: t.notes, style: 'section' }, { text: collection.notes }] : []),
      {
        margin: [260, 72, 0, 0],
        stack: [
          { canvas: [{ type: 'line', x1: 0, y1: 0, x2: 220, y2: 0, lineWidth: 0.8 }] },
          { text: t.signature, alignment: 'center', fontSize: 8, color: '#555555', margin: [0, 4, 0, 0] },
        ],
      },
    ],
    styles: documentStyles(),
  };
}

export async function receiptPdf(data: ReceiptData) {
  const pdf = await renderPdf(receiptDocument(data));
  return { pdf, fileName: safeFileName(`${data.collection.number}.pdf`) };
}
