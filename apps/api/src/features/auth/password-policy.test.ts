import { describe, expect, it } from 'vitest';
import { commonPasswordCount, isCommonPassword } from './password-policy.ts';

describe('common passwords', () => {
  it('ships a list of the most common long passwords', () => {
    expect(commonPasswordCount()).toBeGreaterThan(1000);
  });

  it('refuses listed passwords whatever their case, and one character repeated', () => {
    expect(isCommonPassword('password123')).toBe(true);
    expect(isCommonPassword('QWERTYUIOP')).toBe(true);
    expect(isCommonPassword('aaaaaaaaaaaa')).toBe(true);
  });

  it('accepts an unusual passphrase', () => {
    expect(isCommonPassword('muelas de gato azul 42')).toBe(false);
    expect(isCommonPassword('ñandú-sonrisa-árbol')).toBe(false);
  });
});
