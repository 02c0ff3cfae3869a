import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { normalizeDecimal, setTypingLanguage } from './decimal-input.ts';
import { createAttendanceRequestSchema } from './schemas/attendances.ts';
import { purchaseFields, quantityField } from './schemas/commercial-documents.ts';
import { installFieldCodes, maxMoneyAmount, moneyAmount, percentage, wholeNumber } from './validation.ts';

/** Amounts as clinics type them (issue 34): thousands separators and a decimal comma. */

function parsed(schema: z.ZodType, value: unknown): unknown {
  const result = schema.safeParse(value);
  return result.success ? result.data : result.error.issues.map((issue) => issue.message);
}

beforeAll(() => installFieldCodes());
afterEach(() => setTypingLanguage(null));

describe('normalizeDecimal', () => {
  it.each([
    ['12.500,50', 'es', '12500.50'],
    ['12500,50', 'es', '12500.50'],
    ['12.500', 'es', '12500'],
    ['1.234.567', 'es', '1234567'],
    ['1.234.567,8', 'es', '1234567.8'],
    ['1234.5', 'es', '1234.5'],
    ['1234,5', 'es', '1234.5'],
    ['12 500,50', 'fr', '12500.50'],
    ['12\u202f500,50', 'fr', '12500.50'],
    ['12,500.50', 'en', '12500.50'],
    ['12,500', 'en', '12500'],
    ['12.500', 'en', '12.500'],
    ['12.50', 'en', '12.50'],
    ['12,500.50', 'es', '12500.50'],
    ['12.500,50', 'en', '12500.50'],
    // Without a known typist (an API client, an import file), one separator is a decimal one.
    ['12.500', null, '12.500'],
    ['1,5', null, '1.5'],
    ['12.500,50', null, '12500.50'],
  ] as const)('reads %s typed in %s as %s', (text, language, expected) => {
    setTypingLanguage(language);
    expect(normalizeDecimal(text)).toBe(expected);
  });

  it.each(['', '-5', '1.23.456', '12 34', '1,2,3', '12.', 'abc', '1e5', '1.234,567.8', '12.500 000'])(
    'is not a number: %j',
    (text) => {
      setTypingLanguage('es');
      expect(normalizeDecimal(text)).toBeNull();
    },
  );
});

describe('amounts typed in Spanish', () => {
  it('accepts thousands separators and a decimal comma, as the hint says', () => {
    setTypingLanguage('es');
    expect(parsed(moneyAmount(), '12.500,50')).toBe('12500.50');
    expect(parsed(moneyAmount(), '12500,50')).toBe('12500.50');
    expect(parsed(moneyAmount(), '12.500')).toBe('12500.00');
    expect(parsed(moneyAmount(), '999.999.999.999,99')).toBe('999999999999.99');
    expect(parsed(percentage(), '10,5')).toBe('10.5');
    expect(parsed(wholeNumber(), '1.000')).toBe(1000);
    expect(parsed(quantityField(), '1.500')).toBe('1500.00');
    expect(parsed(quantityField(), '1,5')).toBe('1.50');
  });

  it('reads English as English', () => {
    setTypingLanguage('en');
    expect(parsed(moneyAmount(), '12,500.50')).toBe('12500.50');
    expect(parsed(moneyAmount(), '12.5')).toBe('12.50');
    expect(parsed(moneyAmount(), '12.500')).toEqual(['invalid_number']);
  });

  it('says too_big past what the database keeps, however many digits, and invalid for a typo', () => {
    setTypingLanguage('es');
    expect(parsed(moneyAmount(), '1.000.000.000.000')).toEqual(['too_big']);
    expect(parsed(moneyAmount(), '9999999999999999999')).toEqual(['too_big']);
    expect(moneyAmount().safeParse('1000000000000').error?.issues[0]).toMatchObject({ maximum: maxMoneyAmount });
    expect(parsed(moneyAmount(), '12,5,0')).toEqual(['invalid_number']);
    expect(parsed(moneyAmount(), '-3')).toEqual(['not_negative']);
    expect(parsed(percentage(), '100,01')).toEqual(['too_big']);
  });
});

describe('totals of lines with a field that failed its own check', () => {
  it('are not summed (the field says why), never thrown', () => {
    const result = purchaseFields.lines.safeParse([
      { description: 'x', quantity: 'abc', unitPrice: '1', vatRate: '0' },
    ]);
    expect(result.error?.issues.map((issue) => issue.message)).toEqual(['invalid_number']);
    const attendance = createAttendanceRequestSchema.safeParse({
      date: '2026-03-10T10:30:00-03:00',
      attendanceType: 'dentistry',
      titleResume: 'x',
      attendanceFee: 'abc',
      lines: [{ description: 'x', quantity: 1, price: '1' }],
    });
    expect(attendance.error?.issues.map((issue) => issue.message)).toContain('invalid_number');
  });
});
