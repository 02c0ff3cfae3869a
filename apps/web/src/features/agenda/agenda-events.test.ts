import type { CalendarAppointment } from '@odontia/shared/schemas/appointments';
import type { ScheduleException } from '@odontia/shared/schemas/schedules';
import { describe, expect, it } from 'vitest';
import {
  type AgendaEvent,
  appointmentEvents,
  eventClassName,
  eventTooltip,
  exceptionEvents,
  exceptionsOfDay,
  isAppointment,
} from './agenda-events';
import { agendaState } from './agenda-preferences';

const t = (key: string) => `«${key}»`;
const timeZone = 'America/Argentina/Buenos_Aires';

const appointment = (fields: Partial<CalendarAppointment>): CalendarAppointment =>
  ({
    id: 'a1',
    patientId: 'p1',
    patientName: 'Ana Gómez',
    professionalId: 'pro1',
    professionalName: 'Dra. Ruiz',
    chairId: null,
    chairName: null,
    treatmentId: null,
    treatmentName: null,
    treatmentColor: null,
    startsAt: '2026-12-23T13:00:00.000Z',
    endsAt: '2026-12-23T13:30:00.000Z',
    status: 'scheduled',
    cancelReason: null,
    arrivedAt: null,
    confirmedAt: null,
    ...fields,
  }) as CalendarAppointment;

const exception = (fields: Partial<ScheduleException>): ScheduleException =>
  ({
    id: 'e1',
    professionalId: null,
    professionalName: null,
    kind: 'holiday',
    startsAt: '2026-12-25T03:00:00.000Z',
    endsAt: '2026-12-26T03:00:00.000Z',
    allDay: true,
    reason: 'Navidad',
    ...fields,
  }) as ScheduleException;

describe('the agenda’s events (issue 34: a holiday crashed the week view)', () => {
  const events: AgendaEvent[] = [
    ...appointmentEvents(
      [
        appointment({}),
        appointment({ id: 'a2', status: 'cancelled', cancelReason: 'patient_request' }),
        appointment({ id: 'a3', status: 'cancelled', cancelReason: 'no_show' }),
        appointment({ id: 'a4', status: 'rescheduled' }),
        appointment({ id: 'a5', status: 'completed' }),
      ],
      { timeZone, byChair: false },
    ),
    ...exceptionEvents(
      [
        exception({}),
        exception({ id: 'e2', kind: 'vacation', professionalId: 'pro2', professionalName: 'Dr. Paz', reason: null }),
        exception({ id: 'e3', kind: 'block', professionalId: 'pro1', professionalName: 'Dra. Ruiz', allDay: false }),
      ],
      { timeZone, t },
    ),
  ];

  it('keeps every status but a move’s old link, and every kind of exception', () => {
    expect(events.filter(isAppointment).map((e) => e.id)).toEqual(['a1', 'a2', 'a3', 'a5']);
    expect(events.filter((e) => !isAppointment(e)).map((e) => e.title)).toEqual([
      '«exceptionKinds.holiday» · Navidad',
      '«exceptionKinds.vacation» · Dr. Paz',
      '«exceptionKinds.block» · Dra. Ruiz · Navidad',
    ]);
  });

  it('gives every event a class and a tooltip of its own kind', () => {
    expect(events.map((e) => eventClassName(e))).toEqual([
      'agenda-event agenda-status-scheduled',
      'agenda-event agenda-status-cancelled',
      'agenda-event agenda-status-no_show',
      'agenda-event agenda-status-completed',
      'agenda-exception agenda-exception-holiday',
      'agenda-exception agenda-exception-vacation',
      'agenda-exception agenda-exception-block',
    ]);
    expect(events.map((e) => eventTooltip(e, t))).toEqual([
      'Ana Gómez · «displayStatus.scheduled»',
      'Ana Gómez · «displayStatus.cancelled»',
      'Ana Gómez · «displayStatus.no_show»',
      'Ana Gómez · «displayStatus.completed»',
      '«exceptionKinds.holiday» · Navidad',
      '«exceptionKinds.vacation» · Dr. Paz',
      '«exceptionKinds.block» · Dra. Ruiz · Navidad',
    ]);
  });

  it('puts a clinic’s exception in every column, a professional’s in theirs, every one in chair columns', () => {
    const list = [exception({}), exception({ id: 'e2', kind: 'vacation', professionalId: 'pro2' })];
    const ids = (byChair: boolean, columns: string[]) =>
      exceptionEvents(list, { timeZone, t, columns, byChair }).map((e) => e.id);
    expect(ids(false, ['pro1', 'pro2'])).toEqual(['e1:pro1', 'e1:pro2', 'e2:pro2']);
    expect(ids(false, ['pro1'])).toEqual(['e1:pro1']);
    expect(ids(true, ['c1', 'c2'])).toEqual(['e1:c1', 'e1:c2', 'e2:c1', 'e2:c2']);
    // All day only in the list view, and only when the exception is.
    expect(exceptionEvents(list, { timeZone, t, allDay: true }).map((e) => e.allDay)).toEqual([true, true]);
    expect(exceptionEvents(list, { timeZone, t }).map((e) => e.allDay)).toEqual([false, false]);
  });

  it('finds the exceptions of a day of the clinic', () => {
    const list = [exception({})];
    expect(exceptionsOfDay(list, '2026-12-24', timeZone)).toEqual([]);
    expect(exceptionsOfDay(list, '2026-12-25', timeZone)).toEqual(list);
    expect(exceptionsOfDay(list, '2026-12-26', timeZone)).toEqual([]);
  });
});

describe('the agenda’s remembered state', () => {
  it('opens on the day view; the URL wins over what was remembered', () => {
    expect(agendaState(new URLSearchParams(), {})).toEqual({ view: 'day', professionals: [], byChair: false });
    const stored = { view: 'week' as const, professionals: ['pro1'], byChair: true };
    expect(agendaState(new URLSearchParams(), stored)).toEqual(stored);
    expect(agendaState(new URLSearchParams('view=month&professionals=&byChair=0'), stored)).toEqual({
      view: 'month',
      professionals: [],
      byChair: false,
    });
    expect(agendaState(new URLSearchParams('view=nope'), { view: 'bad' as never })).toMatchObject({ view: 'day' });
  });
});
