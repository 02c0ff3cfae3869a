/**
 * Pure ARCA (ex AFIP) rules and code tables for WSFEv1: who gets which voucher letter, the
 * codes the service expects, and what its error/observation codes mean for us.
 */

/** The receiver's VAT condition, as RG 5616 lists it (FEParamGetCondicionIvaReceptor). */
export type ArcaVatCondition =
  | 'responsable_inscripto'
  | 'exento'
  | 'consumidor_final'
  | 'monotributo'
  | 'sujeto_no_categorizado'
  /** Same as `sujeto_no_categorizado` (id 7). */
  | 'no_categorizado'
  | 'proveedor_exterior'
  | 'cliente_exterior'
  | 'iva_liberado'
  | 'monotributo_social'
  | 'iva_no_alcanzado'
  | 'monotributo_trabajador_independiente_promovido';

const CONDITION_IDS: Record<ArcaVatCondition, number> = {
  responsable_inscripto: 1,
  exento: 4,
  consumidor_final: 5,
  monotributo: 6,
  sujeto_no_categorizado: 7,
  no_categorizado: 7,
  proveedor_exterior: 8,
  cliente_exterior: 9,
  iva_liberado: 10,
  monotributo_social: 13,
  iva_no_alcanzado: 15,
  monotributo_trabajador_independiente_promovido: 16,
};

export function condicionIvaReceptorId(condition: ArcaVatCondition): number {
  return CONDITION_IDS[condition];
}

/**
 * The CondicionIVAReceptorId values a letter A voucher may carry: registered VAT payers and,
 * since RG 5003 (2021), every kind of monotributista. Letters B and C accept any condition
 * except that B is not for those (they get A from a responsable inscripto).
 */
export const CONDITIONS_FOR_LETTER_A: ReadonlySet<number> = new Set([1, 6, 13, 16]);

export function conditionFitsLetter(conditionId: number, letter: 'A' | 'B' | 'C'): boolean {
  if (!Object.values(CONDITION_IDS).includes(conditionId)) return false;
  if (letter === 'A') return CONDITIONS_FOR_LETTER_A.has(conditionId);
  if (letter === 'B') return !CONDITIONS_FOR_LETTER_A.has(conditionId);
  return true;
}

export function voucherLetter(
  issuer: 'responsable_inscripto' | 'monotributo' | 'exento',
  receiver: ArcaVatCondition,
): 'A' | 'B' | 'C' {
  if (issuer !== 'responsable_inscripto') return 'C';
  return CONDITIONS_FOR_LETTER_A.has(condicionIvaReceptorId(receiver)) ? 'A' : 'B';
}

const VOUCHER_TYPES = {
  invoice: { A: 1, B: 6, C: 11 },
  debit_note: { A: 2, B: 7, C: 12 },
  credit_note: { A: 3, B: 8, C: 13 },
} as const;

export function voucherType(kind: 'invoice' | 'debit_note' | 'credit_note', letter: 'A' | 'B' | 'C'): number {
  return VOUCHER_TYPES[kind][letter];
}

/** Letter and kind of a CbteTipo we issue (the A/B/C invoices and notes), or null. */
export function voucherTypeInfo(
  cbteTipo: number,
): { kind: 'invoice' | 'debit_note' | 'credit_note'; letter: 'A' | 'B' | 'C' } | null {
  for (const [kind, letters] of Object.entries(VOUCHER_TYPES)) {
    for (const [letter, code] of Object.entries(letters)) {
      if (code === cbteTipo)
        return { kind: kind as 'invoice' | 'debit_note' | 'credit_note', letter: letter as 'A' | 'B' | 'C' };
    }
  }
  return null;
}

/** FEParamGetTiposIva ids by rate, the rate written without trailing zeros. */
const VAT_RATE_IDS: Record<string, number> = { '0': 3, '10.5': 4, '21': 5, '27': 6, '5': 8, '2.5': 9 };

export function vatRateId(ratePercent: string): number {
  const trimmed = ratePercent.trim();
  if (!/^\d+(\.\d+)?$/.test(trimmed)) throw new Error(`VAT rate "${ratePercent}" is not a number`);
  const canonical = trimmed.includes('.') ? trimmed.replace(/0+$/, '').replace(/\.$/, '') : trimmed;
  const id = VAT_RATE_IDS[canonical.replace(/^0+(?=\d)/, '')];
  if (id === undefined) throw new Error(`VAT rate ${ratePercent}% has no ARCA code`);
  return id;
}

const CUIT_WEIGHTS = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2];

/** Modulo 11 check digit of a CUIT/CUIL; dashes and spaces are ignored. */
export function cuitIsValid(cuit: string): boolean {
  const digits = cuit.replace(/[-\s]/g, '');
  if (!/^\d{11}$/.test(digits)) return false;
  if (!['20', '23', '24', '25', '26', '27', '30', '33', '34'].includes(digits.slice(0, 2))) return false;
  const sum = CUIT_WEIGHTS.reduce((total, weight, i) => total + weight * Number(digits[i]), 0);
  const rest = 11 - (sum % 11);
  const check = rest === 11 ? 0 : rest;
  return check !== 10 && check === Number(digits[10]);
}

/** FEParamGetTiposDoc. */
export function documentTypeCode(kind: 'cuit' | 'cuil' | 'dni' | 'none'): number {
  return { cuit: 80, cuil: 86, dni: 96, none: 99 }[kind];
}

/** FEParamGetTiposMonedas ids by ISO 4217 code. */
const CURRENCY_CODES: Record<string, string> = {
  ARS: 'PES',
  USD: 'DOL',
  EUR: '060',
  BRL: '012',
  UYU: '011',
  MXN: '010',
  CHF: '009',
  CAD: '018',
  JPY: '019',
  GBP: '021',
  PYG: '029',
  CLP: '033',
};

export function currencyCode(iso: string): string {
  const code = CURRENCY_CODES[iso.toUpperCase()];
  if (!code) throw new Error(`Currency ${iso} has no ARCA code here`);
  return code;
}

/**
 * WSFEv1 error and observation codes (manual v4.x) mapped to a stable key of ours and, when the
 * user can fix it, the field to fix.
 */
export const arcaMessageKeys: Record<string, { key: string; field?: string }> = {
  '500': { key: 'service_internal_error' },
  '501': { key: 'service_database_error' },
  '502': { key: 'service_internal_error' },
  '600': { key: 'access_ticket_invalid' },
  '601': { key: 'cuit_not_in_ticket', field: 'issuer.cuit' },
  '602': { key: 'not_found' },
  '10000': { key: 'issuer_cuit_not_enabled', field: 'issuer.cuit' },
  '10004': { key: 'point_of_sale_invalid', field: 'ptoVta' },
  '10005': { key: 'point_of_sale_not_cae', field: 'ptoVta' },
  '10007': { key: 'voucher_type_invalid', field: 'cbteTipo' },
  '10013': { key: 'receiver_document_type_invalid', field: 'receiver.documentType' },
  '10015': { key: 'receiver_document_invalid', field: 'receiver.documentNumber' },
  '10016': { key: 'number_or_date_not_next', field: 'cbteNro' },
  '10036': { key: 'service_dates_required', field: 'fchServDesde' },
  '10048': { key: 'total_mismatch', field: 'impTotal' },
  '10040': { key: 'concept_invalid', field: 'concepto' },
  '10061': { key: 'vat_total_mismatch', field: 'impIva' },
  '10070': { key: 'vat_detail_required', field: 'iva' },
  '10071': { key: 'vat_not_allowed_letter_c', field: 'iva' },
  '10119': { key: 'currency_invalid', field: 'monId' },
  '10151': { key: 'associated_voucher_required', field: 'cbtesAsoc' },
  '10192': { key: 'associated_voucher_not_found', field: 'cbtesAsoc' },
  '10242': { key: 'receiver_vat_condition_invalid', field: 'receiver.vatCondition' },
  '10243': { key: 'receiver_vat_condition_not_for_letter', field: 'receiver.vatCondition' },
  '10246': { key: 'receiver_vat_condition_required', field: 'receiver.vatCondition' },
};
