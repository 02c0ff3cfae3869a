import { addDays, clinicToday, instantOfClinicWallTime } from '@odontia/shared/clinic-time';

/**
 * The demo clinic's calendar: its records are dated in days before the clinic's today (Buenos
 * Aires), so a demo seeded at 23:30 there has no record dated tomorrow.
 */

export const demoTimeZone = 'America/Argentina/Buenos_Aires';

/** The demo clinic's calendar day `days` before its today (after it when negative). */
export function demoDay(days: number): string {
  return addDays(clinicToday(demoTimeZone), -days);
}

/** The instant of a wall-clock time ('10:30') in the demo clinic, `days` before its today. */
export function demoInstant(days: number, time = '10:00'): Date {
  const instant = instantOfClinicWallTime(`${demoDay(days)}T${time}`, demoTimeZone);
  if (!instant) throw new RangeError(`Not a wall-clock time: ${time}`);
  return instant;
}
