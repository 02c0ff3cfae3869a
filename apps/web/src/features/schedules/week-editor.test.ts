import { describe, expect, it } from 'vitest';
import { displayedWeekdays, errorsByRow, rowsOf } from './week-editor';

describe('the week editor', () => {
  it('shows Monday first and Sunday last, every weekday once', () => {
    expect(displayedWeekdays).toEqual(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']);
  });

  it('puts a field error of `ranges.<index>.<field>` on the row sent at that index, the first code only', () => {
    const rows = rowsOf({
      ranges: [
        { weekday: 'monday', opening: '09:00', closing: '20:00', recessStart: null, recessEnd: null },
        { weekday: 'monday', opening: '19:00', closing: '21:00', recessStart: '14:00', recessEnd: '15:00' },
      ],
    });
    const [first, second] = rows as [(typeof rows)[0], (typeof rows)[0]];
    expect(second.recessStart).toBe('14:00');
    expect(first.recessStart).toBe('');
    const errors = errorsByRow(rows, [
      { path: 'ranges.1.opening', code: 'ranges_overlap' },
      { path: 'ranges.1.opening', code: 'invalid_time' },
      { path: 'ranges.0.closing', code: 'closing_before_opening' },
      { path: 'ranges.7.closing', code: 'required' },
      { path: 'version', code: 'required' },
    ]);
    expect(errors).toEqual({
      [`${second.key}.opening`]: 'ranges_overlap',
      [`${first.key}.closing`]: 'closing_before_opening',
    });
  });
});
