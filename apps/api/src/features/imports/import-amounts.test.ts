import { describe, expect, it } from 'vitest';
import { parseAmount } from './import-amounts.ts';

describe('parseAmount (issue 42 imports)', () => {
  it('reads the clinic decimal comma with thousands groups, signs and currency marks', () => {
    expect(parseAmount('12.500,50', ',')).toEqual({ value: '12500.50' });
    expect(parseAmount('-300', ',')).toEqual({ value: '-300.00' });
    expect(parseAmount('(1.234,5)', ',')).toEqual({ value: '-1234.50' });
    expect(parseAmount('1 234,56 €', ',')).toEqual({ value: '1234.56' });
    expect(parseAmount('300-', ',')).toEqual({ value: '-300.00' });
    expect(parseAmount('1234.5', ',')).toEqual({ value: '1234.50' });
    expect(parseAmount('0', ',')).toEqual({ value: '0.00' });
    expect(parseAmount(',50', ',')).toEqual({ value: '0.50' });
    expect(parseAmount('-0,00', ',')).toEqual({ value: '0.00' });
  });

  it('reads the decimal point with comma groups', () => {
    expect(parseAmount('12,500.50', '.')).toEqual({ value: '12500.50' });
    expect(parseAmount('$1,234', '.')).toEqual({ value: '1234.00' });
    expect(parseAmount('1234,5', '.')).toEqual({ value: '1234.50' });
  });

  it('refuses what is no amount', () => {
    expect(parseAmount('', ',')).toEqual({ reason: 'required' });
    for (const text of ['12.5.0', '1.23,00', '12,5,0', '1,234', 'abc', '12,345', '1,2,3', '12 34', '--5', '1.234.5'])
      expect(parseAmount(text, ','), text).toEqual({ reason: 'invalid_amount' });
    expect(parseAmount('1.234', '.')).toEqual({ reason: 'invalid_amount' });
    expect(parseAmount('1234567890123', ',')).toEqual({ reason: 'too_big' });
  });
});
