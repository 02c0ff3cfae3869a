import type { Currency, Language } from '@odontia/shared/enums';
import Big from 'big.js';
import { toCardinal as englishNumber } from 'n2words/en-US';
import { toCardinal as frenchNumber } from 'n2words/fr-FR';
import { toCardinal as portugueseNumber } from 'n2words/pt-PT';

/**
 * An amount in words as a receipt writes it, in the customer's language: "Son pesos tres mil
 * quinientos con 50/100." (the custom of a Spanish-speaking clinic's recibo), "A importância de
 * dois mil e vinte e um reais e 50/100.", "La somme de…", "The sum of…". Whole units up to
 * 999 999 999 999; the cents as a fraction of 100. Spanish is written here (n2words writes
 * "veintiuno mil" where a receipt wants "veintiún mil"); the other languages come from n2words.
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

/** Each currency's name in each language: [one, many]. */
const currencyNames: Record<Language, Record<Currency, [string, string]>> = {
  es: {
    argentine_peso: ['peso', 'pesos'],
    us_dollar: ['dólar estadounidense', 'dólares estadounidenses'],
    euro: ['euro', 'euros'],
    brazilian_real: ['real', 'reales'],
  },
  en: {
    argentine_peso: ['Argentine peso', 'Argentine pesos'],
    us_dollar: ['US dollar', 'US dollars'],
    euro: ['euro', 'euros'],
    brazilian_real: ['Brazilian real', 'Brazilian reais'],
  },
  fr: {
    argentine_peso: ['peso argentin', 'pesos argentins'],
    us_dollar: ['dollar américain', 'dollars américains'],
    euro: ['euro', 'euros'],
    brazilian_real: ['réal brésilien', 'réais brésiliens'],
  },
  pt: {
    argentine_peso: ['peso argentino', 'pesos argentinos'],
    us_dollar: ['dólar americano', 'dólares americanos'],
    euro: ['euro', 'euros'],
    brazilian_real: ['real', 'reais'],
  },
};

function split(amount: string): { units: number; cents: string } {
  const value = new Big(amount).abs();
  const units = Number(value.round(0, Big.roundDown).toFixed(0));
  const cents = value.minus(units).times(100).round(0, Big.roundHalfUp).toFixed(0).padStart(2, '0');
  return { units, cents };
}

/** "pesos tres mil quinientos con 50/100" for '3500.50'. */
export function spanishAmount(amount: string, currency: Currency): string {
  const { units, cents } = split(amount);
  return `${currencyNames.es[currency][1]} ${spanishNumber(units)} con ${cents}/100`;
}

/** The receipt's sentence of the amount in words, in `language`. */
export function amountInWords(amount: string, currency: Currency, language: Language): string {
  if (language === 'es') return `Son ${spanishAmount(amount, currency)}.`;
  const { units, cents } = split(amount);
  if (units > 999_999_999_999) throw new RangeError(`out of range: ${units}`);
  const [one, many] = currencyNames[language][currency];
  const name = units === 1 ? one : many;
  if (language === 'en') return `The sum of ${englishNumber(units)} ${name} and ${cents}/100.`;
  if (language === 'fr') {
    const words = frenchNumber(units);
    // "un million d'euros", "deux milliards de pesos".
    const of = /(million|milliard)s?$/.test(words) ? (/^[aeiouéè]/i.test(name) ? " d'" : ' de ') : ' ';
    return `La somme de ${words}${of}${name} et ${cents}/100.`;
  }
  const words = portugueseNumber(units);
  // "um milhão de reais".
  const of = /(milhão|milhões|bilião|biliões|bilhão|bilhões)$/.test(words) ? ' de ' : ' ';
  return `A importância de ${words}${of}${name} e ${cents}/100.`;
}
