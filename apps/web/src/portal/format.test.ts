import { describe, expect, it } from 'vitest';
import { formatDay, formatMoney, formatTime, formatWhen } from './format';

describe('portal formats', () => {
  it("shows an instant in the clinic's zone, not the phone's", () => {
    // 13:30 UTC is 10:30 in Buenos Aires and 14:30 in Madrid (winter).
    expect(formatTime('2026-12-01T13:30:00Z', 'America/Argentina/Buenos_Aires', 'es')).toBe('10:30');
    expect(formatTime('2026-12-01T13:30:00Z', 'Europe/Madrid', 'es')).toBe('14:30');
    expect(formatWhen('2026-12-01T13:30:00Z', 'America/Argentina/Buenos_Aires', 'es')).toContain('1 de diciembre');
  });

  it('keeps a calendar day the same day in any zone', () => {
    expect(formatDay('2026-12-01', 'es')).toBe('martes, 1 de diciembre');
    expect(formatDay('2026-12-01', 'en', 'short')).toBe('Tue, Dec 1');
  });

  it("writes money in the clinic's currency and the page's language", () => {
    expect(formatMoney('12500.5', 'argentine_peso', 'es').replace(/\s/g, ' ')).toBe('12.500,50 ARS');
    expect(formatMoney('12500.5', 'euro', 'en')).toBe('€12,500.50');
  });
});
