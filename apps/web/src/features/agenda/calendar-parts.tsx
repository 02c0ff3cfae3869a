import { type CalendarDay, instantOfClinicWallTime } from '@odontia/shared/clinic-time';
import type { ScheduleException } from '@odontia/shared/schemas/schedules';
import { AlertTriangle } from 'lucide-react';
import { createContext, type MouseEvent as ReactMouseEvent, type ReactNode, useContext } from 'react';
import { useTranslation } from 'react-i18next';
import { useClinicTimeZone } from '../../session/clinic-time';
import {
  type AgendaEvent,
  type AppointmentEvent,
  type ExceptionEvent,
  exceptionLabel,
  exceptionsOfDay,
  isAppointment,
} from './agenda-events';
import { dayOfDisplay, toDisplay } from './display-time';
import { displayStatus } from './status';

/*
 * The calendar's headers and event blocks, drawn inside react-big-calendar by `AgendaCalendar`.
 */

/** The hour the day and week grids start at. */
export const firstHour = 7;

/** What the parts the calendar library renders need of the agenda: open an appointment, the exceptions. */
export const AgendaContext = createContext<{
  open: (id: string) => void;
  exceptions: readonly ScheduleException[];
  timeZone: string;
  /** The day the view is on (the day view's resource headers name its exceptions). */
  day: CalendarDay;
  byChair: boolean;
}>({ open: () => undefined, exceptions: [], timeZone: 'UTC', day: '1970-01-01', byChair: false });

/** A day's header without the library's stray role="columnheader" (no grid around it). */
export function DayHeader({ label }: { label: string }) {
  return <span>{label}</span>;
}

/** A day of the week view: its name and the exceptions that hold it from its first hour. */
export function WeekDayHeader({ label, date }: { label: string; date: Date }) {
  return (
    <>
      <span>{label}</span>
      <HeaderExceptions day={dayOfDisplay(date)} />
    </>
  );
}

/** A column of the day view: the professional (or chair) and the exceptions that hold it from its first hour. */
export function ResourceHeader({ label, resource }: { label: ReactNode; resource: object }) {
  const { day } = useContext(AgendaContext);
  return (
    <>
      <span>{label}</span>
      <HeaderExceptions day={day} column={(resource as { id: string }).id} />
    </>
  );
}

/** A schedule exception named on a day (a column header, a month cell), coloured by its kind. */
function ExceptionChip({ exception, className }: { exception: ScheduleException; className: string }) {
  const { t } = useTranslation('agenda');
  const label = exceptionLabel(exception, t);
  return (
    <span
      className={`${className} agenda-exception-${exception.kind}`}
      data-testid="agenda-exception"
      data-kind={exception.kind}
      title={label}
    >
      {label}
    </span>
  );
}

/**
 * The exceptions that already hold a column when its grid starts (a holiday, a vacation, a block
 * from before 07:00), named in its header, always in sight; the grid hatches their hours, and names
 * in place those that start later.
 */
export function HeaderExceptions({ day, column }: { day: CalendarDay; column?: string }) {
  const { exceptions, timeZone, byChair } = useContext(AgendaContext);
  const opening = instantOfClinicWallTime(`${day}T${String(firstHour).padStart(2, '0')}:00`, timeZone)?.getTime();
  if (opening === undefined) return null;
  const held = exceptionsOfDay(exceptions, day, timeZone).filter(
    (e) =>
      Date.parse(e.startsAt) < opening &&
      Date.parse(e.endsAt) > opening &&
      (column === undefined || byChair || !e.professionalId || e.professionalId === column),
  );
  if (!held.length) return null;
  return (
    <span className="agenda-header-exceptions">
      {held.map((exception) => (
        <ExceptionChip key={exception.id} exception={exception} className="agenda-header-exception" />
      ))}
    </span>
  );
}

/** An event of the day and week views: an appointment, or an exception drawn behind them. */
export function EventBody({ event }: { event: AgendaEvent }) {
  return isAppointment(event) ? <AppointmentBody event={event} /> : <ExceptionBody event={event} />;
}

/** The patient first (what the receptionist looks for), then the time, small, and the treatment. */
export function AppointmentBody({ event }: { event: AppointmentEvent }) {
  const { t } = useTranslation('agenda');
  const timeZone = useClinicTimeZone();
  const a = event.appointment;
  const status = displayStatus(a);
  const time = (iso: string) => toDisplay(iso, timeZone).toTimeString().slice(0, 5);
  return (
    <span
      className="agenda-event-body"
      data-testid="agenda-event"
      data-appointment-id={a.id}
      data-status={status}
      title={`${time(a.startsAt)}–${time(a.endsAt)} ${a.patientName} · ${t(`displayStatus.${status}`)}${a.origin === 'online' ? ` · ${t('origins.online')}` : ''}${a.labCaseWarning ? ` · ${t('labCases:agendaWarning')}` : ''}`}
    >
      {a.labCaseWarning ? (
        // Issue 41: a lab case to seat here is not back by the day before.
        <span className="agenda-event-lab-warning" data-testid="agenda-lab-warning">
          <AlertTriangle size={12} aria-hidden="true" />
          <span className="visually-hidden">{t('labCases:agendaWarning')} · </span>
        </span>
      ) : null}
      <strong className="agenda-event-patient">{a.patientName}</strong>{' '}
      <small className="agenda-event-time">
        {time(a.startsAt)}–{time(a.endsAt)}
      </small>
      {a.treatmentName ? <small className="agenda-event-treatment"> · {a.treatmentName}</small> : null}
      {a.origin === 'online' ? (
        <small className="agenda-event-origin" data-testid="agenda-event-online">
          {' '}
          · {t('origins.online')}
        </small>
      ) : null}
      {status === 'cancelled' || status === 'no_show' ? (
        <small className="agenda-event-state"> · {t(`displayStatus.${status}`)}</small>
      ) : (
        <span className="visually-hidden"> · {t(`displayStatus.${status}`)}</span>
      )}
    </span>
  );
}

export function ExceptionBody({ event }: { event: ExceptionEvent }) {
  return (
    <span className="agenda-exception-body" data-testid="agenda-exception" data-kind={event.exception.kind}>
      <span className="agenda-exception-label" title={event.title}>
        {event.title}
      </span>
    </span>
  );
}

/** A day of the month: its number (to the day view) and the day's holidays, vacations and blocks. */
export function MonthDateHeader({
  label,
  date,
  drilldownView,
  onDrillDown,
}: {
  label: string;
  date: Date;
  drilldownView?: string | null;
  onDrillDown: (event: ReactMouseEvent) => void;
}) {
  const { exceptions, timeZone } = useContext(AgendaContext);
  const day: CalendarDay = dayOfDisplay(date);
  return (
    <>
      {drilldownView ? (
        <button type="button" className="rbc-button-link" onClick={onDrillDown}>
          {label}
        </button>
      ) : (
        <span>{label}</span>
      )}
      {exceptionsOfDay(exceptions, day, timeZone).map((exception) => (
        <ExceptionChip key={exception.id} exception={exception} className="agenda-month-exception" />
      ))}
    </>
  );
}

/** A row of the list view: an appointment (a button that opens it) or an exception (text). */
export function ListEvent({ event }: { event: AgendaEvent }) {
  const { t } = useTranslation('agenda');
  const { open } = useContext(AgendaContext);
  if (!isAppointment(event))
    return (
      <span
        className={`agenda-list-event agenda-list-exception agenda-exception-${event.exception.kind}`}
        data-testid="agenda-exception"
        data-kind={event.exception.kind}
      >
        {event.title}
      </span>
    );
  const a = event.appointment;
  const status = displayStatus(a);
  return (
    <span className={`agenda-list-event agenda-status-${status}`} data-testid="agenda-list-event" data-status={status}>
      <span className="badge agenda-badge">{t(`displayStatus.${status}`)}</span>{' '}
      <button type="button" className="btn btn-link p-0 align-baseline agenda-event-patient" onClick={() => open(a.id)}>
        {a.patientName}
      </button>{' '}
      · {a.professionalName}
      {a.chairName ? ` · ${a.chairName}` : ''}
      {a.treatmentName ? ` · ${a.treatmentName}` : ''}
    </span>
  );
}

/** The first hour the time grid shows. */
