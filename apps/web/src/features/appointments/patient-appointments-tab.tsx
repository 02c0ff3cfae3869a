import { clinicWallTime } from '@odontia/shared/clinic-time';
import { can } from '@odontia/shared/permissions';
import type { Appointment } from '@odontia/shared/schemas/appointments';
import type { Patient } from '@odontia/shared/schemas/patients';
import { CalendarPlus, Stethoscope } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DataTable } from '../../components/data-table';
import { pagesOf, useListState } from '../../lib/use-list-state';
import { useClinicTimeZone, useClinicToday, useInstantFormat } from '../../session/clinic-time';
import { useSessionUser } from '../../session/session';
import { calendarPath, startAttendancePath, usePatientAppointments } from './api';
import { AppointmentBadges } from './appointment-badges';

const pageSize = 10;

/** The agenda's day of an appointment with its details open. */
export function appointmentPath(appointment: Pick<Appointment, 'id' | 'startsAt'>, timeZone: string): string {
  const date = clinicWallTime(appointment.startsAt, timeZone).slice(0, 10);
  return `/calendar?${new URLSearchParams({ date, view: 'day', open: appointment.id })}`;
}

/**
 * The medical history's "Citas" tab (issue 16): the patient's appointments, the next ones
 * soonest first, then the past ones newest first, with their state (and cancel reason, no-show);
 * one row per appointment (a move's current link; the server leaves the old ones out), its
 * date opening it in the agenda. "Nueva cita" opens the calendar's booking dialog for the patient.
 */
export function PatientAppointmentsTab({ patient }: { patient: Patient }) {
  const { t } = useTranslation('dashboard');
  const user = useSessionUser();
  const today = useClinicToday();
  const when = useInstantFormat('dateTime');
  const time = useInstantFormat('time');
  const timeZone = useClinicTimeZone();
  const list = useListState();
  const query = usePatientAppointments(patient.id, list.page, pageSize);
  const canBook = user ? can(user.level, 'appointments.write') : false;
  const canAttend = user ? can(user.level, 'clinical.write') : false;
  const now = Date.now();
  return (
    <div data-testid="tab-appointments">
      <div className="mh-toolbar">
        <span className="text-body-secondary small me-auto">
          {query.data ? t('appointments.count', { count: query.data.total }) : null}
        </span>
        {canBook ? (
          <Link
            to={calendarPath({ date: today, patientId: patient.id })}
            className="btn btn-primary btn-sm"
            data-testid="new-appointment"
          >
            <CalendarPlus size={16} aria-hidden="true" className="me-1" />
            {t('appointments.new')}
          </Link>
        ) : null}
      </div>
      <DataTable<Appointment>
        label={t('appointments.tab')}
        query={query}
        rowKey={(appointment) => appointment.id}
        rowProps={(appointment) => ({
          'data-testid': 'patient-appointment-row',
          'data-status': appointment.status,
          className: Date.parse(appointment.startsAt) >= now ? 'patient-appointment-next' : undefined,
        })}
        className="table-hover mh-table"
        compact
        emptyText={t('appointments.empty')}
        emptyTestId="empty-appointments"
        errorText={t('loadError')}
        retryText={t('retry')}
        pagination={{
          ...pagesOf(list, pageSize),
          label: t('appointments.pages'),
          onlyWhenNeeded: true,
        }}
        columns={[
          {
            key: 'startsAt',
            header: t('appointments.when'),
            className: 'text-nowrap',
            primary: true,
            cell: (appointment) => (
              <Link
                to={appointmentPath(appointment, timeZone)}
                className="fw-semibold"
                data-testid="patient-appointment-open"
              >
                {when(appointment.startsAt)}–{time(appointment.endsAt)}
              </Link>
            ),
          },
          {
            key: 'professional',
            header: t('appointments.professional'),
            className: 'text-nowrap',
            cell: (appointment) => appointment.professionalName,
          },
          {
            key: 'reason',
            header: t('appointments.reason'),
            className: 'mh-text-cell',
            cell: (appointment) =>
              [appointment.treatmentName, appointment.reason].filter(Boolean).join(' · ') || (
                <span className="text-body-secondary">—</span>
              ),
          },
          {
            key: 'status',
            header: t('appointments.status'),
            cell: (appointment) => (
              <span className="d-grid gap-1">
                <AppointmentBadges appointment={appointment} />
                {appointment.cancelNote ? (
                  <span className="small text-body-secondary">{appointment.cancelNote}</span>
                ) : null}
              </span>
            ),
          },
          {
            key: 'actions',
            header: <span className="visually-hidden">{t('appointments.actions')}</span>,
            cell: (appointment) =>
              appointment.status === 'scheduled' && canAttend ? (
                <Link
                  to={startAttendancePath(appointment)}
                  className="btn btn-outline-primary btn-sm text-nowrap"
                  data-testid="appointment-start-attendance"
                >
                  <Stethoscope size={14} aria-hidden="true" className="me-1" />
                  {t('actions.startAttendance')}
                </Link>
              ) : appointment.attendanceId ? (
                <Link
                  to={`/patients/${encodeURIComponent(patient.id)}/mh/attendance/show/${encodeURIComponent(appointment.attendanceId)}`}
                  className="small text-nowrap"
                >
                  {t('appointments.openAttendance')}
                </Link>
              ) : null,
          },
        ]}
      />
    </div>
  );
}
