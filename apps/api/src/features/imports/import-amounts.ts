import { type DecimalSeparator, decimalSeparatorOf, normalizeDecimal } from '@odontia/shared/decimal-input';
import Big from 'big.js';

/**
 * Amounts as another system exports them (issue 42): "12.500,50", "12,500.50", "1250", "1.250",
 * "€ 1.250,00", "-30,5", "$1,234.56", read with the clinic's decimal separator and never through a
 * float. The answer is a plain decimal string ("12500.50") the feature's own contract reads, or a
 * field code:
 *
 * - Currency signs and codes (€, $, R$, EUR, USD, ARS…) and spaces around them are left out; a
 *   leading or trailing minus, or parentheses, make it negative.
 * - Both '.' and ',' in it: the last one is the decimal separator, the other groups thousands.
 * - One of them more than once: it groups thousands ("1.250.000"); groups are checked.
 * - One of them once with one or two digits after it: the decimal separator ("30,5", "12.50").
 * - One of them once with three digits after it: it groups thousands when it is not the clinic's
 *   decimal separator ("1.250" in Spain is 1250); when it is ("1,250" in Spain), it could be either:
 *   `ambiguous_number`.
 * - More than two decimals: `too_many_decimals` (trailing zeros aside: "21,000" is not refused for them).
 * - More than twelve digits before the point (numeric(14,2)): `too_big`.
 * - Anything else (text, two signs, "1.2.3"): `invalid_number`.
 */

export type AmountResult =
  | { value: string }
  | { code: 'invalid_number' | 'ambiguous_number' | 'too_many_decimals' | 'too_big' };

/** Countries whose people write decimals with a point whatever the clinic's language. */
const pointCountries = new Set([
  'MX',
  'US',
  'GB',
  'IE',
  'GT',
  'HN',
  'NI',
  'SV',
  'PA',
  'DO',
  'PR',
  'AU',
  'NZ',
  'CA',
  'PH',
]);

/** The clinic's decimal separator: its country's when known to use a point, else its language's. */
export function clinicDecimalSeparator(clinic: { language: string; country?: string | null }): DecimalSeparator {
  if (clinic.country && pointCountries.has(clinic.country.toUpperCase())) return '.';
  return decimalSeparatorOf(clinic.language);
}

const currencyMarks = /(?:R\$|US\$|AR\$|\$|€|£|EUR|USD|ARS|BRL|MXN|CLP|COP|UYU|PEN|GBP)/gi;
const spaces = /[\s\u00a0\u202f\u2009]/g;

/** The largest whole part numeric(14,2) keeps: twelve digits. */
const maxWholeDigits = 12;

export function parseAmount(text: string, separator: DecimalSeparator): AmountResult {
  let body = text.replace(currencyMarks, '').replace(spaces, '');
  let negative = false;
  if (/^\(.*\)$/.test(body)) {
    negative = true;
    body = body.slice(1, -1);
  }
  if (body.startsWith('-') || body.startsWith('−')) {
    negative = !negative;
    body = body.slice(1);
  } else if (body.endsWith('-')) {
    negative = !negative;
    body = body.slice(0, -1);
  } else if (body.startsWith('+')) body = body.slice(1);
  if (!/^\d[\d.,']*$/.test(body) || !/\d$/.test(body)) return { code: 'invalid_number' };

  const dots = body.split('.').length - 1;
  const commas = body.split(',').length - 1;
  if (dots + commas === 1) {
    const mark = dots === 1 ? '.' : ',';
    const after = body.slice(body.indexOf(mark) + 1);
    if (/^\d{3}$/.test(after) && mark === separator) return { code: 'ambiguous_number' };
  }
  // One mark once, not the clinic's decimal separator, three digits after it: it groups.
  const plain = normalizeDecimal(body, separator);
  if (plain === null) return { code: 'invalid_number' };
  const [whole = '', decimals = ''] = plain.split('.');
  if (decimals.replace(/0+$/, '').length > 2) return { code: 'too_many_decimals' };
  if (whole.replace(/^0+(?=\d)/, '').length > maxWholeDigits) return { code: 'too_big' };
  const amount = new Big(plain);
  return { value: (negative && !amount.eq(0) ? amount.neg() : amount).toFixed(2) };
}

/** A percentage as written: "21", "21%", "21,0", "10.5 %": a decimal string, or a field code (0–100 is the contract's). */
export function parsePercent(text: string, separator: DecimalSeparator): AmountResult {
  const body = text.replace(spaces, '').replace(/%$/, '');
  if (/[^\d.,+-]/.test(body)) return { code: 'invalid_number' };
  const result = parseAmount(body, separator);
  if ('value' in result) return { value: new Big(result.value).toString() };
  return result;
}
