import type { CalendarAppointment } from '@odontia/shared/schemas/appointments';

/** What the agenda's screens say of an appointment: its state as drawn, and who holds a refused time. */

export const statusOrder = ['scheduled', 'confirmed', 'arrived', 'completed', 'cancelled', 'no_show'] as const;
export type DisplayStatus = (typeof statusOrder)[number] | 'rescheduled';

/** What the calendar shows of an appointment's state: its status, or its confirmation / arrival. */
export function displayStatus(
  appointment: Pick<CalendarAppointment, 'status' | 'cancelReason' | 'arrivedAt' | 'confirmedAt'>,
): DisplayStatus {
  if (appointment.status === 'cancelled') return appointment.cancelReason === 'no_show' ? 'no_show' : 'cancelled';
  if (appointment.status !== 'scheduled') return appointment.status;
  if (appointment.arrivedAt) return 'arrived';
  if (appointment.confirmedAt) return 'confirmed';
  return 'scheduled';
}

/** "Ese horario está ocupado por …": the 409 appointment_overlaps answer in words. */
export function overlapText(
  t: (key: string, values?: Record<string, unknown>) => string,
  details: Record<string, unknown> | undefined,
  timeZone: string,
  language: string,
): string {
  const other = details?.appointment as
    | { startsAt: string; endsAt: string; patientName: string; professionalName: string }
    | undefined;
  const resource = details?.resource === 'chair' ? 'chair' : 'professional';
  if (!other) return t('overlap.generic');
  const time = new Intl.DateTimeFormat(language, { hour: '2-digit', minute: '2-digit', timeZone });
  return t(`overlap.${resource}`, {
    patient: other.patientName,
    professional: other.professionalName,
    start: time.format(new Date(other.startsAt)),
    end: time.format(new Date(other.endsAt)),
  });
}
