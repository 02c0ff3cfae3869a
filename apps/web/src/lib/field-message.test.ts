import { installFieldCodes, moneyAmount, percentage, requiredText, wholeNumber } from '@odontia/shared/validation';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import es from '../../../../packages/shared/src/locales/es/validation.json';
import { fieldMessageKey, formatFieldMessage, limitsOf, parseFieldMessage } from './field-message';

installFieldCodes();

/** The field message a form shows for a value, as lib/form-errors.ts writes it. */
function messageFor(schema: z.ZodType, value: unknown): string {
  const result = schema.safeParse(value);
  if (result.success) return '';
  const issue = result.error.issues[0] as z.core.$ZodIssue;
  const limitCode = ['too_long', 'too_short', 'too_big', 'too_small'].includes(issue.message);
  const limits = limitCode && (issue.code === 'too_big' || issue.code === 'too_small') ? limitsOf(issue) : {};
  return formatFieldMessage({ code: issue.message, ...limits });
}

/** The Spanish text of a field message, interpolated like i18next does. */
function spanish(message: string): string {
  const { key, values } = fieldMessageKey(parseFieldMessage(message));
  const text = (es as Record<string, string>)[key] ?? '';
  return text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name]));
}

describe('field messages say what is wrong', () => {
  it('reads and writes codes with their limits', () => {
    expect(parseFieldMessage('too_long|max=80')).toEqual({ code: 'too_long', max: 80 });
    expect(parseFieldMessage('required')).toEqual({ code: 'required' });
    expect(parseFieldMessage('too_small|min=0')).toEqual({ code: 'too_small', min: 0 });
    expect(formatFieldMessage({ code: 'too_long', max: 80 })).toBe('too_long|max=80');
    expect(formatFieldMessage({ code: 'required' })).toBe('required');
    expect(parseFieldMessage('too_long|max=abc')).toEqual({ code: 'too_long' });
  });

  it('an over-long text gives the limit', () => {
    expect(messageFor(requiredText(80), 'x'.repeat(81))).toBe('too_long|max=80');
    expect(spanish(messageFor(requiredText(80), 'x'.repeat(81)))).toBe('Máximo 80 caracteres');
  });

  it('a negative amount, rate or count says it cannot be negative', () => {
    expect(spanish(messageFor(moneyAmount(), '-150'))).toBe('No puede ser negativo');
    expect(spanish(messageFor(moneyAmount(), '-0,5'))).toBe('No puede ser negativo');
    expect(spanish(messageFor(percentage(), '-5'))).toBe('No puede ser negativo');
    expect(spanish(messageFor(wholeNumber(0, 10), '-1'))).toBe('No puede ser negativo');
    // Not a number at all is still "invalid number".
    expect(spanish(messageFor(moneyAmount(), 'abc'))).toBe('Número no válido');
  });

  it('a number out of bounds gives the bound', () => {
    expect(spanish(messageFor(wholeNumber(1, 10), '0'))).toBe('El valor mínimo es 1');
    expect(spanish(messageFor(wholeNumber(1, 10), '11'))).toBe('El valor máximo es 10');
  });

  it('the server’s limits (max, min of a field error) read the same', () => {
    expect(spanish(formatFieldMessage({ code: 'too_long', ...limitsOf({ origin: 'number', maximum: 60 }) }))).toBe(
      'Máximo 60 caracteres',
    );
    expect(spanish('too_long')).toBe('El texto es demasiado largo');
  });

  it('a list’s or a date’s limit is not a length', () => {
    expect(limitsOf({ origin: 'array', maximum: 100 })).toEqual({});
    expect(limitsOf({ origin: 'date', maximum: 5 })).toEqual({});
  });
});
