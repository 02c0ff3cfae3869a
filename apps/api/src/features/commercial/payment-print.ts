import { calendarDateFormatter, instantFormatter } from '@odontia/shared/date-format';
import type { Language } from '@odontia/shared/enums';
import type { Payment } from '@odontia/shared/schemas/payments';
import { moneyFormatter } from '../../lib/money-format.ts';
import { documentStyles, fieldColumns, headerRow, type PdfDocument, pdfField } from '../../lib/pdf.ts';
import { documentNumberText, documentTypeNames, paymentMethodNames } from './commercial-texts.ts';

/**
 * The printed money of one side, written once for the proof of payment to a provider (issue 17)
 * and the receipt of a collection (issue 18): the clinic's header, the title and a red stamp once
 * reversed, number, date and state beside the party, the amount and how it was paid, what it
 * settled and what stays on account, the notes and a signature line. The words (and whom the
 * party column names) are each side's.
 */

/** The words every paper of money prints, in its language. */
export interface PaymentPrintTexts {
  title: string;
  number: string;
  date: string;
  amount: string;
  method: string;
  transaction: string;
  /** The amount column of a split collection's parts. */
  partAmount?: string;
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
  /** Under the signature line. */
  signature: string;
}

type PrintedPayment = Pick<
  Payment,
  | 'number'
  | 'date'
  | 'status'
  | 'paidOn'
  | 'amount'
  | 'currency'
  | 'method'
  | 'transactionNumber'
  | 'notes'
  | 'allocations'
  | 'unallocatedAmount'
  | 'reversedAt'
  | 'reversalReason'
> & {
  /** A collection split across methods (issue 35): each part is printed with its amount. */
  parts?: { method: Payment['method']; amount: string; transactionNumber: string | null }[];
};

export interface PaymentPrint {
  payment: PrintedPayment;
  language: Language;
  timeZone: string;
  texts: PaymentPrintTexts;
  /** The clinic's printed header. */
  header: unknown[];
  /** The party's column (who was paid, who paid). */
  partyFields: unknown[];
  /** Printed under the amount (a Spanish receipt's amount in words). */
  underAmount?: unknown[];
  /** Whether "on account" prints when nothing stays on account (a receipt leaves it out). */
  printsNothingOnAccount: boolean;
  /** A line under an allocation's document, by allocation id (a receipt's "Cuota 2 de 6", issue 40). */
  allocationNotes?: Map<string, string>;
}

/** The paper as a pdfmake document. */
export function paymentDocument({
  payment,
  language,
  timeZone,
  texts: t,
  header,
  partyFields,
  underAmount = [],
  printsNothingOnAccount,
  allocationNotes,
}: PaymentPrint): PdfDocument {
  const money = moneyFormatter(language, payment.currency);
  const day = calendarDateFormatter(language);
  // Once reversed, the allocations it had are printed (under the stamp); before, only the live ones.
  const live = payment.allocations.filter((allocation) => !allocation.reversed || payment.reversedAt);
  const table = {
    table: {
      headerRows: 1,
      widths: ['*', 'auto', 'auto', 'auto'],
      body: [
        headerRow([t.document, t.documentDate, t.documentTotal, t.applied], 2),
        ...live.map((allocation) => [
          allocationNotes?.has(allocation.id)
            ? {
                stack: [
                  `${documentTypeNames[language][allocation.document.documentType]} ${documentNumberText(allocation.document)}`,
                  { text: allocationNotes.get(allocation.id), fontSize: 8, color: '#555555' },
                ],
              }
            : `${documentTypeNames[language][allocation.document.documentType]} ${documentNumberText(allocation.document)}`,
          day(allocation.document.date),
          { text: money(allocation.document.total), alignment: 'right' },
          { text: money(allocation.amount), alignment: 'right' },
        ]),
      ],
    },
    layout: 'lightHorizontalLines',
  };
  const printsOnAccount = !payment.reversedAt && (printsNothingOnAccount || payment.unallocatedAmount !== '0.00');
  return {
    info: { title: `${t.title} ${payment.number}`, creator: 'Odontia' },
    pageMargins: [48, 48, 48, 64],
    content: [
      ...header,
      { text: t.title, style: 'title' },
      ...(payment.reversedAt
        ? [
            { text: t.reversed, color: '#b91c1c', bold: true, fontSize: 20, alignment: 'center', margin: [0, 0, 0, 4] },
            {
              text: `${t.reversedOn} ${instantFormatter(language, timeZone, 'date')(payment.reversedAt)} — ${t.reason}: ${payment.reversalReason ?? ''}`,
              color: '#b91c1c',
              alignment: 'center',
              margin: [0, 0, 0, 8],
            },
          ]
        : []),
      fieldColumns(
        [
          pdfField(t.number, payment.number),
          pdfField(t.date, day(payment.date)),
          pdfField(t.status, payment.status === 'paid' ? `${t.paidOn} ${day(payment.paidOn)}` : t.pending),
        ],
        partyFields,
      ),
      { text: t.amount, style: 'section' },
      { text: money(payment.amount), fontSize: 16, bold: true },
      ...underAmount,
      payment.parts && payment.parts.length > 1
        ? {
            margin: [0, 6, 0, 0],
            table: {
              headerRows: 1,
              widths: ['*', 'auto', 'auto'],
              body: [
                headerRow([t.method, t.transaction, t.partAmount ?? t.applied], 2),
                ...payment.parts.map((part) => [
                  paymentMethodNames[language][part.method],
                  part.transactionNumber ?? '—',
                  { text: money(part.amount), alignment: 'right' },
                ]),
              ],
            },
            layout: 'lightHorizontalLines',
          }
        : fieldColumns(
            [pdfField(t.method, paymentMethodNames[language][payment.method])],
            [pdfField(t.transaction, payment.transactionNumber ?? '—')],
          ),
      { text: t.allocations, style: 'section' },
      live.length > 0 ? table : { text: t.noAllocations, italics: true },
      ...(printsOnAccount
        ? [
            {
              margin: [0, 8, 0, 0],
              text: [{ text: `${t.onAccount}: `, bold: true }, money(payment.unallocatedAmount)],
            },
          ]
        : []),
      ...(payment.notes ? [{ text: t.notes, style: 'section' }, { text: payment.notes }] : []),
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
