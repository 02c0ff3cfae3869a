import { describe, expect, it } from 'vitest';
import { calendarDateFormatter, calendarMonthFormatter, instantFormatter } from './date-format.ts';

describe('shared date formatting', () => {
  const instant = '2026-11-24T19:21:54Z';

  it('shows an instant on the clinic’s clock in the reader’s language, 24-hour where the language is', () => {
    expect(instantFormatter('es', 'America/Argentina/Buenos_Aires')(instant)).toBe('24/11/26, 16:21');
    expect(instantFormatter('es', 'Europe/Madrid')(instant)).toBe('24/11/26, 20:21');
    expect(instantFormatter('pt', 'America/Sao_Paulo', 'dateTimeSeconds')(instant)).toBe('24/11/2026, 16:21:54');
    expect(instantFormatter('fr', 'Europe/Paris', 'time')(instant)).toBe('20:21');
  });

  it('never prints a raw date and shows nothing for no instant', () => {
    const format = instantFormatter('es', 'UTC');
    expect(format(null)).toBe('');
    expect(format('no es una fecha')).toBe('no es una fecha');
    expect(format(new Date(instant))).not.toContain('GMT');
  });

  it('shows a calendar date as the same day everywhere', () => {
    expect(calendarDateFormatter('es')('2026-11-24')).toBe('24 nov 2026');
    expect(calendarDateFormatter('en')('2026-11-24')).toBe('Nov 24, 2026');
    expect(calendarDateFormatter('es')('')).toBe('');
  });

  it('shows a month by its name in the reader’s language, the same month everywhere', () => {
    expect(calendarMonthFormatter('es')('2026-11-01')).toBe('noviembre de 2026');
    expect(calendarMonthFormatter('en')('2026-11-01')).toBe('November 2026');
    expect(calendarMonthFormatter('fr')('2026-11-30')).toBe('novembre 2026');
    expect(calendarMonthFormatter('pt')('2026-01-01')).toBe('janeiro de 2026');
    expect(calendarMonthFormatter('es')(null)).toBe('');
  });
});
