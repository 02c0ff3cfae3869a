import { tzOffset } from '@date-fns/tz';

/**
 * The clinic's clock. A clinic's "today", its days and its wall-clock times are those of its IANA
 * time zone (accounts.time_zone), never UTC's nor the browser's: a clinic in Madrid registers a
 * baby born today at 00:30, one in Auckland at any hour. The server and the browser both take
 * "today" from here; the instant is JavaScript's clock (`new Date()`), so tests can set it.
 */

/** A calendar date 'YYYY-MM-DD'. */
export type CalendarDay = string;

const minuteMs = 60_000;
const dayMs = 24 * 60 * minuteMs;

/** Milliseconds of a UTC date-time, also for years below 100 (which Date.UTC would read as 19xx). */
function utc(year: number, month: number, day: number, hours = 0, minutes = 0, seconds = 0): number {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hours, minutes, seconds, 0);
  return date.getTime();
}

/**
 * An instant read on the zone's wall clock: a Date whose UTC fields are the wall-clock fields.
 * Only the zone's UTC offset comes from the time zone database (through Intl), so the answer
 * does not depend on the machine's own zone nor on a test's fake Date class.
 */
function wallClock(instant: number, timeZone: string): Date {
  return new Date(instant + tzOffset(timeZone, new Date(instant)) * minuteMs);
}

/** Whether the name is an IANA time zone this runtime knows ('Europe/Madrid'). */
export function isTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone });
    return true;
  } catch {
    return false;
  }
}

/** The clinic's calendar date at an instant (default: now). */
export function clinicToday(timeZone: string, at: Date = new Date()): CalendarDay {
  return wallClock(at.getTime(), timeZone).toISOString().slice(0, 10);
}

/**
 * The latest calendar date anywhere on Earth at an instant (UTC+14, the Line Islands): the
 * zone-free bound a contract can check before it knows the clinic ("not in the future").
 */
export function latestDayOnEarth(at: Date = new Date()): CalendarDay {
  return clinicToday('Pacific/Kiritimati', at);
}

function partsOf(day: CalendarDay): [number, number, number] {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) throw new RangeError(`Not a calendar date: ${day}`);
  return [Number(match[1]), Number(match[2]), Number(match[3])];
}

/** The calendar day `days` after (or before, when negative) `day`. */
export function addDays(day: CalendarDay, days: number): CalendarDay {
  const [year, month, date] = partsOf(day);
  return new Date(utc(year, month, date + days)).toISOString().slice(0, 10);
}

/**
 * The instants a clinic's calendar day starts and the next one starts: a half-open range
 * [start, end) for "today's" lists and reports' day boundaries; 23 or 25 hours long on the days
 * the clocks change.
 */
export function clinicDayRange(timeZone: string, day: CalendarDay): { start: Date; end: Date } {
  return { start: clinicDayStart(timeZone, day), end: clinicDayStart(timeZone, addDays(day, 1)) };
}

function clinicDayStart(timeZone: string, day: CalendarDay): Date {
  const start = instantOfClinicWallTime(`${day}T00:00`, timeZone);
  if (!start) throw new RangeError(`Not a calendar date: ${day}`);
  return start;
}

/** An instant as the clinic's wall-clock 'YYYY-MM-DDTHH:mm' (the value of a datetime-local input). */
export function clinicWallTime(instant: Date | string, timeZone: string): string {
  return wallClock(new Date(instant).getTime(), timeZone).toISOString().slice(0, 16);
}

/**
 * The instant of a clinic's wall-clock time 'YYYY-MM-DDTHH:mm[:ss]', or null when the text is not
 * one. A time the clocks skip (the spring gap) moves forward by the gap; a time that happens twice
 * (the autumn overlap) is its first occurrence (what Temporal calls 'compatible').
 */
export function instantOfClinicWallTime(wallTime: string, timeZone: string): Date | null {
  // The zone's rules do not change while the process runs: an answer once found is kept. The
  // agenda's free slots ask for the same opening hours of the same days for every professional,
  // and each answer costs four readings of the zone (issue 37's bench: a third of a request).
  const key = `${timeZone} ${wallTime}`;
  const known = wallTimeInstants.get(key);
  if (known !== undefined) return known === null ? null : new Date(known);
  const found = findInstantOfWallTime(wallTime, timeZone);
  if (wallTimeInstants.size >= wallTimeInstantsMax) wallTimeInstants.clear();
  wallTimeInstants.set(key, found === null ? null : found.getTime());
  return found;
}

/** Instants of wall times already found, by zone and wall time; emptied when full (a bound on memory). */
const wallTimeInstants = new Map<string, number | null>();
const wallTimeInstantsMax = 50_000;

function findInstantOfWallTime(wallTime: string, timeZone: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(wallTime.trim());
  if (!match) return null;
  const [year, month, day, hours, minutes, seconds] = match.slice(1).map((part) => Number(part ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (month < 1 || month > 12 || new Date(utc(year, month, day)).getUTCDate() !== day) return null; // 31 February
  if (hours > 23 || minutes > 59 || seconds > 59) return null;
  const wall = utc(year, month, day, hours, minutes, seconds);
  // The offsets in force around that day: one, or two when the clocks change near it.
  const before = tzOffset(timeZone, new Date(wall - dayMs));
  const offsets = new Set([before, tzOffset(timeZone, new Date(wall)), tzOffset(timeZone, new Date(wall + dayMs))]);
  const readings = [...offsets]
    .map((offset) => wall - offset * minuteMs)
    .filter((instant) => wallClock(instant, timeZone).getTime() === wall)
    .sort((a, b) => a - b);
  const instant = readings[0] ?? wall - before * minuteMs; // in the gap: the offset before it moves it forward
  return Number.isNaN(instant) ? null : new Date(instant);
}

/**
 * Whole years from a birthdate to a day (both 'YYYY-MM-DD'): a birthday on that day counts, one
 * born on 29 February turns a year older on 1 March in common years. Null when the birthdate is
 * after the day or not a date.
 */
export function yearsOld(birthdate: CalendarDay, onDay: CalendarDay): number | null {
  let born: [number, number, number];
  let today: [number, number, number];
  try {
    born = partsOf(birthdate);
    today = partsOf(onDay);
  } catch {
    return null;
  }
  let years = today[0] - born[0];
  if (today[1] < born[1] || (today[1] === born[1] && today[2] < born[2])) years -= 1;
  return years >= 0 ? years : null;
}
