/**
 * A number as people type it: "12.500,50" (es, pt, fr), "12,500.50" (en), "12 500,50" (fr),
 * "1234.5", "1234,50", "12.500" (twelve thousand five hundred in Spanish, 12.5 in English).
 * `normalizeDecimal` gives the plain decimal ("12500.50", "12500") that contracts and the database
 * read, or null when the text is not a number.
 *
 * - Both '.' and ',' in it: the last one is the decimal separator, the other groups thousands.
 * - One of them, more than once: it groups thousands ("1.234.567").
 * - One of them, once: a decimal separator, except when exactly three digits follow it and it is
 *   not the typist's decimal separator ("12.500" in Spanish, "12,500" in English): then it groups.
 *   Without a known typist (an API client, an import file), it is a decimal separator as before.
 * - Spaces (also no-break and thin ones) and the apostrophe ("1'000") group thousands too.
 * Groups are checked: "1.23.456" or "12 34" are not numbers.
 */

export type DecimalSeparator = ',' | '.';

let typistSeparator: DecimalSeparator | null = null;

/** The decimal separator of the interface language ('.' in English, ',' in Spanish, Portuguese and French). */
export function decimalSeparatorOf(language: string): DecimalSeparator {
  return language.toLowerCase().startsWith('en') ? '.' : ',';
}

/**
 * Sets who types the numbers that schemas parse from now on: the web calls it with the interface
 * language (and again when it changes); the server never does (null: not known).
 */
export function setTypingLanguage(language: string | null | undefined): void {
  typistSeparator = language ? decimalSeparatorOf(language) : null;
}

const groupSpaces = /[\s\u00a0\u202f\u2009']/;

/** Whether `digits` split by `separator` are thousands groups: 1–3 digits, then groups of 3. */
function groupsOf(text: string, separator: RegExp | string): string | null {
  const groups = text.split(separator);
  if (groups.length === 1) return /^\d+$/.test(text) ? text : null;
  if (!/^\d{1,3}$/.test(groups[0] ?? '')) return null;
  return groups.slice(1).every((group) => /^\d{3}$/.test(group)) ? groups.join('') : null;
}

export function normalizeDecimal(
  value: string | number,
  separator: DecimalSeparator | null = typistSeparator,
): string | null {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? String(value) : null;
  const text = value.trim();
  if (!/^\d[\d.,\s\u00a0\u202f\u2009']*$/.test(text) || !/\d$/.test(text)) return null;
  const lastDot = text.lastIndexOf('.');
  const lastComma = text.lastIndexOf(',');
  let decimalMark: DecimalSeparator | null = null;
  if (lastDot >= 0 && lastComma >= 0) decimalMark = lastDot > lastComma ? '.' : ',';
  else if (lastDot >= 0 || lastComma >= 0) {
    const mark: DecimalSeparator = lastDot >= 0 ? '.' : ',';
    const once = text.indexOf(mark) === text.lastIndexOf(mark);
    const threeAfter = /^\d{3}$/.test(text.slice(text.lastIndexOf(mark) + 1));
    const groups = threeAfter && separator !== null && separator !== mark;
    decimalMark = once && !groups ? mark : null;
  }
  const [whole = '', fraction] =
    decimalMark === null
      ? [text, undefined]
      : [text.slice(0, text.lastIndexOf(decimalMark)), text.slice(text.lastIndexOf(decimalMark) + 1)];
  if (fraction !== undefined && !/^\d+$/.test(fraction)) return null;
  const groupMark = decimalMark === '.' ? ',' : decimalMark === ',' ? '.' : lastDot >= 0 ? '.' : ',';
  const usesMark = whole.includes(groupMark);
  const usesSpace = groupSpaces.test(whole);
  if (usesMark && usesSpace) return null;
  const digits = groupsOf(whole, usesSpace ? /[\s\u00a0\u202f\u2009']/ : groupMark);
  if (digits === null) return null;
  return fraction === undefined ? digits : `${digits}.${fraction}`;
}
