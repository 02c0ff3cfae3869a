import { describe, expect, it } from 'vitest';
import { suitsPreferences } from './preferences.ts';

const zone = 'Europe/Madrid';
// Tuesday 3 March 2026, 10:00–10:30 in Madrid (UTC+1).
const slot = { start: new Date('2026-03-03T09:00:00Z'), end: new Date('2026-03-03T09:30:00Z') };

describe('suitsPreferences', () => {
  it('takes any day and time when the entry names none', () => {
    expect(suitsPreferences({ weekdays: [], timeRanges: [] }, slot, zone)).toBe(true);
  });

  it("reads the weekday in the clinic's zone", () => {
    expect(suitsPreferences({ weekdays: ['tuesday'], timeRanges: [] }, slot, zone)).toBe(true);
    expect(suitsPreferences({ weekdays: ['monday', 'wednesday'], timeRanges: [] }, slot, zone)).toBe(false);
    // 23:30 UTC on Monday is already Tuesday in Madrid.
    const late = { start: new Date('2026-03-02T23:30:00Z'), end: new Date('2026-03-02T23:45:00Z') };
    expect(suitsPreferences({ weekdays: ['tuesday'], timeRanges: [] }, late, zone)).toBe(true);
  });

  it('wants the whole slot inside one of the time ranges', () => {
    expect(suitsPreferences({ weekdays: [], timeRanges: [{ from: '09:00', to: '10:30' }] }, slot, zone)).toBe(true);
    expect(suitsPreferences({ weekdays: [], timeRanges: [{ from: '09:00', to: '10:15' }] }, slot, zone)).toBe(false);
    expect(
      suitsPreferences(
        {
          weekdays: ['tuesday'],
          timeRanges: [
            { from: '16:00', to: '20:00' },
            { from: '10:00', to: '11:00' },
          ],
        },
        slot,
        zone,
      ),
    ).toBe(true);
    expect(suitsPreferences({ weekdays: [], timeRanges: [{ from: '16:00', to: '20:00' }] }, slot, zone)).toBe(false);
  });
});
