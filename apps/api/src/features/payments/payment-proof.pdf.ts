import { calendarDateFormatter, instantFormatter } from '@odontia/shared/date-format';
import type { Language } from '@odontia/shared/enums';
import type { Payment } from '@odontia/shared/schemas/payments';
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
import { documentNumberText, documentTypeNames, paymentMethodNames } from './commercial-texts.ts';
import { moneyFormatter } from './money-format.ts';

/** The proof of payment's texts in the reader's language (Spanish first). */
const texts: Record<
  Language,
  {
    title: string;
    number: string;
    date: string;
    provider: string;
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
    received: string;
  }
> = {
  es: {
    title: 'Orden de pago / Comprobante de pago',
    number: 'Número',
    date: 'Fecha',
    provider: 'Proveedor',
    taxId: 'Identificación fiscal',
    address: 'Domicilio',
    amount: 'Importe',
    method: 'Forma de pago',
    transaction: 'N.º de operación',
    status: 'Estado',
    pending: 'Pendiente',
    paidOn: 'Pagado el',
    allocations: 'Comprobantes que cancela',
    document: 'Comprobante',
    documentDate: 'Fecha',
    documentTotal: 'Total',
    applied: 'Imputado',
    noAllocations: 'Sin imputaciones: todo el importe queda a cuenta.',
    onAccount: 'Queda a cuenta',
    notes: 'Observaciones',
    reversed: 'ANULADO',
    reversedOn: 'Anulado el',
    reason: 'Motivo',
    received: 'Recibí conforme',
  },
  en: {
    title: 'Payment order / Proof of payment',
    number: 'Number',
    date: 'Date',
    provider: 'Provider',
    taxId: 'Tax ID',
    address: 'Address',
    amount: 'Amount',
    method: 'Payment method',
    transaction: 'Transaction no.',
    status: 'Status',
    pending: 'Pending',
    paidOn: 'Paid on',
    allocations: 'Documents it settles',
    document: 'Document',
    documentDate: 'Date',
    documentTotal: 'Total',
    applied: 'Applied',
    noAllocations: 'Not allocated: the whole amount stays on account.',
    onAccount: 'On account',
    notes: 'Notes',
    reversed: 'REVERSED',
    reversedOn: 'Reversed on',
    reason: 'Reason',
    received: 'Received by',
  },
  fr: {
    title: 'Ordre de paiement / Justificatif de paiement',
    number: 'Numéro',
    date: 'Date',
    provider: 'Fournisseur',
    taxId: 'Identifiant fiscal',
    address: 'Adresse',
    amount: 'Montant',
    method: 'Mode de paiement',
    transaction: "N° d'opération",
    status: 'Statut',
    pending: 'En attente',
    paidOn: 'Payé le',
    allocations: 'Pièces réglées',
    document: 'Pièce',
    documentDate: 'Date',
    documentTotal: 'Total',
    applied: 'Imputé',
    noAllocations: 'Sans imputation : tout le montant reste en acompte.',
    onAccount: 'Reste en acompte',
    notes: 'Observations',
    reversed: 'ANNULÉ',
    reversedOn: 'Annulé le',
    reason: 'Motif',
    received: 'Reçu par',
  },
  pt: {
    title: 'Ordem de pagamento / Comprovante de pagamento',
    number: 'Número',
    date: 'Data',
    provider: 'Fornecedor',
    taxId: 'Identificação fiscal',
    address: 'Endereço',
    amount: 'Valor',
    method: 'Forma de pagamento',
    transaction: 'N.º da operação',
    status: 'Situação',
    pending: 'Pendente',
    paidOn: 'Pago em',
    allocations: 'Documentos que quita',
    document: 'Documento',
    documentDate: 'Data',
    documentTotal: 'Total',
    applied: 'Imputado',
    noAllocations: 'Sem imputação: todo o valor fica como adiantamento.',
    onAccount: 'Fica como adiantamento',
    notes: 'Observações',
    reversed: 'ESTORNADO',
    reversedOn: 'Estornado em',
    reason: 'Motivo',
    received: 'Recebi',
  },
};

export interface PaymentProofData {
  payment: Payment;
  clinicName: string;
  clinicContact: string;
  /** The clinic's printed header (logo, fiscal data); without it, the name and contact. */
  clinic?: ClinicPrintHeader;
  readerLanguage: string | null;
  timeZone: string;
}

/** The proof of payment as a pdfmake document. */
export function paymentProofDocument({
  payment,
  clinicName,
  clinicContact,
  clinic,
  readerLanguage,
  timeZone,
}: PaymentProofData): PdfDocument {
  const language = printLanguage(readerLanguage);
  const t = texts[language];
  const money = moneyFormatter(language, payment.currency);
  const day = calendarDateFormatter(language);
  const provider = payment.counterpartySnapshot;
  const live = payment.allocations.filter((allocation) => !allocation.reversed || payment.reversedAt);
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
    info: { title: `${t.title} ${payment.number}`, creator: 'Odontia' },
    pageMargins: [48, 48, 48, 64],
    content: [
      ...clinicHeader({ clinicName, clinicContact, clinic, language }),
      { text: t.title, style: 'title' },
      ...(payment.reversedAt
        ? [
            {
              text: t.reversed,
              color: '#b91c1c',
              bold: true,
              fontSize: 20,
              alignment: 'center',
              margin: [0, 0, 0, 4],
            },
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
        [
          pdfField(t.provider, provider?.name ?? payment.providerName ?? '—'),
          ...(provider?.legalName ? [{ text: provider.legalName }] : []),
          pdfField(t.taxId, provider?.taxId ?? '—'),
          pdfField(t.address, provider?.address ?? '—'),
        ],
      ),
      { text: t.amount, style: 'section' },
      { text: money(payment.amount), fontSize: 16, bold: true },
      fieldColumns(
        [pdfField(t.method, paymentMethodNames[language][payment.method])],
        [pdfField(t.transaction, payment.transactionNumber ?? '—')],
      ),
      { text: t.allocations, style: 'section' },
      live.length > 0 ? table : { text: t.noAllocations, italics: true },
      ...(payment.reversedAt
        ? []
        : [
            {
              margin: [0, 8, 0, 0],
              text: [{ text: `${t.onAccount}: `, bold: true }, money(payment.unallocatedAmount)],
            },
          ]),
      ...(payment.notes ? [{ text: t.notes, style: 'section' }, { text: payment.notes }] : []),
      {
        margin: [260, 72, 0, 0],
        stack: [
          { canvas: [{ type: 'line', x1: 0, y1: 0, x2: 220, y2: 0, lineWidth: 0.8 }] },
          { text: t.received, alignment: 'center', fontSize: 8, color: '#555555', margin: [0, 4, 0, 0] },
        ],
      },
    ],
    styles: documentStyles(),
  };
}

export async function paymentProofPdf(data: PaymentProofData) {
  const pdf = await renderPdf(paymentProofDocument(data));
  return { pdf, fileName: safeFileName(`${data.payment.number}.pdf`) };
}
