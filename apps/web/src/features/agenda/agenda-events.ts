import { type CalendarDay, clinicDayRange } from '@odontia/shared/clinic-time';
import type { CalendarAppointment } from '@odontia/shared/schemas/appointments';
import type { ScheduleException } from '@odontia/shared/schemas/schedules';
import { toDisplay } from './display-time';
import { displayStatus } from './status';

/*
 * What the calendar holds (issue 34): appointments, in every status, and the schedule's
 * exceptions (holidays, vacations, blocks). One discriminated type, so every part the calendar
 * library hands an event to (its body, its class, its tooltip, drag and click) says which kind it
 * has: an exception never reaches code written for appointments, and is never opened as one.
 */

interface EventBase {
  id: string;
  title: string;
  start: Date;
  end: Date;
  resourceId?: string;
  allDay?: boolean;
}
export interface AppointmentEvent extends EventBase {
  kind: 'appointment';
  appointment: CalendarAppointment;
}
export interface ExceptionEvent extends EventBase {
  kind: 'exception';
  exception: ScheduleException;
}
export type AgendaEvent = AppointmentEvent | ExceptionEvent;

type Translate = (key: string, values?: Record<string, unknown>) => string;

export const isAppointment = (event: AgendaEvent): event is AppointmentEvent => event.kind === 'appointment';

/**
 * The appointments as events: every status (a cancelled one and a no-show stay where they were,
 * struck through), except the old links of a rescheduled chain, whose current link is shown.
 */
export function appointmentEvents(
  appointments: readonly CalendarAppointment[],
  { timeZone, byChair }: { timeZone: string; byChair: boolean },
): AppointmentEvent[] {
  return appointments
    .filter((a) => a.status !== 'rescheduled')
    .map((a) => ({
      kind: 'appointment',
      id: a.id,
      title: a.patientName,
      start: toDisplay(a.startsAt, timeZone),
      end: toDisplay(a.endsAt, timeZone),
      resourceId: byChair ? (a.chairId ?? '') : a.professionalId,
      appointment: a,
    }));
}

/** "Vacaciones · Dra. Ana Ruiz · Congreso": its kind, whose it is (none: the clinic's), its reason. */
export function exceptionLabel(exception: ScheduleException, t: Translate): string {
  return [t(`exceptionKinds.${exception.kind}`), exception.professionalName, exception.reason]
    .filter(Boolean)
    .join(' · ');
}

/**
 * The exceptions as events. With columns (the day view's professionals or chairs): a clinic's
 * exception in every column, a professional's in their own column (in every chair's column when
 * the columns are chairs, as their name is in the label); without columns, one event each.
 * `allDay` for the list view, which says "all day" of an all-day exception.
 */
export function exceptionEvents(
  exceptions: readonly ScheduleException[],
  {
    timeZone,
    t,
    columns,
    byChair = false,
    allDay = false,
  }: { timeZone: string; t: Translate; columns?: readonly string[]; byChair?: boolean; allDay?: boolean },
): ExceptionEvent[] {
  const list: ExceptionEvent[] = [];
  for (const exception of exceptions) {
    const base = {
      kind: 'exception' as const,
      title: exceptionLabel(exception, t),
      start: toDisplay(exception.startsAt, timeZone),
      end: toDisplay(exception.endsAt, timeZone),
      allDay: allDay && exception.allDay,
      exception,
    };
    if (!columns) {
      list.push({ ...base, id: exception.id });
      continue;
    }
    const targets =
      byChair || !exception.professionalId ? columns : columns.filter((column) => column === exception.professionalId);
    for (const resourceId of targets) list.push({ ...base, id: `${exception.id}:${resourceId}`, resourceId });
  }
  return list;
}

/** The class the calendar draws an event with: an appointment's status, an exception's kind. */
export function eventClassName(event: AgendaEvent): string {
  return isAppointment(event)
    ? `agenda-event agenda-status-${displayStatus(event.appointment)}`
    : `agenda-exception agenda-exception-${event.exception.kind}`;
}

/** What the pointer's tooltip says of an event. */
export function eventTooltip(event: AgendaEvent, t: Translate): string {
  return isAppointment(event)
    ? `${event.appointment.patientName} · ${t(`displayStatus.${displayStatus(event.appointment)}`)}`
    : event.title;
}

/** The exceptions that touch a day of the clinic (the month view lists them under the day's number). */
export function exceptionsOfDay(
  exceptions: readonly ScheduleException[],
  day: CalendarDay,
  timeZone: string,
): ScheduleException[] {
  const { start, end } = clinicDayRange(timeZone, day);
  return exceptions.filter(
    (exception) => Date.parse(exception.startsAt) < end.getTime() && Date.parse(exception.endsAt) > start.getTime(),
  );
}
