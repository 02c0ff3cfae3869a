import { clinicToday, clinicWallTime } from '@odontia/shared/clinic-time';
import type { Appointment } from '@odontia/shared/schemas/appointments';
import { useTranslation } from 'react-i18next';
import { useClinicTimeZone, useInstantFormat } from '../../session/clinic-time';
import { useAppointmentChanges } from '../appointments/api';
import { useMessages } from './api';
import { patientAnswerChannel, reminderOf, statusMoment } from './message-words';

/*
 * The agenda's appointment details (issue 38): how its reminder went ("WhatsApp · entregado
 * 10:32", from GET /api/messages?appointmentId) and, for an appointment the patient cancelled or
 * confirmed themself, on which channel they answered.
 */

/** "WhatsApp · entregado 10:32" of the appointment's newest reminder; nothing before one is queued. */
export function ReminderDelivery({ appointmentId }: { appointmentId: string }) {
  const { t } = useTranslation('messaging');
  const timeZone = useClinicTimeZone();
  const time = useInstantFormat('time');
  const dateTime = useInstantFormat('dateTime');
  const messages = useMessages({ appointmentId, page: 1, pageSize: 10 });
  const reminder = reminderOf(messages.data?.data ?? []);
  // While the log loads, its line keeps its place: the details do not jump when it comes.
  if (messages.isPending)
    return (
      <div className="small" aria-hidden="true">
        &nbsp;
      </div>
    );
  if (!reminder) return null;
  const moment = statusMoment(reminder);
  const today = clinicToday(timeZone);
  const when = moment
    ? clinicWallTime(moment, timeZone).slice(0, 10) === today
      ? time(moment)
      : dateTime(moment)
    : '';
  return (
    <div className="small" data-testid="appointment-reminder-delivery" data-status={reminder.status}>
      {t('reminder.delivery', {
        channel: t(`channels.${reminder.channel}`),
        status: t(`reminder.statuses.${reminder.status}`),
        when,
      }).trim()}
      {reminder.error ? <span className="text-danger-emphasis"> · {reminder.error}</span> : null}
    </div>
  );
}

/**
 * " por WhatsApp" after "Cancelada por el paciente": the channel of the patient's own answer, read
 * from the appointment's history (the audit of the answer keeps it), else from its reminder.
 */
export function PatientAnswerChannel({ appointment }: { appointment: Pick<Appointment, 'id' | 'reminderState'> }) {
  const { t } = useTranslation('messaging');
  const answered = appointment.reminderState === 'cancelled_by_patient';
  // The first page of the details' history of changes (the same request it makes).
  const changes = useAppointmentChanges(appointment.id, 1, 5);
  const messages = useMessages({ appointmentId: appointment.id, page: 1, pageSize: 10 }, answered);
  if (!answered) return null;
  const channel = patientAnswerChannel(changes.data?.data ?? [], reminderOf(messages.data?.data ?? []));
  if (!channel) return null;
  return <span data-testid="appointment-answer-channel"> {t(`reminder.answeredBy.${channel}`)}</span>;
}
