import { describe, expect, it } from 'vitest';
import { spanishAmount, spanishNumber } from './amount-in-words.ts';

describe('amounts in Spanish words', () => {
  it.each([
    [0, 'cero'],
    [1, 'uno'],
    [15, 'quince'],
    [21, 'veintiuno'],
    [30, 'treinta'],
    [31, 'treinta y uno'],
    [100, 'cien'],
    [101, 'ciento uno'],
    [500, 'quinientos'],
    [999, 'novecientos noventa y nueve'],
    [1000, 'mil'],
    [1001, 'mil uno'],
    [2000, 'dos mil'],
    [21_000, 'veintiún mil'],
    [31_500, 'treinta y un mil quinientos'],
    [100_000, 'cien mil'],
    [1_000_000, 'un millón'],
    [2_500_000, 'dos millones quinientos mil'],
    [21_000_021, 'veintiún millones veintiuno'],
    [1_000_000_000, 'mil millones'],
  ])('%d → %s', (n, words) => {
    expect(spanishNumber(n)).toBe(words);
  });

  it('writes the currency and the cents as a receipt does', () => {
    expect(spanishAmount('3500.50', 'argentine_peso')).toBe('pesos tres mil quinientos con 50/100');
    expect(spanishAmount('1.00', 'euro')).toBe('euros uno con 00/100');
    expect(spanishAmount('0.05', 'us_dollar')).toBe('dólares estadounidenses cero con 05/100');
    expect(() => spanishNumber(-1)).toThrow(RangeError);
    expect(() => spanishNumber(1.5)).toThrow(RangeError);
  });
});
