import { describe, expect, it } from 'vitest';
import { instantOfDisplay, stepDay, toDisplay, viewDays, wallOfDisplay } from './display-time';

describe('display time', () => {
  it('shows the clinic wall-clock whatever the browser zone, and goes back to the same instant', () => {
    const display = toDisplay('2026-03-29T08:00:00.000Z', 'Europe/Madrid'); // 10:00 in Madrid (summer time)
    expect(wallOfDisplay(display)).toBe('2026-03-29T10:00');
    expect(instantOfDisplay(display, 'Europe/Madrid')).toBe('2026-03-29T08:00:00.000Z');
    expect(wallOfDisplay(toDisplay('2026-03-28T09:00:00.000Z', 'Europe/Madrid'))).toBe('2026-03-28T10:00');
  });

  it('frames the week from Monday and the month with 42 days', () => {
    expect(viewDays('week', '2026-11-25')).toEqual({ first: '2026-11-23', end: '2026-11-30' });
    expect(viewDays('month', '2026-11-25')).toEqual({ first: '2026-10-26', end: '2026-12-07' });
    expect(stepDay('month', '2026-01-31', 1)).toBe('2026-02-01');
    expect(stepDay('week', '2026-11-25', -1)).toBe('2026-11-18');
  });
});
