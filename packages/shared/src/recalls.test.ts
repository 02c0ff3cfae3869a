import { describe, expect, it } from 'vitest';
import { addMonths, recallDueOfAttendance, recallDueOn, recallViewOf } from './recalls.ts';

describe('recall due dates', () => {
  it('adds days and weeks across month and year ends', () => {
    expect(recallDueOn('2026-01-25', 10, 'days')).toBe('2026-02-04');
    expect(recallDueOn('2026-12-28', 1, 'weeks')).toBe('2027-01-04');
    expect(recallDueOn('2028-02-22', 1, 'weeks')).toBe('2028-02-29');
  });

  it('adds months keeping the day, or the last day of a shorter month', () => {
    expect(addMonths('2026-01-31', 1)).toBe('2026-02-28');
    expect(addMonths('2028-01-31', 1)).toBe('2028-02-29');
    expect(addMonths('2026-08-31', 6)).toBe('2027-02-28');
    expect(addMonths('2026-03-31', 1)).toBe('2026-04-30');
    expect(addMonths('2026-07-15', 6)).toBe('2027-01-15');
    expect(addMonths('2099-11-30', 25)).toBe('2101-12-30');
    expect(addMonths('2100-01-29', 1)).toBe('2100-02-28');
  });

  it("counts from the clinic's day of the attendance, also on the days the clocks change", () => {
    // 00:30 in Madrid on the day summer time starts is still 28 March in UTC.
    const earlyMadrid = new Date('2026-03-28T23:30:00Z');
    expect(recallDueOfAttendance(earlyMadrid, 'Europe/Madrid', { interval: 6, unit: 'months' })).toBe('2026-09-29');
    expect(recallDueOfAttendance(earlyMadrid, 'UTC', { interval: 6, unit: 'months' })).toBe('2026-09-28');
    // 23:30 in Buenos Aires is already the next day in UTC.
    const lateBuenosAires = new Date('2026-10-25T02:30:00Z');
    expect(
      recallDueOfAttendance(lateBuenosAires, 'America/Argentina/Buenos_Aires', { interval: 1, unit: 'weeks' }),
    ).toBe('2026-10-31');
    // A week after the night the clocks go back in Madrid (25 hours long) is still seven calendar days.
    expect(
      recallDueOfAttendance(new Date('2026-10-24T22:30:00Z'), 'Europe/Madrid', { interval: 7, unit: 'days' }),
    ).toBe('2026-11-01');
  });

  it('shows an open recall past its day as overdue', () => {
    expect(recallViewOf({ status: 'pending', dueOn: '2026-05-01' }, '2026-05-02')).toBe('overdue');
    expect(recallViewOf({ status: 'contacted', dueOn: '2026-05-01' }, '2026-05-02')).toBe('overdue');
    expect(recallViewOf({ status: 'pending', dueOn: '2026-05-02' }, '2026-05-02')).toBe('due');
    expect(recallViewOf({ status: 'contacted', dueOn: '2026-05-03' }, '2026-05-02')).toBe('contacted');
    expect(recallViewOf({ status: 'booked', dueOn: '2026-05-01' }, '2026-05-02')).toBe('booked');
    expect(recallViewOf({ status: 'closed', dueOn: '2026-05-01' }, '2026-05-02')).toBe('closed');
  });
});
