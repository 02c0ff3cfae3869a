import { addDays, type CalendarDay, clinicWallTime, instantOfClinicWallTime } from '@odontia/shared/clinic-time';
import type { Weekday } from '@odontia/shared/enums';
import type { OutsideScheduleReason } from '@odontia/shared/schemas/appointments';

/**
 * When a professional attends (issue 16): pure functions over a week of wall-clock ranges
 * ('HH:MM' in the clinic's zone, so 10:00 stays 10:00 across a daylight-saving change), the
 * dated exceptions (instants) and the appointments already booked. The service reads them
 * (availability.repository.ts) and asks two questions: why a booking is outside the schedule,
 * and which times are free.
 */

export interface WeekRange {
  weekday: Weekday;
  opening: string;
  closing: string;
  recessStart: string | null;
  recessEnd: string | null;
}

export interface Exception {
  kind: 'holiday' | 'vacation' | 'block';
  startsAt: Date;
  endsAt: Date;
}

/** A half-open range of instants [start, end), in milliseconds. */
export interface Interval {
  start: number;
  end: number;
}

const weekdayOrder: Weekday[] = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

/** The weekday of a calendar day (the day's name does not depend on the zone). */
export function weekdayOf(day: CalendarDay): Weekday {
  return weekdayOrder[new Date(`${day}T00:00:00Z`).getUTCDay()] as Weekday;
}

/** The clinic's calendar day of an instant. */
export function clinicDayOf(instant: number | Date, timeZone: string): CalendarDay {
  return clinicWallTime(new Date(instant), timeZone).slice(0, 10);
}

function at(day: CalendarDay, time: string, timeZone: string): number {
  const instant = instantOfClinicWallTime(`${day}T${time}`, timeZone);
  if (!instant) throw new RangeError(`Not a wall-clock time: ${day}T${time}`);
  return instant.getTime();
}

/** The range of a day as instants, and its recess (when it has one). */
function rangeOnDay(range: WeekRange, day: CalendarDay, timeZone: string) {
  const whole = { start: at(day, range.opening, timeZone), end: at(day, range.closing, timeZone) };
  const recess =
    range.recessStart && range.recessEnd
      ? { start: at(day, range.recessStart, timeZone), end: at(day, range.recessEnd, timeZone) }
      : null;
  return { whole, recess };
}

/**
 * The week that applies to a professional: their own when it has ranges, else the clinic's
 * opening hours; null when neither has any (a clinic with no hours at all: no warnings).
 */
export function effectiveWeek(own: WeekRange[] | null | undefined, clinic: WeekRange[] | null | undefined) {
  if (own && own.length > 0) return own;
  if (clinic && clinic.length > 0) return clinic;
  return null;
}

/** The working intervals (opening to closing, minus the recess) of the days from `first` to `last`. */
export function workingIntervals(
  week: WeekRange[],
  first: CalendarDay,
  last: CalendarDay,
  timeZone: string,
): Interval[] {
  const intervals: Interval[] = [];
  for (let day = first; day <= last; day = addDays(day, 1)) {
    const weekday = weekdayOf(day);
    for (const range of week) {
      if (range.weekday !== weekday) continue;
      const { whole, recess } = rangeOnDay(range, day, timeZone);
      if (recess) {
        if (recess.start > whole.start) intervals.push({ start: whole.start, end: recess.start });
        if (whole.end > recess.end) intervals.push({ start: recess.end, end: whole.end });
      } else intervals.push(whole);
    }
  }
  return intervals.sort((a, b) => a.start - b.start);
}

const overlaps = (a: Interval, b: Interval) => a.start < b.end && b.start < a.end;

/**
 * Why [start, end) lies outside the schedule, in a stable order: a weekday without hours
 * (closed_day), before opening or after closing (outside_hours), in the recess, in a holiday,
 * vacation or block. Empty when the booking fits. `week` null: the clinic keeps no hours, only
 * exceptions count.
 */
export function outsideScheduleReasons(
  slot: { start: Date; end: Date },
  week: WeekRange[] | null,
  exceptions: Exception[],
  timeZone: string,
): OutsideScheduleReason[] {
  const found = new Set<OutsideScheduleReason>();
  const booked = { start: slot.start.getTime(), end: slot.end.getTime() };
  if (week) {
    const first = clinicDayOf(booked.start, timeZone);
    const last = clinicDayOf(booked.end - 1, timeZone);
    for (let day = first; day <= last; day = addDays(day, 1)) {
      if (!week.some((range) => range.weekday === weekdayOf(day))) found.add('closed_day');
    }
    if (!found.has('closed_day')) {
      const ranges = week
        .filter((range) => range.weekday === weekdayOf(first))
        .map((range) => rangeOnDay(range, first, timeZone));
      const within = ranges.find(({ whole }) => whole.start <= booked.start && booked.end <= whole.end);
      if (!within) found.add('outside_hours');
      else if (within.recess && overlaps(within.recess, booked)) found.add('recess');
    }
  }
  for (const exception of exceptions) {
    if (overlaps({ start: exception.startsAt.getTime(), end: exception.endsAt.getTime() }, booked)) {
      found.add(exception.kind);
    }
  }
  const order: OutsideScheduleReason[] = ['closed_day', 'outside_hours', 'recess', 'holiday', 'vacation', 'block'];
  return order.filter((reason) => found.has(reason));
}

/** `intervals` minus `busy` (both in any order): what is left, sorted. */
export function subtract(intervals: Interval[], busy: Interval[]): Interval[] {
  const taken = [...busy].sort((a, b) => a.start - b.start);
  const free: Interval[] = [];
  for (const interval of [...intervals].sort((a, b) => a.start - b.start)) {
    let cursor = interval.start;
    for (const block of taken) {
      if (block.end <= cursor) continue;
      if (block.start >= interval.end) break;
      if (block.start > cursor) free.push({ start: cursor, end: block.start });
      cursor = Math.max(cursor, block.end);
      if (cursor >= interval.end) break;
    }
    if (cursor < interval.end) free.push({ start: cursor, end: interval.end });
  }
  return free;
}

export const slotStepMinutes = 15;
const stepMs = slotStepMinutes * 60_000;

/**
 * The free starts of one professional for `durationMinutes`: every quarter hour within
 * [from, until), not before `now`, whose whole duration fits in a working interval and touches
 * nothing busy (exceptions, their appointments, the chair's). At most `limit`.
 */
export function freeStarts(input: {
  week: WeekRange[];
  busy: Interval[];
  from: Date;
  until: Date;
  now: Date;
  durationMinutes: number;
  timeZone: string;
  limit: number;
}): Interval[] {
  const { week, timeZone } = input;
  const earliest = Math.max(input.from.getTime(), input.now.getTime());
  const latest = input.until.getTime();
  if (earliest >= latest) return [];
  // A day before and after: the wall-clock days of the range in any zone.
  const first = addDays(clinicDayOf(earliest, timeZone), -1);
  const last = addDays(clinicDayOf(latest, timeZone), 1);
  const free = subtract(workingIntervals(week, first, last, timeZone), input.busy);
  const duration = input.durationMinutes * 60_000;
  const slots: Interval[] = [];
  for (const interval of free) {
    let start = Math.ceil(Math.max(interval.start, earliest) / stepMs) * stepMs;
    for (; start + duration <= interval.end && start < latest; start += stepMs) {
      slots.push({ start, end: start + duration });
      if (slots.length >= input.limit) return slots;
    }
  }
  return slots;
}
