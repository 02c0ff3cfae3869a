import { yearsOld } from '@odontia/shared/clinic-time';
import type { Patient } from '@odontia/shared/schemas/patients';
import { calendarDate } from '@odontia/shared/validation';

/** "González, María": how a clinic files and reads its patients. */
export function patientName(patient: Pick<Patient, 'firstName' | 'lastName'>): string {
  return `${patient.lastName}, ${patient.firstName}`;
}

/** "+54 11 5555-1234": the calling code (with its plus sign) and the number; null when there is no number. */
export function patientPhone(patient: Pick<Patient, 'phoneArea' | 'phone'>): string | null {
  if (!patient.phone) return null;
  const area = patient.phoneArea
    ? patient.phoneArea.startsWith('+')
      ? patient.phoneArea
      : `+${patient.phoneArea}`
    : '';
  return area ? `${area} ${patient.phone}` : patient.phone;
}

/** The clinical alerts the patient has (allergies, chronic conditions, current medication). */
export function hasClinicalAlerts(patient: Pick<Patient, 'allergies' | 'chronicConditions' | 'currentMedication'>) {
  return Boolean(patient.allergies?.trim() || patient.chronicConditions?.trim() || patient.currentMedication?.trim());
}

/**
 * Whole years between a 'YYYY-MM-DD' birthdate and the clinic's today ('YYYY-MM-DD'), or null
 * while the date is not complete or valid: the form shows it live; lists use the server's `age`.
 */
export function ageFrom(birthdate: string, today: string): number | null {
  const value = birthdate.trim();
  if (!calendarDate().safeParse(value).success || value < '1900-01-01') return null;
  return yearsOld(value, today);
}

/** A calendar date 'YYYY-MM-DD' in the interface language (no time zone shift). */
/** Date and time of an instant on the clinic's clock. */
export { useCalendarDateFormat as useDateFormat, useDateTimeFormat } from '../../session/clinic-time';
