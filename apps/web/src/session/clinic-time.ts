import { clinicToday } from '@odontia/shared/clinic-time';
import {
  calendarDateFormatter,
  calendarMonthFormatter,
  type InstantStyle,
  instantFormatter,
} from '@odontia/shared/date-format';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useSessionUser } from './session';

/**
 * The signed-in clinic's clock on screen: its "today" and the instants the screens show are
 * those of the clinic's time zone (profile.account.timeZone), whatever the browser's, so a
 * professional travelling or a browser set to UTC sees the clinic's days and hours.
 */

function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

/** The clinic's IANA time zone (the browser's before the profile is known). */
export function useClinicTimeZone(): string {
  return useSessionUser()?.account.timeZone ?? browserTimeZone();
}

/** The clinic's calendar date 'YYYY-MM-DD' now: what date fields start with and where "future" begins. */
export function useClinicToday(): string {
  return clinicToday(useClinicTimeZone());
}

/**
 * Formats an instant (ISO text) on the clinic's clock in the interface language: date and time
 * (default), the day only, or the time only. Empty text for a missing instant.
 */
export function useInstantFormat(style: InstantStyle = 'dateTime'): (iso: string | null | undefined) => string {
  const { i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? i18n.language;
  const timeZone = useClinicTimeZone();
  return useMemo(() => instantFormatter(language, timeZone, style), [language, style, timeZone]);
}

/** A calendar date 'YYYY-MM-DD' in the interface language (no time zone shift), as the PDFs print it. */
export function useCalendarDateFormat(): (day: string | null | undefined) => string {
  const { i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? i18n.language;
  return useMemo(() => calendarDateFormatter(language), [language]);
}

/** The month of a calendar date ('2026-11-01' → "noviembre de 2026") in the interface language. */
export function useCalendarMonthFormat(): (day: string | null | undefined) => string {
  const { i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? i18n.language;
  return useMemo(() => calendarMonthFormatter(language), [language]);
}

/** Date and time of an instant on the clinic's clock (the lists' "created", "changed"). */
export function useDateTimeFormat(): (iso: string) => string {
  return useInstantFormat('dateTime');
}
