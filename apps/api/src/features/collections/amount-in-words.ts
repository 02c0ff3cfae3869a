import type { Currency } from '@odontia/shared/enums';
import Big from 'big.js';

/**
 * An amount in Spanish words as a receipt writes it ("Son pesos tres mil quinientos con 50/100"),
 * the custom of a Spanish-speaking clinic's recibo. Whole units up to 999 999 999 999; the cents
 * as a fraction of 100.
 */

const upTo29 = [
  'cero',
  'uno',
  'dos',
  'tres',
  'cuatro',
  'cinco',
  'seis',
  'siete',
  'ocho',
  'nueve',
  'diez',
  'once',
  'doce',
  'trece',
  'catorce',
  'quince',
  'dieciséis',
  'diecisiete',
  'dieciocho',
  'diecinueve',
  'veinte',
  'veintiuno',
  'veintidós',
  'veintitrés',
  'veinticuatro',
  'veinticinco',
  'veintiséis',
  'veintisiete',
  'veintiocho',
  'veintinueve',
];
const tens = ['', '', '', 'treinta', 'cuarenta', 'cincuenta', 'sesenta', 'setenta', 'ochenta', 'noventa'];
const hundreds = [
  '',
  'ciento',
  'doscientos',
  'trescientos',
  'cuatrocientos',
  'quinientos',
  'seiscientos',
  'setecientos',
  'ochocientos',
  'novecientos',
];

/** 1…99; `short`: "un"/"veintiún" before "mil" and "millones". */
function belowHundred(n: number, short: boolean): string {
  if (n < 30) {
    if (short && n === 1) return 'un';
    if (short && n === 21) return 'veintiún';
    return upTo29[n] as string;
  }
  const unit = n % 10;
  const ten = tens[Math.floor(n / 10)] as string;
  if (unit === 0) return ten;
  return `${ten} y ${short && unit === 1 ? 'un' : upTo29[unit]}`;
}

/** 1…999. */
function belowThousand(n: number, short: boolean): string {
  const hundred = Math.floor(n / 100);
  const rest = n % 100;
  const head = hundred === 0 ? '' : hundred === 1 && rest === 0 ? 'cien' : (hundreds[hundred] as string);
  return [head, rest ? belowHundred(rest, short) : ''].filter(Boolean).join(' ');
}

/** 1…999 999. */
function belowMillion(n: number, short: boolean): string {
  const thousand = Math.floor(n / 1000);
  const rest = n % 1000;
  const head = thousand === 0 ? '' : thousand === 1 ? 'mil' : `${belowThousand(thousand, true)} mil`;
  return [head, rest ? belowThousand(rest, short) : ''].filter(Boolean).join(' ');
}

/** A whole number in Spanish words: 0 → "cero", 21 000 → "veintiún mil", 1 000 000 → "un millón". */
export function spanishNumber(n: number): string {
  if (!Number.isInteger(n) || n < 0 || n > 999_999_999_999) throw new RangeError(`out of range: ${n}`);
  if (n === 0) return 'cero';
  const million = Math.floor(n / 1_000_000);
  const rest = n % 1_000_000;
  const head = million === 0 ? '' : million === 1 ? 'un millón' : `${belowMillion(million, true)} millones`;
  return [head, rest ? belowMillion(rest, false) : ''].filter(Boolean).join(' ');
}

const currencyWords: Record<Currency, string> = {
  argentine_peso: 'pesos',
  us_dollar: 'dólares estadounidenses',
  euro: 'euros',
  brazilian_real: 'reales',
};

/** "pesos tres mil quinientos con 50/100" for '3500.50'. */
export function spanishAmount(amount: string, currency: Currency): string {
  const value = new Big(amount).abs();
  const units = Number(value.round(0, Big.roundDown).toFixed(0));
  const cents = value.minus(units).times(100).round(0, Big.roundHalfUp).toFixed(0).padStart(2, '0');
  return `${currencyWords[currency]} ${spanishNumber(units)} con ${cents}/100`;
}
