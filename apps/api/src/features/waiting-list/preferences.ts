import { clinicWallTime } from '@odontia/shared/clinic-time';
import type { Weekday } from '@odontia/shared/enums';
import type { WaitingTimeRange } from '@odontia/shared/schemas/waiting-list';
import { clinicDayOf, weekdayOf } from '../appointments/availability.ts';

/**
 * Whether a slot [start, end) suits an entry's preferences (issue 38): on one of its weekdays
 * (none: any) and wholly within one of its time ranges (none: any), wall-clock in the clinic's zone.
 */
export function suitsPreferences(
  preferences: { weekdays: readonly Weekday[]; timeRanges: readonly WaitingTimeRange[] },
  slot: { start: Date; end: Date },
  timeZone: string,
): boolean {
  const day = clinicDayOf(slot.start, timeZone);
  if (preferences.weekdays.length > 0 && !preferences.weekdays.includes(weekdayOf(day))) return false;
  if (preferences.timeRanges.length === 0) return true;
  const endWall = clinicWallTime(slot.end, timeZone);
  // A slot ending at midnight or later the next day fits no range of the day.
  if (endWall.slice(0, 10) !== day && endWall.slice(11, 16) !== '00:00') return false;
  const from = clinicWallTime(slot.start, timeZone).slice(11, 16);
  const to = endWall.slice(0, 10) === day ? endWall.slice(11, 16) : '24:00';
  return preferences.timeRanges.some((range) => range.from <= from && to <= range.to);
}
