import { describe, expect, it } from 'vitest';
import { presetOf, presetPeriod } from './period';

describe('report period presets', () => {
  it('are the clinic calendar months and years, stopping at today', () => {
    expect(presetPeriod('thisMonth', '2026-03-15')).toEqual({ from: '2026-03-01', to: '2026-03-15' });
    expect(presetPeriod('lastMonth', '2026-03-15')).toEqual({ from: '2026-02-01', to: '2026-02-28' });
    expect(presetPeriod('lastMonth', '2028-03-01')).toEqual({ from: '2028-02-01', to: '2028-02-29' });
    expect(presetPeriod('lastMonth', '2026-01-10')).toEqual({ from: '2025-12-01', to: '2025-12-31' });
    expect(presetPeriod('thisQuarter', '2026-08-20')).toEqual({ from: '2026-07-01', to: '2026-08-20' });
    expect(presetPeriod('thisYear', '2026-08-20')).toEqual({ from: '2026-01-01', to: '2026-08-20' });
    expect(presetPeriod('lastYear', '2026-08-20')).toEqual({ from: '2025-01-01', to: '2025-12-31' });
  });

  it('names the preset a period is, or none', () => {
    expect(presetOf('2026-02-01', '2026-02-28', '2026-03-15')).toBe('lastMonth');
    expect(presetOf('2026-02-02', '2026-02-28', '2026-03-15')).toBe('');
  });
});
