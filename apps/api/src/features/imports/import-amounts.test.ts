import { describe, expect, it } from 'vitest';
import { clinicDecimalSeparator, parseAmount, parsePercent } from './import-amounts.ts';

const value = (text: string, separator: ',' | '.') => {
  const result = parseAmount(text, separator);
  return 'value' in result ? result.value : result.code;
};

describe('import amounts', () => {
  it.each([
    ['12.500,50', ',', '12500.50'],
    ['12,500.50', ',', '12500.50'],
    ['12.500,50', '.', '12500.50'],
    ['12,500.50', '.', '12500.50'],
    ['1250', ',', '1250.00'],
    ['1250', '.', '1250.00'],
    ['1.250', ',', '1250.00'],
    ['1,250', '.', '1250.00'],
    ['€ 1.250,00', ',', '1250.00'],
    ['1.250,00 €', ',', '1250.00'],
    ['1.250,00 EUR', ',', '1250.00'],
    ['-30,5', ',', '-30.50'],
    ['-30,5', '.', '-30.50'],
    ['30.5-', '.', '-30.50'],
    ['(30,50)', ',', '-30.50'],
    ['$1,234.56', '.', '1234.56'],
    ['$1,234.56', ',', '1234.56'],
    ['R$ 1.234,56', ',', '1234.56'],
    ['US$ 99', '.', '99.00'],
    ['1.250.000', ',', '1250000.00'],
    ['1,250,000', '.', '1250000.00'],
    ['1.250.000,5', ',', '1250000.50'],
    ['12 500,50', ',', '12500.50'],
    ['12\u00a0500,50', ',', '12500.50'],
    ['0', ',', '0.00'],
    ['-0', ',', '0.00'],
    ['0,99', ',', '0.99'],
    ['.5', ',', 'invalid_number'],
    ['12,50', '.', '12.50'],
    ['12.5', ',', '12.50'],
    ['999999999999,99', ',', '999999999999.99'],
    ['999.999.999.999,99', ',', '999999999999.99'],
    ['1000000000000', ',', 'too_big'],
    ['1.000.000.000.000,00', ',', 'too_big'],
    ['1,250', ',', 'ambiguous_number'],
    ['1.250', '.', 'ambiguous_number'],
    ['12,555', '.', '12555.00'],
    ['12,5555', ',', 'too_many_decimals'],
    ['12,505', ',', 'ambiguous_number'],
    ['12,5050', ',', 'too_many_decimals'],
    ['12,5000', ',', '12.50'],
    ['1.2.3', ',', 'invalid_number'],
    ['1.23.456', ',', 'invalid_number'],
    ['12,50,00', ',', 'invalid_number'],
    ['abc', ',', 'invalid_number'],
    ['doce', ',', 'invalid_number'],
    ['12abc', ',', 'invalid_number'],
    ['', ',', 'invalid_number'],
    ['€', ',', 'invalid_number'],
    ['--5', ',', 'invalid_number'],
    ['1e5', ',', 'invalid_number'],
    ['12,', ',', 'invalid_number'],
    ['0x10', ',', 'invalid_number'],
  ] as const)('%s with %s decimals reads %s', (text, separator, expected) => {
    expect(value(text, separator)).toBe(expected);
  });

  it('never goes through a float', () => {
    expect(value('0,10', ',')).toBe('0.10');
    expect(value('999.999.999.999,99', ',')).toBe('999999999999.99');
    expect(value('123456789012,34', ',')).toBe('123456789012.34');
  });

  it.each([
    ['21', ',', '21'],
    ['21%', ',', '21'],
    ['21 %', ',', '21'],
    ['21,0', ',', '21'],
    ['10,5', ',', '10.5'],
    ['10.5', ',', '10.5'],
    ['4', '.', '4'],
    ['0', '.', '0'],
    ['21,555', ',', 'ambiguous_number'],
    ['veintiuno', ',', 'invalid_number'],
    ['21%%', ',', 'invalid_number'],
  ] as const)('the rate %s with %s decimals reads %s', (text, separator, expected) => {
    const result = parsePercent(text, separator);
    expect('value' in result ? result.value : result.code).toBe(expected);
  });

  it("takes the clinic's separator from its country, else its language", () => {
    expect(clinicDecimalSeparator({ language: 'es', country: 'ES' })).toBe(',');
    expect(clinicDecimalSeparator({ language: 'es', country: 'MX' })).toBe('.');
    expect(clinicDecimalSeparator({ language: 'en', country: null })).toBe('.');
    expect(clinicDecimalSeparator({ language: 'pt', country: 'BR' })).toBe(',');
    expect(clinicDecimalSeparator({ language: 'fr' })).toBe(',');
  });
});
