import type { Language } from '@odontia/shared/enums';
import type { Payment } from '@odontia/shared/schemas/payments';
import {
  clinicHeader,
  type PdfDocument,
  type PrintingClinic,
  pdfField,
  pdfFile,
  printLanguage,
} from '../../lib/pdf.ts';
import { type PaymentPrintTexts, paymentDocument } from '../commercial/payment-print.ts';

/** The proof of payment's texts in the reader's language (Spanish first). */
const texts: Record<Language, PaymentPrintTexts & { provider: string; taxId: string; address: string }> = {
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
    signature: 'Recibí conforme',
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
    signature: 'Received by',
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
    signature: 'Reçu par',
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
    signature: 'Recebi',
  },
};

export interface PaymentProofData extends PrintingClinic {
  payment: Payment;
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
  const provider = payment.counterpartySnapshot;
  return paymentDocument({
    payment,
    language,
    timeZone,
    texts: t,
    header: clinicHeader({ clinicName, clinicContact, clinic, language }),
    partyFields: [
      pdfField(t.provider, provider?.name ?? payment.providerName ?? '—'),
      ...(provider?.legalName ? [{ text: provider.legalName }] : []),
      pdfField(t.taxId, provider?.taxId ?? '—'),
      pdfField(t.address, provider?.address ?? '—'),
    ],
    printsNothingOnAccount: true,
  });
}

export async function paymentProofPdf(data: PaymentProofData) {
  return pdfFile(paymentProofDocument(data), `${data.payment.number}.pdf`);
}
