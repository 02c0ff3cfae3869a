import { describe, expect, it } from 'vitest';
import { amountInWords, spanishAmount, spanishNumber } from './amount-in-words.ts';

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

describe("a receipt's amount in words, in the customer's language", () => {
  it.each([
    ['es', '3500.50', 'argentine_peso', 'Son pesos tres mil quinientos con 50/100.'],
    ['en', '3500.50', 'argentine_peso', 'The sum of three thousand five hundred Argentine pesos and 50/100.'],
    ['en', '1.00', 'us_dollar', 'The sum of one US dollar and 00/100.'],
    ['fr', '21.05', 'euro', 'La somme de vingt et un euros et 05/100.'],
    ['fr', '1000000.00', 'euro', "La somme de un million d'euros et 00/100."],
    ['fr', '2000000.00', 'argentine_peso', 'La somme de deux millions de pesos argentins et 00/100.'],
    ['pt', '2021.00', 'brazilian_real', 'A importância de dois mil e vinte e um reais e 00/100.'],
    ['pt', '1.99', 'brazilian_real', 'A importância de um real e 99/100.'],
    ['pt', '1000000.00', 'brazilian_real', 'A importância de um milhão de reais e 00/100.'],
  ] as const)('%s %s %s', (language, amount, currency, sentence) => {
    expect(amountInWords(amount, currency, language)).toBe(sentence);
  });
});
