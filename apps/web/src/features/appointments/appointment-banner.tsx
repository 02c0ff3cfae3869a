import type { Appointment } from '@odontia/shared/schemas/appointments';
import { CalendarCheck, CalendarX } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useInstantFormat } from '../../session/clinic-time';

/**
 * Above a new attendance started from an appointment: which appointment it completes, or why it
 * will not (another patient's, no longer scheduled, not found).
 */
export function AppointmentBanner({ appointment, usable }: { appointment: Appointment | null; usable: boolean }) {
  const { t } = useTranslation(['dashboard', 'agenda']);
  const time = useInstantFormat('time');
  const day = useInstantFormat('date');
  if (appointment && usable)
    return (
      <div className="alert alert-info d-flex gap-2 align-items-start" data-testid="attendance-appointment-banner">
        <CalendarCheck size={18} aria-hidden="true" className="flex-shrink-0 mt-1" />
        <div>
          <div className="fw-semibold">
            {t('attendance.fromAppointment', {
              time: time(appointment.startsAt),
              professional: appointment.professionalName,
            })}
          </div>
          <div className="small">{t('attendance.completesAppointment', { day: day(appointment.startsAt) })}</div>
        </div>
      </div>
    );
  return (
    <div className="alert alert-warning d-flex gap-2 align-items-start" data-testid="attendance-appointment-unusable">
      <CalendarX size={18} aria-hidden="true" className="flex-shrink-0 mt-1" />
      <div>
        {appointment
          ? t('attendance.appointmentNotUsable', { status: t(`agenda:statuses.${appointment.status}`) })
          : t('attendance.appointmentNotFound')}
      </div>
    </div>
  );
}
