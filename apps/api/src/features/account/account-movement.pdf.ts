import { calendarDateFormatter } from '@odontia/shared/date-format';
import type { Language } from '@odontia/shared/enums';
import type { AccountMovement } from '@odontia/shared/schemas/account';
import { formatTaxId, type TaxIdKind } from '@odontia/shared/tax-ids';
import { taxIdKindLabels } from '../../lib/fiscal-labels.ts';
import { moneyFormatter } from '../../lib/money-format.ts';
import { headerRule, type PdfDocument, pdfField, pdfFile, printLanguage } from '../../lib/pdf.ts';

/**
 * One movement between the clinic and Odontia as a PDF (issue 19), in the clinic's language:
 * Odontia at the top, the clinic as its customer (billing data, or its fiscal data), the kind,
 * reference, date, plan, period covered, amount and state.
 */

interface Texts {
  issuer: string;
  kinds: Record<AccountMovement['kind'], string>;
  statuses: Record<AccountMovement['status'], string>;
  customer: string;
  taxId: string;
  address: string;
  email: string;
  reference: string;
  date: string;
  plan: string;
  period: string;
  amount: string;
  status: string;
  paidOn: string;
  manualNote: string;
}

const texts: Record<Language, Texts> = {
  es: {
    issuer: 'Odontia — suscripción de la clínica',
    kinds: { charge: 'Cargo', payment: 'Pago recibido', renewal_order: 'Orden de renovación' },
    statuses: { pending: 'Pendiente de pago', paid: 'Pagado', cancelled: 'Anulado' },
    customer: 'Cliente',
    taxId: 'Identificación fiscal',
    address: 'Domicilio',
    email: 'Correo de facturación',
    reference: 'Referencia',
    date: 'Fecha',
    plan: 'Plan',
    period: 'Período',
    amount: 'Importe',
    status: 'Estado',
    paidOn: 'Pagado el',
    manualNote: 'Indica la referencia al hacer la transferencia: el pago se acredita al recibirla.',
  },
  en: {
    issuer: "Odontia — the clinic's subscription",
    kinds: { charge: 'Charge', payment: 'Payment received', renewal_order: 'Renewal order' },
    statuses: { pending: 'Awaiting payment', paid: 'Paid', cancelled: 'Cancelled' },
    customer: 'Customer',
    taxId: 'Tax ID',
    address: 'Address',
    email: 'Billing e-mail',
    reference: 'Reference',
    date: 'Date',
    plan: 'Plan',
    period: 'Period',
    amount: 'Amount',
    status: 'Status',
    paidOn: 'Paid on',
    manualNote: 'Quote the reference with your transfer: the payment is credited when it arrives.',
  },
  fr: {
    issuer: 'Odontia — abonnement de la clinique',
    kinds: { charge: 'Facturation', payment: 'Paiement reçu', renewal_order: 'Ordre de renouvellement' },
    statuses: { pending: 'En attente de paiement', paid: 'Payé', cancelled: 'Annulé' },
    customer: 'Client',
    taxId: 'Identifiant fiscal',
    address: 'Adresse',
    email: 'E-mail de facturation',
    reference: 'Référence',
    date: 'Date',
    plan: 'Formule',
    period: 'Période',
    amount: 'Montant',
    status: 'Statut',
    paidOn: 'Payé le',
    manualNote: 'Indiquez la référence avec votre virement : le paiement est crédité à sa réception.',
  },
  pt: {
    issuer: 'Odontia — assinatura da clínica',
    kinds: { charge: 'Cobrança', payment: 'Pagamento recebido', renewal_order: 'Ordem de renovação' },
    statuses: { pending: 'Aguardando pagamento', paid: 'Pago', cancelled: 'Cancelado' },
    customer: 'Cliente',
    taxId: 'Identificação fiscal',
    address: 'Endereço',
    email: 'E-mail de faturamento',
    reference: 'Referência',
    date: 'Data',
    plan: 'Plano',
    period: 'Período',
    amount: 'Valor',
    status: 'Situação',
    paidOn: 'Pago em',
    manualNote: 'Informe a referência na transferência: o pagamento é creditado ao recebê-la.',
  },
};

export interface MovementPrint {
  movement: AccountMovement;
  planName: string | null;
  customer: {
    name: string;
    taxId: string | null;
    /** The fiscal data's kind of tax id (CUIT, NIF…): printed with it, formatted. */
    taxIdKind: string | null;
    address: string | null;
    email: string | null;
  };
  language: string | null;
}

export function accountMovementDocument({ movement, planName, customer, language: asked }: MovementPrint): PdfDocument {
  const language = printLanguage(asked);
  const t = texts[language];
  const day = calendarDateFormatter(language);
  const money = moneyFormatter(language, movement.currency);
  const title = t.kinds[movement.kind];
  return {
    info: { title: `${title} ${movement.reference}`, creator: 'Odontia' },
    pageMargins: [48, 48, 48, 64],
    content: [
      { text: 'Odontia', style: 'clinic' },
      { text: t.issuer, color: '#555555', fontSize: 9, margin: [0, 0, 0, 8] },
      headerRule(),
      { text: title, style: 'title' },
      {
        columns: [
          [
            pdfField(t.customer, customer.name),
            customer.taxId && customer.taxIdKind
              ? pdfField(
                  taxIdKindLabels[language][customer.taxIdKind as TaxIdKind] ?? t.taxId,
                  formatTaxId(customer.taxIdKind as TaxIdKind, customer.taxId),
                )
              : pdfField(t.taxId, customer.taxId ?? '—'),
            pdfField(t.address, customer.address ?? '—'),
            pdfField(t.email, customer.email ?? '—'),
          ],
          [
            pdfField(t.reference, movement.reference),
            pdfField(t.date, day(movement.date)),
            pdfField(t.status, t.statuses[movement.status]),
            ...(movement.paidAt ? [pdfField(t.paidOn, day(movement.paidAt.slice(0, 10)))] : []),
          ],
        ],
        columnGap: 16,
        margin: [0, 0, 0, 16],
      },
      {
        table: {
          headerRows: 1,
          widths: ['*', 'auto', 'auto'],
          body: [
            [
              { text: t.plan, bold: true },
              { text: t.period, bold: true },
              { text: t.amount, bold: true, alignment: 'right' },
            ],
            [
              planName ?? movement.plan ?? '—',
              movement.periodStart && movement.periodEnd
                ? `${day(movement.periodStart)} – ${day(movement.periodEnd)}`
                : '—',
              { text: money(movement.amount), alignment: 'right', bold: true },
            ],
          ],
        },
        layout: 'lightHorizontalLines',
      },
      ...(movement.kind === 'renewal_order' && movement.status === 'pending'
        ? [{ text: t.manualNote, margin: [0, 16, 0, 0], color: '#555555' }]
        : []),
    ],
    styles: {
      clinic: { fontSize: 16, bold: true },
      title: { fontSize: 14, bold: true, alignment: 'center', margin: [0, 12, 0, 12] },
    },
  };
}

export async function accountMovementPdf(print: MovementPrint) {
  return pdfFile(accountMovementDocument(print), `${print.movement.reference}.pdf`);
}
