import type { FiscalCondition } from '@odontia/shared/commercial';
import { calendarDateFormatter } from '@odontia/shared/date-format';
import type { Language } from '@odontia/shared/enums';
import type { Sale } from '@odontia/shared/schemas/sales';
import { fiscalConditionLabels } from '../../lib/fiscal-labels.ts';

/**
 * What a sale's paper says of its tax authority (issue 39), never more than the authority said:
 * ARCA's letter, voucher code, number, CAE, its due date and the fiscal QR once authorised; the
 * AEAT's QR and the "VERI*FACTU" legend for a Verifactu record; and plainly "sin validez fiscal"
 * while no authority has authorised it, or when none is configured.
 */

type Einvoice = NonNullable<Sale['einvoice']>;

interface FiscalTexts {
  voucherCode: string;
  customerCondition: string;
  cae: string;
  caeDue: string;
  arcaAuthorised: string;
  arcaPending: string;
  arcaRejected: string;
  verifactuLegend: string;
  verifactuRejected: string;
  local: string;
  homologation: string;
  notSent: string;
}

const fiscalTexts: Record<Language, FiscalTexts> = {
  es: {
    voucherCode: 'Cód.',
    customerCondition: 'IVA del cliente',
    cae: 'CAE',
    caeDue: 'Vto. CAE',
    arcaAuthorised: 'Comprobante autorizado por ARCA',
    arcaPending: 'Pendiente de autorización de ARCA: sin validez fiscal hasta obtener el CAE',
    arcaRejected: 'Rechazado por ARCA: sin validez fiscal',
    verifactuLegend: 'Factura verificable en la sede electrónica de la AEAT',
    verifactuRejected: 'Registro rechazado por la AEAT: pendiente de subsanar',
    local: 'Documento sin validez fiscal: no se ha enviado a ninguna autoridad tributaria',
    homologation: 'Entorno de homologación (pruebas) de la autoridad: sin validez fiscal',
    notSent: 'No enviado a la autoridad tributaria: corrige un comprobante rechazado',
  },
  en: {
    voucherCode: 'Code',
    customerCondition: 'Customer’s VAT status',
    cae: 'CAE',
    caeDue: 'CAE due',
    arcaAuthorised: 'Voucher authorised by ARCA',
    arcaPending: 'Awaiting ARCA authorisation: not a valid tax document until it has a CAE',
    arcaRejected: 'Rejected by ARCA: not a valid tax document',
    verifactuLegend: 'Invoice verifiable at the AEAT website',
    verifactuRejected: 'Record rejected by the AEAT: to be corrected',
    local: 'Not a valid tax document: it was not sent to any tax authority',
    homologation: 'The authority’s test (homologation) environment: not a valid tax document',
    notSent: 'Not sent to the tax authority: it corrects a rejected voucher',
  },
  fr: {
    voucherCode: 'Code',
    customerCondition: 'TVA du client',
    cae: 'CAE',
    caeDue: 'Échéance CAE',
    arcaAuthorised: 'Pièce autorisée par l’ARCA',
    arcaPending: 'En attente d’autorisation de l’ARCA : sans valeur fiscale avant le CAE',
    arcaRejected: 'Rejetée par l’ARCA : sans valeur fiscale',
    verifactuLegend: 'Facture vérifiable sur le site de l’AEAT',
    verifactuRejected: 'Enregistrement rejeté par l’AEAT : à corriger',
    local: 'Document sans valeur fiscale : envoyé à aucune autorité fiscale',
    homologation: 'Environnement de test (homologation) de l’autorité : sans valeur fiscale',
    notSent: 'Non envoyé à l’autorité fiscale : corrige une pièce rejetée',
  },
  pt: {
    voucherCode: 'Cód.',
    customerCondition: 'IVA do cliente',
    cae: 'CAE',
    caeDue: 'Venc. CAE',
    arcaAuthorised: 'Comprovante autorizado pela ARCA',
    arcaPending: 'Aguardando autorização da ARCA: sem validade fiscal até obter o CAE',
    arcaRejected: 'Rejeitado pela ARCA: sem validade fiscal',
    verifactuLegend: 'Fatura verificável no site da AEAT',
    verifactuRejected: 'Registro rejeitado pela AEAT: a corrigir',
    local: 'Documento sem validade fiscal: não foi enviado a nenhuma autoridade tributária',
    homologation: 'Ambiente de homologação (testes) da autoridade: sem validade fiscal',
    notSent: 'Não enviado à autoridade tributária: corrige um comprovante rejeitado',
  },
};

/**
 * The title names the document as the authority knows it: ARCA's letter and number ("Factura B
 * 00003-00000042", the letter alone until authorised), Verifactu's series-number; our own number
 * is then printed as the internal one.
 */
export function fiscalTitle(typeName: string, ownNumber: string | null, einvoice: Einvoice | null): string {
  if (einvoice?.adapter === 'arca' && einvoice.letter) {
    return `${typeName} ${einvoice.letter}${einvoice.fiscalNumber ? ` ${einvoice.fiscalNumber}` : ''}`;
  }
  const number = einvoice?.fiscalNumber ?? ownNumber;
  return number ? `${typeName} ${number}` : typeName;
}

/** Whether the title carries the authority's number (ours is then the internal one). */
export const hasFiscalNumber = (einvoice: Einvoice | null) =>
  einvoice?.adapter === 'arca' || einvoice?.adapter === 'verifactu';

/**
 * ARCA's voucher type code beside the number ("Cód. 006") and the customer's VAT condition, which
 * decided the letter (a patient without one is a consumidor final).
 */
export function fiscalFields(
  einvoice: Einvoice | null,
  customerCondition: string | null | undefined,
  language: Language,
): [string, string][] {
  if (einvoice?.adapter !== 'arca' || einvoice.voucherType === null) return [];
  const condition = (customerCondition ?? 'ar_consumidor_final') as FiscalCondition;
  return [
    [fiscalTexts[language].voucherCode, String(einvoice.voucherType).padStart(3, '0')],
    [fiscalTexts[language].customerCondition, fiscalConditionLabels[language][condition] ?? condition],
  ];
}

export const internalNumberLabel: Record<Language, string> = {
  es: 'Número interno',
  en: 'Internal number',
  fr: 'Numéro interne',
  pt: 'Número interno',
};

const notice = (text: string, color = '#b91c1c') => ({ text, bold: true, color, fontSize: 9, margin: [0, 4, 0, 0] });

/** The block at the foot: the QR and the authority's words, or the plain statement of no validity. */
export function fiscalBlock(einvoice: Einvoice | null, language: Language): unknown[] {
  if (!einvoice) return [];
  const block = authorityBlock(einvoice, language);
  return einvoice.environment === 'homologation' && block.length > 0
    ? [...block, notice(fiscalTexts[language].homologation)]
    : block;
}

function authorityBlock(einvoice: Einvoice, language: Language): unknown[] {
  const t = fiscalTexts[language];
  const day = calendarDateFormatter(language);
  const qr = (lines: unknown[]) => ({
    margin: [0, 16, 0, 0],
    columns: [
      { qr: einvoice.qrUrl ?? '', fit: 110, width: 'auto' },
      { width: '*', margin: [12, 0, 0, 0], fontSize: 9, stack: lines },
    ],
  });
  if (einvoice.status === 'not_sent') return [notice(t.notSent)];
  if (einvoice.adapter === 'arca') {
    if (einvoice.status === 'accepted' && einvoice.qrUrl) {
      return [
        qr([
          { text: t.arcaAuthorised, bold: true },
          `${t.cae}: ${einvoice.authorizationCode ?? ''}`,
          ...(einvoice.authorizationDueDate ? [`${t.caeDue}: ${day(einvoice.authorizationDueDate)}`] : []),
        ]),
      ];
    }
    return [notice(einvoice.status === 'rejected' ? t.arcaRejected : t.arcaPending)];
  }
  if (einvoice.adapter === 'verifactu' && einvoice.qrUrl) {
    return [
      qr([
        { text: 'VERI*FACTU', bold: true, fontSize: 11 },
        t.verifactuLegend,
        ...(einvoice.status === 'rejected' ? [notice(t.verifactuRejected)] : []),
      ]),
    ];
  }
  return [notice(t.local, '#555555')];
}
