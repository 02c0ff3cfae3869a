import {
  addDays,
  type CalendarDay,
  clinicDayRange,
  clinicWallTime,
  instantOfClinicWallTime,
} from '@odontia/shared/clinic-time';

/*
 * The calendar library works with the browser's Date fields. The agenda shows the clinic's
 * wall-clock whatever the browser's zone: an instant becomes a "display Date" whose local fields
 * (year … minute) are the clinic's wall-clock, and a display Date (a drop, a resize, a selected
 * slot) goes back to the instant of that wall-clock in the clinic's zone.
 */

const pad = (value: number) => String(value).padStart(2, '0');

/** The display Date of an instant: its local fields are the clinic's wall-clock. */
export function toDisplay(instant: string | Date, timeZone: string): Date {
  const wall = clinicWallTime(instant, timeZone);
  const [day, time] = wall.split('T') as [string, string];
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const [h, min] = time.split(':').map(Number) as [number, number];
  return new Date(y, m - 1, d, h, min);
}

/** The clinic wall-clock 'YYYY-MM-DDTHH:mm' of a display Date. */
export function wallOfDisplay(date: Date): string {
  return `${dayOfDisplay(date)}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** The calendar day 'YYYY-MM-DD' of a display Date. */
export function dayOfDisplay(date: Date): CalendarDay {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** The display Date of a calendar day's midnight. */
export function displayOfDay(day: CalendarDay): Date {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(y, m - 1, d);
}

/** The instant (ISO) a display Date stands for, in the clinic's zone. */
export function instantOfDisplay(date: Date, timeZone: string): string {
  const instant = instantOfClinicWallTime(wallOfDisplay(date), timeZone);
  if (!instant) throw new RangeError(`Not a wall-clock time: ${wallOfDisplay(date)}`);
  return instant.toISOString();
}

export const agendaViews = ['day', 'week', 'month', 'list'] as const;
export type AgendaView = (typeof agendaViews)[number];

/** Monday of the week of a day (the clinic's weeks start on Monday). */
export function mondayOf(day: CalendarDay): CalendarDay {
  const weekday = displayOfDay(day).getDay();
  return addDays(day, -((weekday + 6) % 7));
}

/** The days a view shows around a date: [first, last + 1). */
export function viewDays(view: AgendaView, day: CalendarDay): { first: CalendarDay; end: CalendarDay } {
  if (view === 'day') return { first: day, end: addDays(day, 1) };
  if (view === 'week') {
    const first = mondayOf(day);
    return { first, end: addDays(first, 7) };
  }
  if (view === 'list') return { first: day, end: addDays(day, 7) };
  const first = mondayOf(`${day.slice(0, 8)}01`);
  return { first, end: addDays(first, 42) };
}

/** The instants [from, to) of the days a view shows, in the clinic's zone. */
export function viewRange(view: AgendaView, day: CalendarDay, timeZone: string): { from: string; to: string } {
  const { first, end } = viewDays(view, day);
  return {
    from: clinicDayRange(timeZone, first).start.toISOString(),
    to: clinicDayRange(timeZone, end).start.toISOString(),
  };
}

/** The date the view moves to with "previous" (-1) or "next" (+1). */
export function stepDay(view: AgendaView, day: CalendarDay, step: 1 | -1): CalendarDay {
  if (view === 'day') return addDays(day, step);
  if (view === 'week' || view === 'list') return addDays(day, 7 * step);
  const date = displayOfDay(day);
  return dayOfDisplay(new Date(date.getFullYear(), date.getMonth() + step, 1));
}

export function minutesOf(time: string): number {
  const [h, m] = time.split(':').map(Number) as [number, number];
  return h * 60 + m;
}
