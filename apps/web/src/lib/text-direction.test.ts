import { describe, expect, it } from 'vitest';
import { textDirection } from './text-direction';

describe('textDirection', () => {
  it('is ltr for the product languages', () => {
    for (const lng of ['es', 'en', 'fr', 'pt', 'es-AR', 'pt-BR', 'en-US']) expect(textDirection(lng)).toBe('ltr');
  });

  it('recognises right-to-left languages', () => {
    for (const lng of ['ar', 'ar-EG', 'he', 'he-IL', 'fa', 'fa-IR', 'ur', 'ur-PK', 'yi', 'ps', 'dv', 'ckb', 'iw'])
      expect(textDirection(lng)).toBe('rtl');
  });

  it('recognises Arabic-script variants', () => {
    expect(textDirection('pa-Arab')).toBe('rtl');
    expect(textDirection('az-Arab-IR')).toBe('rtl');
  });

  it('is ltr when unknown or empty', () => {
    expect(textDirection(undefined)).toBe('ltr');
    expect(textDirection('')).toBe('ltr');
    expect(textDirection('cimode')).toBe('ltr');
  });
});
