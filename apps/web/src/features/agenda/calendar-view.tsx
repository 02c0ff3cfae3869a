import '../../lib/zod-setup';
import { clinicToday } from '@odontia/shared/clinic-time';
import { useMemo, useState } from 'react';
import type { SlotInfo } from 'react-big-calendar';
import type { EventInteractionArgs } from 'react-big-calendar/lib/addons/dragAndDrop';
import { useTranslation } from 'react-i18next';
import { useClinicTimeZone } from '../../session/clinic-time';
import { useCalendarAppointments } from '../appointments/api';
import { useProfessionals } from '../users/professionals';
import {
  type AgendaEvent,
  type AppointmentEvent,
  appointmentEvents,
  type ExceptionEvent,
  exceptionEvents,
  isAppointment,
} from './agenda-events';
import { AgendaFilters, AgendaToolbar, agendaTitle } from './agenda-toolbar';
import { useChairs, useScheduleExceptions, useSchedules } from './api';
import { AppointmentDialog } from './appointment-dialog';
import { BookingDialog, type BookingDraft } from './booking-dialog';
import { CalendarGrid, type Resource } from './calendar-grid';
import { AgendaContext } from './calendar-parts';
import { useUrlState } from './calendar-url-state';
import { instantOfDisplay, viewRange } from './display-time';
import { OutsideScheduleDialog } from './outside-schedule';
import { useAppointmentMove } from './use-appointment-move';

export function AgendaCalendar() {
  const { t, i18n } = useTranslation('agenda');
  const timeZone = useClinicTimeZone();
  const { search, view, date, set, professionals: filter, byChair } = useUrlState();
  const professionalsQuery = useProfessionals();
  const professionals = professionalsQuery.data ?? [];
  const chairs = useChairs().data ?? [];
  const schedules = useSchedules().data;
  // A remembered professional who is no longer listed is dropped from the filter.
  const selected = professionalsQuery.data ? filter.filter((id) => professionals.some((p) => p.id === id)) : filter;
  const range = viewRange(view, date, timeZone);
  const calendar = useCalendarAppointments({
    ...range,
    professionalIds: selected.length ? selected : undefined,
    inactive: 'true',
  });
  const allExceptions = useScheduleExceptions(range.from, range.to).data ?? [];
  const selectedKey = selected.join(',');
  // A professional's exception shows while they are shown; a clinic's, always.
  const exceptions = useMemo(
    () =>
      allExceptions.filter(
        (e) => !selectedKey || !e.professionalId || selectedKey.split(',').includes(e.professionalId),
      ),
    [allExceptions, selectedKey],
  );
  const [openId, setOpenId] = useState<string | null>(search.get('open'));
  const [draft, setDraft] = useState<BookingDraft | null>(
    search.get('book') === '1'
      ? {
          patientId: search.get('patientId') ?? undefined,
          professionalId: search.get('professionalId') ?? undefined,
        }
      : null,
  );
  const today = clinicToday(timeZone);
  const language = (i18n.resolvedLanguage ?? 'es').slice(0, 2);
  const { move, pendingMove, confirmPending, cancelPending } = useAppointmentMove(timeZone, language);

  // Columns per professional (or per chair) in the day view; the week has one column per day.
  const useChairsAsColumns = view === 'day' && byChair && chairs.length > 0;
  const shownProfessionals = professionals.filter((p) => !selected.length || selected.includes(p.id));
  const resources: Resource[] | undefined =
    view === 'day'
      ? useChairsAsColumns
        ? chairs.map((chair) => ({ id: chair.id, title: chair.name }))
        : shownProfessionals.map((p) => ({ id: p.id, title: p.completeName }))
      : undefined;
  const columnsKey = resources?.map((r) => r.id).join(',');

  const appointments: AppointmentEvent[] = useMemo(
    () => appointmentEvents(calendar.data ?? [], { timeZone, byChair: useChairsAsColumns }),
    [calendar.data, timeZone, useChairsAsColumns],
  );
  // The month lists the exceptions under each day's number (MonthDateHeader); the other views draw them.
  const exceptionsDrawn: ExceptionEvent[] = useMemo(
    () =>
      view === 'month'
        ? []
        : exceptionEvents(exceptions, {
            timeZone,
            t,
            columns: columnsKey === undefined ? undefined : columnsKey.split(',').filter(Boolean),
            byChair: useChairsAsColumns,
            allDay: view === 'list',
          }),
    [exceptions, timeZone, t, columnsKey, useChairsAsColumns, view],
  );
  const events: AgendaEvent[] = view === 'list' ? [...exceptionsDrawn, ...appointments] : appointments;
  const backgroundEvents: AgendaEvent[] = view === 'day' || view === 'week' ? exceptionsDrawn : [];

  const movable = (event: AgendaEvent) => isAppointment(event) && event.appointment.status === 'scheduled';

  const onDrop = ({ event, start, end, resourceId }: EventInteractionArgs<AgendaEvent>) => {
    if (!isAppointment(event) || !movable(event)) return;
    const a = event.appointment;
    const target = resourceId as string | undefined;
    void move(a, {
      patientId: a.patientId,
      professionalId: !useChairsAsColumns && target ? target : a.professionalId,
      chairId: useChairsAsColumns && target ? target : a.chairId,
      treatmentId: a.treatmentId,
      startsAt: instantOfDisplay(new Date(start), timeZone),
      endsAt: instantOfDisplay(new Date(end), timeZone),
      reason: a.reason,
      notes: a.notes,
      allowOutsideSchedule: false,
      version: a.version,
    });
  };

  const onSelectSlot = (slot: SlotInfo) => {
    const start = slot.start as Date;
    let end = slot.end as Date;
    if (view === 'month') end = new Date(start.getFullYear(), start.getMonth(), start.getDate(), 9, 30);
    const startAt = view === 'month' ? new Date(start.getFullYear(), start.getMonth(), start.getDate(), 9, 0) : start;
    const resourceId = slot.resourceId as string | undefined;
    setDraft({
      startsAt: instantOfDisplay(startAt, timeZone),
      endsAt: instantOfDisplay(end, timeZone),
      professionalId: !useChairsAsColumns ? resourceId : undefined,
      chairId: useChairsAsColumns ? resourceId : undefined,
    });
  };

  const closeDraft = () => {
    setDraft(null);
    if (search.get('book')) set({ book: null, patientId: null, professionalId: null }, true);
  };

  const closeAppointment = () => {
    setOpenId(null);
    if (search.get('open')) set({ open: null }, true);
  };

  const context = useMemo(
    () => ({ open: setOpenId, exceptions, timeZone, day: date, byChair: useChairsAsColumns }),
    [exceptions, timeZone, date, useChairsAsColumns],
  );

  return (
    <div className={`agenda agenda-view-${view}`} data-testid="agenda">
      <AgendaToolbar
        view={view}
        date={date}
        today={today}
        title={agendaTitle(view, date, language)}
        set={set}
        onNew={() => setDraft({})}
      />
      <AgendaFilters
        professionals={professionals}
        selected={selected}
        showByChair={chairs.length > 0 && view === 'day'}
        byChair={byChair}
        set={set}
      />
      <AgendaContext.Provider value={context}>
        <CalendarGrid
          view={view}
          date={date}
          language={language}
          timeZone={timeZone}
          events={events}
          backgroundEvents={backgroundEvents}
          resources={resources}
          schedules={schedules}
          chairColumns={useChairsAsColumns}
          busy={calendar.isFetching}
          set={set}
          onSelectSlot={onSelectSlot}
          onOpen={setOpenId}
          onMove={onDrop}
          movable={movable}
        />
      </AgendaContext.Provider>
      {draft ? <BookingDialog draft={draft} onClose={closeDraft} /> : null}
      {openId ? (
        <AppointmentDialog
          id={openId}
          onClose={closeAppointment}
          onEdit={(appointment) => {
            closeAppointment();
            setDraft({ appointment });
          }}
        />
      ) : null}
      {pendingMove ? (
        <OutsideScheduleDialog reasons={pendingMove.reasons} onCancel={cancelPending} onConfirm={confirmPending} />
      ) : null}
    </div>
  );
}
