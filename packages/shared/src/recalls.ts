import { addDays, type CalendarDay, clinicToday } from './clinic-time.ts';
import type { RecallUnit, RecallView } from './enums.ts';

/**
 * A recall's dates (issue 38). A treatment's rule says "recall after N days, weeks or months";
 * the recall is due that long after the clinic's calendar day of the attendance (its time zone,
 * so an attendance at 00:30 in Madrid counts on Madrid's day, whatever UTC says). Months add
 * calendar months and keep the day, or the month's last day when it has fewer (31 January + 1
 * month → 28 or 29 February), as a front desk counts them.
 */

/** The longest rule: five years in any unit (the database checks the same). */
export const recallIntervalBounds = { days: 1825, weeks: 260, months: 60 } as const satisfies Record<
  RecallUnit,
  number
>;
/** The largest bound of any unit: what the field's own check allows before the unit's. */
export const recallIntervalMax = 1825;
/** Automatic recall e-mails leave 0 (off) to 60 days before the due date. */
export const recallMessageDaysMax = 60;

function parts(day: CalendarDay): [number, number, number] {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) throw new RangeError(`Not a calendar date: ${day}`);
  return [Number(match[1]), Number(match[2]), Number(match[3])];
}

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/** `day` plus whole calendar months, clamped to the last day of a shorter month. */
export function addMonths(day: CalendarDay, months: number): CalendarDay {
  const [year, month, date] = parts(day);
  const index = year * 12 + (month - 1) + months;
  const nextYear = Math.floor(index / 12);
  const nextMonth = (index % 12) + 1;
  const lastDay = new Date(Date.UTC(2000, nextMonth, 0)).getUTCDate(); // 2000: a leap year…
  const monthEnd = nextMonth === 2 && !isLeapYear(nextYear) ? 28 : lastDay; // …so February checks the year.
  return `${pad(nextYear, 4)}-${pad(nextMonth)}-${pad(Math.min(date, monthEnd))}`;
}

const isLeapYear = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

/** The day a recall is due: the attendance's day plus the rule's interval. */
export function recallDueOn(day: CalendarDay, interval: number, unit: RecallUnit): CalendarDay {
  if (unit === 'days') return addDays(day, interval);
  if (unit === 'weeks') return addDays(day, interval * 7);
  return addMonths(day, interval);
}

/** The clinic's day of an attendance (an instant) and the day its recall is due. */
export function recallDueOfAttendance(
  attendedAt: Date,
  timeZone: string,
  rule: { interval: number; unit: RecallUnit },
): CalendarDay {
  return recallDueOn(clinicToday(timeZone, attendedAt), rule.interval, rule.unit);
}

/** What the list shows a recall as: its state, or "overdue" when open and past its day. */
export function recallViewOf(recall: { status: string; dueOn: CalendarDay }, today: CalendarDay): RecallView {
  const open = recall.status === 'pending' || recall.status === 'contacted';
  if (open && recall.dueOn < today) return 'overdue';
  if (recall.status === 'pending') return 'due';
  return recall.status as RecallView;
}
