import type { Appointment, CalendarAppointment } from '@odontia/shared/schemas/appointments';
import { useTranslation } from 'react-i18next';

/** Bootstrap colour of an appointment's state (the calendar's legend uses the same hues). */
export function appointmentStatusClass(status: Appointment['status']): string {
  switch (status) {
    case 'scheduled':
      return 'bg-primary-subtle text-primary-emphasis';
    case 'completed':
      return 'bg-success-subtle text-success-emphasis';
    case 'cancelled':
      return 'bg-danger-subtle text-danger-emphasis';
    default:
      return 'bg-secondary-subtle text-secondary-emphasis';
  }
}

/**
 * The badges of an appointment at a glance: its state when it is no longer scheduled (with the
 * cancel reason), else confirmed / not confirmed, and arrived.
 */
export function AppointmentBadges({
  appointment,
}: {
  appointment: Pick<CalendarAppointment, 'status' | 'cancelReason' | 'confirmedAt' | 'arrivedAt'>;
}) {
  const { t } = useTranslation(['dashboard', 'agenda']);
  if (appointment.status !== 'scheduled')
    return (
      <span className="d-inline-flex flex-wrap gap-1">
        <span className={`badge ${appointmentStatusClass(appointment.status)}`} data-testid="appointment-status">
          {t(`agenda:statuses.${appointment.status}`)}
        </span>
        {appointment.cancelReason ? (
          <span
            className={`badge ${appointment.cancelReason === 'no_show' ? 'text-bg-danger' : 'bg-body-secondary text-body'}`}
            data-testid="appointment-cancel-reason"
          >
            {t(`agenda:cancelReasons.${appointment.cancelReason}`)}
          </span>
        ) : null}
      </span>
    );
  return (
    <span className="d-inline-flex flex-wrap gap-1">
      {appointment.confirmedAt ? (
        <span className="badge bg-success-subtle text-success-emphasis" data-testid="appointment-confirmed">
          {t('badges.confirmed')}
        </span>
      ) : (
        <span className="badge bg-warning-subtle text-warning-emphasis" data-testid="appointment-unconfirmed">
          {t('badges.unconfirmed')}
        </span>
      )}
      {appointment.arrivedAt ? (
        <span className="badge text-bg-info" data-testid="appointment-arrived">
          {t('badges.arrived')}
        </span>
      ) : null}
    </span>
  );
}
