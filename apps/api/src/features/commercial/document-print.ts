import type { Currency, Language } from '@odontia/shared/enums';
import type { PartySnapshot } from '@odontia/shared/schemas/clinic-fiscal';
import { moneyFormatter } from '../../lib/money-format.ts';
import {
  type ClinicPrintHeader,
  clinicHeader,
  documentStyles,
  fieldColumns,
  headerRow,
  type PdfDocument,
  pdfField,
  pdfFile,
} from '../../lib/pdf.ts';

/**
 * The printed commercial document, written once for a sale (issue 18) and a purchase order
 * (issue 35): the clinic's header, the title and a red stamp while a draft, the document's fields
 * beside the party's, the lines, the totals box and the notes. Each side gives its words, its
 * fields, its line columns and what it prints after the totals (a sale's settlement and hash).
 */

/** The words every printed document needs, in its language. */
export interface DocumentPrintTexts {
  draft: string;
  number: string;
  date: string;
  taxId: string;
  address: string;
  /** The lines' columns but the side's own. */
  description: string;
  quantity: string;
  unitPrice: string;
  discount: string;
  vat: string;
  amount: string;
  subtotal: string;
  discounts: string;
  taxable: string;
  vatAt: string;
  total: string;
  notes: string;
}

/** The words a sale and a purchase order print alike; each side adds its draft stamp, total and own words. */
const sharedLabels: Record<Language, Omit<DocumentPrintTexts, 'draft' | 'total'>> = {
  es: {
    number: 'Número',
    date: 'Fecha',
    taxId: 'Identificación fiscal',
    address: 'Domicilio',
    description: 'Descripción',
    quantity: 'Cant.',
    unitPrice: 'Precio unit.',
    discount: 'Bonif. %',
    vat: 'IVA %',
    amount: 'Importe',
    subtotal: 'Subtotal',
    discounts: 'Bonificaciones',
    taxable: 'Neto gravado',
    vatAt: 'IVA',
    notes: 'Observaciones',
  },
  en: {
    number: 'Number',
    date: 'Date',
    taxId: 'Tax ID',
    address: 'Address',
    description: 'Description',
    quantity: 'Qty',
    unitPrice: 'Unit price',
    discount: 'Disc. %',
    vat: 'VAT %',
    amount: 'Amount',
    subtotal: 'Subtotal',
    discounts: 'Discounts',
    taxable: 'Taxable base',
    vatAt: 'VAT',
    notes: 'Notes',
  },
  fr: {
    number: 'Numéro',
    date: 'Date',
    taxId: 'Identifiant fiscal',
    address: 'Adresse',
    description: 'Désignation',
    quantity: 'Qté',
    unitPrice: 'Prix unit.',
    discount: 'Remise %',
    vat: 'TVA %',
    amount: 'Montant',
    subtotal: 'Sous-total',
    discounts: 'Remises',
    taxable: 'Base HT',
    vatAt: 'TVA',
    notes: 'Observations',
  },
  pt: {
    number: 'Número',
    date: 'Data',
    taxId: 'Identificação fiscal',
    address: 'Endereço',
    description: 'Descrição',
    quantity: 'Qtd.',
    unitPrice: 'Preço unit.',
    discount: 'Desc. %',
    vat: 'IVA %',
    amount: 'Valor',
    subtotal: 'Subtotal',
    discounts: 'Descontos',
    taxable: 'Base tributável',
    vatAt: 'IVA',
    notes: 'Observações',
  },
};

/** A side's printed words: the shared labels with its own (draft stamp, total, party, extra fields). */
export function documentTexts<TOwn>(
  own: Record<Language, Pick<DocumentPrintTexts, 'draft' | 'total'> & TOwn>,
): Record<Language, DocumentPrintTexts & TOwn> {
  return Object.fromEntries(
    Object.entries(own).map(([language, words]) => [language, { ...sharedLabels[language as Language], ...words }]),
  ) as Record<Language, DocumentPrintTexts & TOwn>;
}

/** Renders a side's document and names its file after the printed title. */
export async function documentPdf(document: PdfDocument, title: string) {
  return pdfFile(document, `${title}.pdf`);
}

/** A rate or quantity as printed: no trailing zeros. */
export const printedRate = (value: string) => String(Number(value));

export const alignedRight = (text: string) => ({ text, alignment: 'right' });

interface PricedLine {
  quantity: string;
  unitPrice: string;
  discountRate: string;
  vatRate: string;
  subtotal: string;
}

/** A line's last columns on either side: quantity, unit price, discount, VAT rate and amount. */
export const priceCells = (line: PricedLine, money: (amount: string) => string) => [
  alignedRight(printedRate(line.quantity)),
  alignedRight(money(line.unitPrice)),
  alignedRight(printedRate(line.discountRate)),
  alignedRight(printedRate(line.vatRate)),
  alignedRight(money(line.subtotal)),
];

/** The party's column: its name (or the name the row had), legal name, tax id and address. */
export function partyColumn(
  t: DocumentPrintTexts,
  label: string,
  party: PartySnapshot | null,
  fallbackName: string | null,
): unknown[] {
  return [
    pdfField(label, party?.name ?? fallbackName ?? '—'),
    ...(party?.legalName ? [{ text: party.legalName }] : []),
    pdfField(t.taxId, party?.taxId ?? '—'),
    pdfField(t.address, [party?.address, party?.city].filter(Boolean).join(', ') || '—'),
  ];
}

interface PrintedDocument {
  status: string;
  currency: Currency;
  subtotal1: string;
  discountTotal: string;
  subtotal2: string;
  vatBreakdown: { rate: string; vat: string }[];
  total: string;
  notes: string | null;
}

export interface DocumentPrint<TLine> {
  document: PrintedDocument;
  lines: TLine[];
  language: Language;
  clinic: ClinicPrintHeader;
  title: string;
  texts: DocumentPrintTexts;
  /** The document's fields (number, date…) and the party's. */
  fields: unknown[];
  partyFields: unknown[];
  /** The lines' column headers (the first is the wide description) and one line's cells. */
  lineHeaders: string[];
  lineCells: (line: TLine, money: (amount: string) => string) => unknown[];
  /** Printed after the totals, before the notes. */
  afterTotals?: unknown[];
  /** Printed last. */
  footer?: unknown[];
}

export function documentPaper<TLine>({
  document,
  lines,
  language,
  clinic,
  title,
  texts: t,
  fields,
  partyFields,
  lineHeaders,
  lineCells,
  afterTotals = [],
  footer = [],
}: DocumentPrint<TLine>): PdfDocument {
  const money = moneyFormatter(language, document.currency);
  const totals = [
    [t.subtotal, money(document.subtotal1)],
    ...(Number(document.discountTotal) !== 0 ? [[t.discounts, `− ${money(document.discountTotal)}`]] : []),
    [t.taxable, money(document.subtotal2)],
    ...document.vatBreakdown.map((share) => [`${t.vatAt} ${printedRate(share.rate)} %`, money(share.vat)]),
  ];
  return {
    info: { title, creator: 'Odontia' },
    pageMargins: [48, 48, 48, 64],
    content: [
      ...clinicHeader({ clinicName: clinic.name, clinicContact: clinic.contact, clinic, language }),
      { text: title, style: 'title' },
      ...(document.status === 'draft'
        ? [{ text: t.draft, color: '#b91c1c', bold: true, alignment: 'center', margin: [0, 0, 0, 8] }]
        : []),
      fieldColumns(fields, partyFields),
      { text: ' ' },
      {
        table: {
          headerRows: 1,
          widths: ['*', ...lineHeaders.slice(1).map(() => 'auto')],
          body: [headerRow(lineHeaders, 2), ...lines.map((line) => lineCells(line, money))],
        },
        layout: 'lightHorizontalLines',
      },
      {
        margin: [0, 12, 0, 0],
        columns: [
          { width: '*', text: '' },
          {
            width: 'auto',
            table: {
              widths: ['auto', 'auto'],
              body: [
                ...totals.map(([label, value]) => [label, alignedRight(value as string)]),
                [
                  { text: t.total, bold: true, fontSize: 12 },
                  { text: money(document.total), bold: true, fontSize: 12, alignment: 'right' },
                ],
              ],
            },
            layout: 'noBorders',
          },
        ],
      },
      ...afterTotals,
      ...(document.notes ? [{ text: t.notes, style: 'section' }, { text: document.notes }] : []),
      ...footer,
    ],
    styles: documentStyles(),
  };
}
