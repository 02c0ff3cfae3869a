/** Scripts written right to left (spec §9). Checked on the language part of the tag. */
const rtlLanguages = new Set([
  'ar',
  'arc',
  'ckb',
  'dv',
  'fa',
  'he',
  'iw',
  'khw',
  'ks',
  'ps',
  'sd',
  'syr',
  'ug',
  'ur',
  'yi',
]);

export function textDirection(language: string | null | undefined): 'ltr' | 'rtl' {
  if (!language) return 'ltr';
  const base = language.toLowerCase().split(/[-_]/)[0] ?? '';
  // Arabic-script variants of languages that are otherwise written left to right.
  if (/-(arab|hebr|thaa|syrc|nkoo|adlm)(-|$)/i.test(language)) return 'rtl';
  return rtlLanguages.has(base) ? 'rtl' : 'ltr';
}
