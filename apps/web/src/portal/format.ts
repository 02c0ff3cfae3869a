import { type Currency, currencyIsoCodes } from '@odontia/shared/currencies';

/*
 * Dates, times and money as the patient reads them: in the clinic's time zone (never the phone's)
 * and currency, in the page's language.
 */

export function formatWhen(instant: string, timeZone: string, language: string): string {
  return new Intl.DateTimeFormat(language, { timeZone, dateStyle: 'full', timeStyle: 'short' }).format(
    new Date(instant),
  );
}

export function formatTime(instant: string, timeZone: string, language: string): string {
  return new Intl.DateTimeFormat(language, { timeZone, timeStyle: 'short' }).format(new Date(instant));
}

/** A calendar day ('2026-12-01') as a weekday and date; noon UTC keeps it the same day everywhere. */
export function formatDay(day: string, language: string, style: 'long' | 'short' = 'long'): string {
  const options: Intl.DateTimeFormatOptions =
    style === 'long'
      ? { timeZone: 'UTC', weekday: 'long', day: 'numeric', month: 'long' }
      : { timeZone: 'UTC', weekday: 'short', day: 'numeric', month: 'short' };
  return new Intl.DateTimeFormat(language, options).format(new Date(`${day}T12:00:00Z`));
}

export function formatMoney(amount: string, currency: Currency, language: string): string {
  return new Intl.NumberFormat(language, { style: 'currency', currency: currencyIsoCodes[currency] }).format(
    Number(amount),
  );
}
