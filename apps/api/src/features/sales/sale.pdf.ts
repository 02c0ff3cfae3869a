import { documentMoneySign } from '@odontia/shared/commercial';
import { calendarDateFormatter } from '@odontia/shared/date-format';
import type { Language } from '@odontia/shared/enums';
import type { Sale } from '@odontia/shared/schemas/sales';
import { moneyFormatter } from '../../lib/money-format.ts';
import { type ClinicPrintHeader, headerRow, type PdfDocument, pdfField, printLanguage } from '../../lib/pdf.ts';
import { documentTypeNames, paymentMethodNames } from '../commercial/commercial-texts.ts';
import {
  alignedRight,
  documentPaper,
  documentPdf,
  documentTexts,
  partyColumn,
  priceCells,
} from '../commercial/document-print.ts';
import { fiscalBlock, fiscalFields, fiscalTitle, hasFiscalNumber, internalNumberLabel } from './sale-fiscal.pdf.ts';

/** A sale's texts in the customer's language (Spanish first). */
const texts = documentTexts<{
  dueDate: string;
  customer: string;
  condition: string;
  conditions: Record<string, string>;
  method: string;
  corrects: string;
  professional: string;
  tooth: string;
  hash: string;
  applied: string;
  appliedDate: string;
  appliedBy: string;
  balanceDue: string;
}>({
  es: {
    draft: 'BORRADOR — sin validez fiscal',
    dueDate: 'Vencimiento',
    customer: 'Cliente',
    condition: 'Condición de venta',
    conditions: { cash: 'Contado', cards: 'Tarjeta', current_account: 'Cuenta corriente' },
    method: 'Forma de pago',
    corrects: 'Corrige a',
    professional: 'Profesional',
    tooth: 'Pieza',
    total: 'Total',
    hash: 'Huella del documento (SHA-256)',
    applied: 'Cobros aplicados',
    appliedDate: 'Fecha',
    appliedBy: 'Cobro o nota',
    balanceDue: 'Saldo pendiente',
  },
  en: {
    draft: 'DRAFT — not a tax document',
    dueDate: 'Due date',
    customer: 'Customer',
    condition: 'Terms',
    conditions: { cash: 'Cash', cards: 'Card', current_account: 'On account' },
    method: 'Payment method',
    corrects: 'Corrects',
    professional: 'Practitioner',
    tooth: 'Tooth',
    total: 'Total',
    hash: 'Document fingerprint (SHA-256)',
    applied: 'Payments applied',
    appliedDate: 'Date',
    appliedBy: 'Payment or note',
    balanceDue: 'Balance due',
  },
  fr: {
    draft: 'BROUILLON — sans valeur fiscale',
    dueDate: 'Échéance',
    customer: 'Client',
    condition: 'Conditions',
    conditions: { cash: 'Comptant', cards: 'Carte', current_account: 'En compte' },
    method: 'Mode de paiement',
    corrects: 'Corrige',
    professional: 'Praticien',
    tooth: 'Dent',
    total: 'Total',
    hash: 'Empreinte du document (SHA-256)',
    applied: 'Paiements imputés',
    appliedDate: 'Date',
    appliedBy: 'Encaissement ou avoir',
    balanceDue: 'Reste dû',
  },
  pt: {
    draft: 'RASCUNHO — sem validade fiscal',
    dueDate: 'Vencimento',
    customer: 'Cliente',
    condition: 'Condição de venda',
    conditions: { cash: 'À vista', cards: 'Cartão', current_account: 'Conta corrente' },
    method: 'Forma de pagamento',
    corrects: 'Corrige',
    professional: 'Profissional',
    tooth: 'Dente',
    total: 'Total',
    hash: 'Impressão digital do documento (SHA-256)',
    applied: 'Recebimentos aplicados',
    appliedDate: 'Data',
    appliedBy: 'Recebimento ou nota',
    balanceDue: 'Saldo em aberto',
  },
});

export interface SalePdfData {
  sale: Sale;
  clinic: ClinicPrintHeader;
  readerLanguage: string | null;
}

/** The title of a sale as printed: "Factura 0001-00000123", or the type alone while a draft. */
export function saleTitle(sale: Pick<Sale, 'documentType' | 'number'>, language: Language): string {
  return `${documentTypeNames[language][sale.documentType]}${sale.number ? ` ${sale.number}` : ''}`;
}

/** The sale as a pdfmake document. */
export function saleDocument({ sale, clinic, readerLanguage }: SalePdfData): PdfDocument {
  const language = printLanguage(readerLanguage);
  const t = texts[language];
  const day = calendarDateFormatter(language);
  return documentPaper({
    document: sale,
    lines: sale.lines,
    language,
    clinic,
    title: fiscalTitle(documentTypeNames[language][sale.documentType], sale.number, sale.einvoice),
    texts: t,
    fields: [
      pdfField(hasFiscalNumber(sale.einvoice) ? internalNumberLabel[language] : t.number, sale.number ?? '—'),
      ...fiscalFields(sale.einvoice, sale.counterpartySnapshot?.fiscalCondition, language).map(([label, value]) =>
        pdfField(label, value),
      ),
      pdfField(t.date, day(sale.date)),
      ...(sale.dueDate && sale.conditionSale === 'current_account' ? [pdfField(t.dueDate, day(sale.dueDate))] : []),
      pdfField(t.condition, t.conditions[sale.conditionSale ?? 'current_account'] ?? ''),
      ...(sale.paymentMethod ? [pdfField(t.method, paymentMethodNames[language][sale.paymentMethod])] : []),
      ...(sale.relatedDocument
        ? [
            pdfField(
              t.corrects,
              `${documentTypeNames[language][sale.relatedDocument.documentType]} ${sale.relatedDocument.pointOfService ?? ''}-${sale.relatedDocument.documentNumber ?? ''}`,
            ),
          ]
        : []),
    ],
    partyFields: partyColumn(t, t.customer, sale.counterpartySnapshot, sale.customerName),
    lineHeaders: [t.description, t.tooth, t.quantity, t.unitPrice, t.discount, t.vat, t.amount],
    lineCells: (line, money) => [
      // Who did it, under the concept (issue 35): the patient reads which professional treated them.
      line.professionalName
        ? {
            stack: [
              line.description,
              { text: `${t.professional}: ${line.professionalName}`, fontSize: 8, color: '#555555' },
            ],
          }
        : line.description,
      line.tooth ?? '',
      ...priceCells(line, money),
    ],
    afterTotals: settlement(sale, language),
    footer: sale.contentHash
      ? [
          ...fiscalBlock(sale.einvoice, language),
          {
            margin: [0, 24, 0, 0],
            fontSize: 7,
            color: '#555555',
            stack: [`${t.hash}: ${sale.contentHash}`],
          },
        ]
      : [],
  });
}

/**
 * What settled an issued document the customer owes (an invoice, a debit note): the collections
 * and credit notes applied to it and what is still due. Nothing for a draft, a budget, a note
 * that gives money back, or a document nothing settled that was collected at issue.
 */
function settlement(sale: Sale, language: Language): unknown[] {
  if (sale.status !== 'issued' || documentMoneySign[sale.documentType] <= 0) return [];
  const applied = sale.allocations.filter((allocation) => !allocation.reversed);
  if (applied.length === 0 && Number(sale.openAmount) === 0) return [];
  const t = texts[language];
  const money = moneyFormatter(language, sale.currency);
  const day = calendarDateFormatter(language);
  return [
    ...(applied.length > 0
      ? [
          { text: t.applied, style: 'section' },
          {
            table: {
              headerRows: 1,
              widths: ['*', 'auto', 'auto'],
              body: [
                headerRow([t.appliedBy, t.appliedDate, t.amount], 1),
                ...applied.map((allocation) => [
                  allocation.paymentNumber ?? documentTypeNames[language].credit_note,
                  day(allocation.date),
                  alignedRight(money(allocation.amount)),
                ]),
              ],
            },
            layout: 'lightHorizontalLines',
          },
        ]
      : []),
    {
      margin: [0, 8, 0, 0],
      alignment: 'right',
      text: [{ text: `${t.balanceDue}: `, bold: true }, money(sale.openAmount)],
    },
  ];
}

export function salePdf(data: SalePdfData) {
  return documentPdf(saleDocument(data), saleTitle(data.sale, printLanguage(data.readerLanguage)));
}
