import { describe, expect, it } from 'vitest';
import { csvCurrency, csvFile, csvNumber } from './csv.ts';

describe('the CSV convention of every export', () => {
  it('writes numbers with the reader’s decimal separator and no groups', () => {
    expect(csvNumber('es', '1234567.50')).toBe('1234567,50');
    expect(csvNumber('pt', 21)).toBe('21');
    expect(csvNumber('fr', '-0.10')).toBe('-0,10');
    expect(csvNumber('en', '1234567.50')).toBe('1234567.50');
    expect(csvNumber('es', null)).toBe('');
  });

  it('names currencies by their ISO code', () => {
    expect(csvCurrency('argentine_peso')).toBe('ARS');
    expect(csvCurrency('euro')).toBe('EUR');
    expect(csvCurrency(null)).toBe('');
  });

  it('writes a BOM, `;`, CRLF, quotes what needs it and escapes formulas', () => {
    const file = csvFile(
      ['Nombre', 'Importe'],
      [
        ['Pérez; Ana', '10,50'],
        ['=HYPERLINK("x")', null],
      ],
    );
    expect(file.startsWith('\uFEFF')).toBe(true);
    expect(file.slice(1).split('\r\n')).toEqual(['Nombre;Importe', '"Pérez; Ana";10,50', `"'=HYPERLINK(""x"")";`, '']);
  });
});
