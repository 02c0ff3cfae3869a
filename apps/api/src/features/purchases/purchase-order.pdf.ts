import { calendarDateFormatter } from '@odontia/shared/date-format';
import type { Language } from '@odontia/shared/enums';
import type { Purchase } from '@odontia/shared/schemas/commercial-documents';
import { type ClinicPrintHeader, type PdfDocument, pdfField, printLanguage } from '../../lib/pdf.ts';
import { documentTypeNames } from '../commercial/commercial-texts.ts';
import { documentPaper, documentPdf, documentTexts, partyColumn, priceCells } from '../commercial/document-print.ts';

/**
 * A purchase order as the clinic prints and mails it (issue 35): the clinic's header, the
 * provider, the lines with quantities and expected prices, totals, the delivery date and the
 * notes, in the reader's language (the signed-in user's, as the payments' papers: a provider
 * has none of its own), money in the order's currency, which is the clinic's.
 */

const texts = documentTexts<{
  deliveryDate: string;
  provider: string;
  email: string;
  sku: string;
  mail: (title: string, clinic: string) => string;
}>({
  es: {
    draft: 'BORRADOR — orden no emitida',
    deliveryDate: 'Entrega solicitada',
    provider: 'Proveedor',
    email: 'Correo',
    sku: 'Código',
    total: 'Total estimado',
    mail: (title, clinic) =>
      `Estimados:\n\nLes enviamos adjunta nuestra ${title}. Les pedimos que nos confirmen su recepción y la fecha de entrega.\n\nMuchas gracias,\n${clinic}`,
  },
  en: {
    draft: 'DRAFT — order not issued',
    deliveryDate: 'Delivery requested',
    provider: 'Provider',
    email: 'E-mail',
    sku: 'Code',
    total: 'Estimated total',
    mail: (title, clinic) =>
      `Hello,\n\nPlease find attached our ${title}. Kindly confirm its receipt and the delivery date.\n\nThank you,\n${clinic}`,
  },
  fr: {
    draft: 'BROUILLON — commande non émise',
    deliveryDate: 'Livraison souhaitée',
    provider: 'Fournisseur',
    email: 'E-mail',
    sku: 'Référence',
    total: 'Total estimé',
    mail: (title, clinic) =>
      `Madame, Monsieur,\n\nVeuillez trouver ci-joint notre ${title}. Merci de nous en confirmer la réception et la date de livraison.\n\nCordialement,\n${clinic}`,
  },
  pt: {
    draft: 'RASCUNHO — pedido não emitido',
    deliveryDate: 'Entrega solicitada',
    provider: 'Fornecedor',
    email: 'E-mail',
    sku: 'Código',
    total: 'Total estimado',
    mail: (title, clinic) =>
      `Prezados,\n\nSegue em anexo nosso ${title}. Pedimos que confirmem o recebimento e a data de entrega.\n\nObrigado,\n${clinic}`,
  },
});

export interface PurchaseOrderPdfData {
  purchase: Purchase;
  clinic: ClinicPrintHeader;
  readerLanguage: string | null;
}

/** The order's number as printed, `OC-00000001` (none while a draft). */
export const orderNumberOf = (purchase: Pick<Purchase, 'pointOfService' | 'documentNumber'>) =>
  purchase.documentNumber ? `${purchase.pointOfService ?? ''}-${purchase.documentNumber}` : null;

/** "Orden de compra OC-00000001", or the type alone while a draft. */
export function purchaseOrderTitle(purchase: Purchase, language: Language): string {
  const number = orderNumberOf(purchase);
  return `${documentTypeNames[language].purchase_order}${number ? ` ${number}` : ''}`;
}

export function purchaseOrderDocument({ purchase, clinic, readerLanguage }: PurchaseOrderPdfData): PdfDocument {
  const language = printLanguage(readerLanguage);
  const t = texts[language];
  const day = calendarDateFormatter(language);
  const provider = purchase.issuerSnapshot;
  return documentPaper({
    document: purchase,
    lines: purchase.lines,
    language,
    clinic,
    title: purchaseOrderTitle(purchase, language),
    texts: t,
    fields: [
      pdfField(t.number, orderNumberOf(purchase) ?? '—'),
      pdfField(t.date, day(purchase.date)),
      ...(purchase.deliveryDate ? [pdfField(t.deliveryDate, day(purchase.deliveryDate))] : []),
    ],
    partyFields: [
      ...partyColumn(t, t.provider, provider, purchase.providerName),
      ...(provider?.email ? [pdfField(t.email, provider.email)] : []),
    ],
    lineHeaders: [t.description, t.sku, t.quantity, t.unitPrice, t.discount, t.vat, t.amount],
    lineCells: (line, money) => [line.description, line.skuProvider ?? '', ...priceCells(line, money)],
  });
}

export function purchaseOrderPdf(data: PurchaseOrderPdfData) {
  return documentPdf(
    purchaseOrderDocument(data),
    purchaseOrderTitle(data.purchase, printLanguage(data.readerLanguage)),
  );
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** The e-mail that carries the order's PDF to the provider. */
export function purchaseOrderMail(data: PurchaseOrderPdfData): { subject: string; text: string; html: string } {
  const language = printLanguage(data.readerLanguage);
  const title = purchaseOrderTitle(data.purchase, language);
  const text = texts[language].mail(title.charAt(0).toLowerCase() + title.slice(1), data.clinic.name);
  const html = text
    .split('\n\n')
    .map((paragraph) => `<p>${escapeHtml(paragraph).replaceAll('\n', '<br>')}</p>`)
    .join('');
  return { subject: `${title} — ${data.clinic.name}`, text, html };
}
