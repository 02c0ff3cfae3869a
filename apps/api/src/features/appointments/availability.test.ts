import { clinicWallTime, instantOfClinicWallTime } from '@odontia/shared/clinic-time';
import { describe, expect, it } from 'vitest';
import {
  effectiveWeek,
  freeStarts,
  outsideScheduleReasons,
  subtract,
  type WeekRange,
  weekdayOf,
  workingIntervals,
} from './availability.ts';

const madrid = 'Europe/Madrid';
const santiago = 'America/Santiago';
const at = (wall: string, zone = madrid) => instantOfClinicWallTime(wall, zone) as Date;
const week: WeekRange[] = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'].map((weekday) => ({
  weekday: weekday as WeekRange['weekday'],
  opening: '09:00',
  closing: '20:00',
  recessStart: '14:00',
  recessEnd: '15:00',
}));
const range = (weekday: WeekRange['weekday'], opening: string, closing: string): WeekRange => ({
  weekday,
  opening,
  closing,
  recessStart: null,
  recessEnd: null,
});
const wall = (ms: number, zone = madrid) => clinicWallTime(new Date(ms), zone);

describe('availability: the reasons a booking is outside the schedule', () => {
  const slot = (from: string, to: string) => ({ start: at(from), end: at(to) });

  it('is empty when it fits, and names the closed day, the hours and the recess', () => {
    expect(weekdayOf('2030-01-07')).toBe('monday');
    expect(outsideScheduleReasons(slot('2030-01-07T10:00', '2030-01-07T10:30'), week, [], madrid)).toEqual([]);
    expect(outsideScheduleReasons(slot('2030-01-07T09:00', '2030-01-07T14:00'), week, [], madrid)).toEqual([]);
    expect(outsideScheduleReasons(slot('2030-01-05T10:00', '2030-01-05T10:30'), week, [], madrid)).toEqual([
      'closed_day',
    ]);
    expect(outsideScheduleReasons(slot('2030-01-07T08:45', '2030-01-07T09:15'), week, [], madrid)).toEqual([
      'outside_hours',
    ]);
    expect(outsideScheduleReasons(slot('2030-01-07T19:45', '2030-01-07T20:15'), week, [], madrid)).toEqual([
      'outside_hours',
    ]);
    expect(outsideScheduleReasons(slot('2030-01-07T13:30', '2030-01-07T14:30'), week, [], madrid)).toEqual(['recess']);
    // Friday night into Saturday: the Saturday is closed.
    expect(outsideScheduleReasons(slot('2030-01-11T19:00', '2030-01-12T01:00'), week, [], madrid)).toEqual([
      'closed_day',
    ]);
  });

  it('names holidays, vacations and blocks that touch it (half-open: touching is not inside)', () => {
    const exceptions = [
      { kind: 'holiday' as const, startsAt: at('2030-01-07T00:00'), endsAt: at('2030-01-08T00:00') },
      { kind: 'block' as const, startsAt: at('2030-01-08T10:00'), endsAt: at('2030-01-08T11:00') },
      { kind: 'vacation' as const, startsAt: at('2030-01-09T00:00'), endsAt: at('2030-01-12T00:00') },
    ];
    expect(outsideScheduleReasons(slot('2030-01-07T10:00', '2030-01-07T10:30'), week, exceptions, madrid)).toEqual([
      'holiday',
    ]);
    expect(outsideScheduleReasons(slot('2030-01-08T10:30', '2030-01-08T11:30'), week, exceptions, madrid)).toEqual([
      'block',
    ]);
    expect(outsideScheduleReasons(slot('2030-01-08T11:00', '2030-01-08T11:30'), week, exceptions, madrid)).toEqual([]);
    expect(outsideScheduleReasons(slot('2030-01-10T13:30', '2030-01-10T14:30'), week, exceptions, madrid)).toEqual([
      'recess',
      'vacation',
    ]);
  });

  it('falls back to the clinic hours; with no hours at all only exceptions count', () => {
    expect(effectiveWeek([], week)).toBe(week);
    expect(effectiveWeek([range('saturday', '09:00', '13:00')], week)).toEqual([range('saturday', '09:00', '13:00')]);
    expect(effectiveWeek(undefined, [])).toBeNull();
    expect(outsideScheduleReasons(slot('2030-01-05T03:00', '2030-01-05T04:00'), null, [], madrid)).toEqual([]);
  });
});

describe('availability: wall-clock hours across daylight-saving changes', () => {
  it('keeps 09:00 at 09:00 on both sides of the Madrid spring and autumn changes', () => {
    for (const day of ['2030-03-25', '2030-04-01', '2030-10-21', '2030-10-28']) {
      const [morning, afternoon] = workingIntervals(week, day, day, madrid);
      expect(wall(morning?.start ?? 0)).toBe(`${day}T09:00`);
      expect(wall(morning?.end ?? 0)).toBe(`${day}T14:00`);
      expect(wall(afternoon?.start ?? 0)).toBe(`${day}T15:00`);
    }
    expect(at('2030-03-25T10:00').toISOString()).toBe('2030-03-25T09:00:00.000Z');
    expect(at('2030-04-01T10:00').toISOString()).toBe('2030-04-01T08:00:00.000Z');
  });

  it('finds the right slots on the change days (Madrid: 23 and 25 hour days)', () => {
    const sundays = [range('sunday', '01:00', '04:00')];
    const spring = freeStarts({
      week: sundays,
      busy: [],
      from: at('2030-03-31T00:00'),
      until: at('2030-04-01T00:00'),
      now: new Date(0),
      durationMinutes: 60,
      timeZone: madrid,
      limit: 50,
    });
    // 01:00 CET to 04:00 CEST is two real hours: 01:00 … 03:00 (wall) starts, 5 of them.
    expect(spring.map((slot) => wall(slot.start))).toEqual([
      '2030-03-31T01:00',
      '2030-03-31T01:15',
      '2030-03-31T01:30',
      '2030-03-31T01:45',
      '2030-03-31T03:00',
    ]);
    const autumn = freeStarts({
      week: sundays,
      busy: [],
      from: at('2030-10-27T00:00'),
      until: at('2030-10-28T00:00'),
      now: new Date(0),
      durationMinutes: 60,
      timeZone: madrid,
      limit: 50,
    });
    // 01:00 CEST to 04:00 CET is four real hours: 13 quarter-hour starts of an hour.
    expect(autumn).toHaveLength(13);
    expect(new Date(autumn[0]?.start ?? 0).toISOString()).toBe('2030-10-26T23:00:00.000Z');
    expect(new Date(autumn.at(-1)?.end ?? 0).toISOString()).toBe('2030-10-27T03:00:00.000Z');
  });

  it('handles Santiago, whose clocks change at midnight', () => {
    const monday = [range('monday', '10:00', '11:00')];
    const before = workingIntervals(monday, '2030-09-02', '2030-09-02', santiago)[0];
    const after = workingIntervals(monday, '2030-09-09', '2030-09-09', santiago)[0];
    expect(new Date(before?.start ?? 0).toISOString()).toBe('2030-09-02T14:00:00.000Z');
    expect(new Date(after?.start ?? 0).toISOString()).toBe('2030-09-09T13:00:00.000Z');
    expect(wall(after?.start ?? 0, santiago)).toBe('2030-09-09T10:00');
    // 8 September 2030: midnight does not exist (00:00 → 01:00); a 00:00–02:00 range is one real hour.
    const slots = freeStarts({
      week: [range('sunday', '00:00', '02:00')],
      busy: [],
      from: at('2030-09-07T12:00', santiago),
      until: at('2030-09-09T00:00', santiago),
      now: new Date(0),
      durationMinutes: 60,
      timeZone: santiago,
      limit: 50,
    });
    expect(slots.map((slot) => wall(slot.start, santiago))).toEqual(['2030-09-08T01:00']);
  });
});

describe('availability: free starts', () => {
  it('steps every quarter hour, skips busy time, the recess and the past, and stops at the limit', () => {
    const busy = [{ start: at('2030-01-07T09:00').getTime(), end: at('2030-01-07T09:40').getTime() }];
    const slots = freeStarts({
      week,
      busy,
      from: at('2030-01-07T00:00'),
      until: at('2030-01-08T00:00'),
      now: at('2030-01-06T00:00'),
      durationMinutes: 45,
      timeZone: madrid,
      limit: 100,
    });
    const starts = slots.map((slot) => wall(slot.start).slice(11));
    expect(starts[0]).toBe('09:45');
    expect(starts).toContain('13:15');
    expect(starts).not.toContain('13:30');
    expect(starts).toContain('15:00');
    expect(starts.at(-1)).toBe('19:15');
    const later = freeStarts({
      week,
      busy,
      from: at('2030-01-07T00:00'),
      until: at('2030-01-08T00:00'),
      now: at('2030-01-07T16:05'),
      durationMinutes: 30,
      timeZone: madrid,
      limit: 2,
    });
    expect(later.map((slot) => wall(slot.start).slice(11))).toEqual(['16:15', '16:30']);
  });

  it('subtracts busy intervals, touching ones included', () => {
    expect(
      subtract(
        [{ start: 0, end: 100 }],
        [
          { start: 10, end: 20 },
          { start: 20, end: 30 },
          { start: 90, end: 120 },
        ],
      ),
    ).toEqual([
      { start: 0, end: 10 },
      { start: 30, end: 90 },
    ]);
  });
});
