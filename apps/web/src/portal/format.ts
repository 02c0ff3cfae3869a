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

/** Black or white text, whichever reads better on `colour` ('#rrggbb'), for the brand's band. */
export function textOn(colour: string): '#000000' | '#ffffff' {
  const match = /^#?([0-9a-f]{6})$/i.exec(colour.trim());
  if (!match?.[1]) return '#ffffff';
  const channel = (offset: number) => {
    const value = Number.parseInt(match[1]?.slice(offset, offset + 2) ?? '0', 16) / 255;
    return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(0) + 0.7152 * channel(2) + 0.0722 * channel(4);
  // Contrast with white (1.05 / (L + 0.05)) against contrast with black ((L + 0.05) / 0.05).
  return 1.05 / (luminance + 0.05) >= (luminance + 0.05) / 0.05 ? '#ffffff' : '#000000';
}
