/**
 * How dates and times read, on screen and on paper alike: the same Intl styles in the reader's
 * language, instants on the clinic's clock. The web's hooks and every PDF take their formatters
 * from here, so a time the screen shows as "24/11/26, 16:21" never prints as "1:21 p. m." or as a
 * raw `Date.toString()`.
 */

/** What part of an instant to show: date and time (lists, stamps), the day, the time, or with seconds (signatures). */
export type InstantStyle = 'dateTime' | 'date' | 'time' | 'dateTimeSeconds';

const instantStyles: Record<InstantStyle, Intl.DateTimeFormatOptions> = {
  dateTime: { dateStyle: 'short', timeStyle: 'short' },
  date: { dateStyle: 'medium' },
  time: { timeStyle: 'short' },
  dateTimeSeconds: { dateStyle: 'short', timeStyle: 'medium' },
};

/** Formats an instant (a Date or ISO text) on a time zone's clock in a language; empty text for none. */
export function instantFormatter(
  locale: string,
  timeZone: string,
  style: InstantStyle = 'dateTime',
): (instant: Date | string | null | undefined) => string {
  const format = new Intl.DateTimeFormat(locale, { ...instantStyles[style], timeZone });
  return (instant) => {
    if (instant === null || instant === undefined || instant === '') return '';
    const date = new Date(instant);
    return Number.isNaN(date.getTime()) ? String(instant) : format.format(date);
  };
}

/** Formats a calendar date 'YYYY-MM-DD' ("24 nov 2026") in a language, with no time zone shift. */
export function calendarDateFormatter(locale: string): (day: string | null | undefined) => string {
  const format = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' });
  return (day) => {
    if (!day) return '';
    const date = new Date(`${day.slice(0, 10)}T00:00:00Z`);
    return Number.isNaN(date.getTime()) ? day : format.format(date);
  };
}

/** Formats the month of a calendar date 'YYYY-MM-DD' ("noviembre de 2026") in a language, with no time zone shift. */
export function calendarMonthFormatter(locale: string): (day: string | null | undefined) => string {
  const format = new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric', timeZone: 'UTC' });
  return (day) => {
    if (!day) return '';
    const date = new Date(`${day.slice(0, 7)}-01T00:00:00Z`);
    return Number.isNaN(date.getTime()) ? day : format.format(date);
  };
}
