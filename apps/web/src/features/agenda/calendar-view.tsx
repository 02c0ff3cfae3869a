import '../../lib/zod-setup';
import { addDays, clinicToday } from '@odontia/shared/clinic-time';
import { weekdays } from '@odontia/shared/enums';
import type { CalendarAppointment } from '@odontia/shared/schemas/appointments';
import { format, getDay, parse, startOfWeek } from 'date-fns';
import { enUS, es, fr, ptBR } from 'date-fns/locale';
import { ChevronLeft, ChevronRight, Plus } from 'lucide-react';
import { type CSSProperties, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { Calendar, dateFnsLocalizer, type SlotInfo, type View, Views } from 'react-big-calendar';
import dragAndDrop, { type EventInteractionArgs } from 'react-big-calendar/lib/addons/dragAndDrop';
import { useTranslation } from 'react-i18next';
import { toastApiError, toastErrorText, toastSuccess } from '../../lib/api-toast';
import { isApiError } from '../../lib/http';
import { useClinicTimeZone } from '../../session/clinic-time';
import { appointmentsApi, useCalendarAppointments } from '../appointments/api';
import { useProfessionals } from '../medical-history/api';
import {
  type AgendaEvent,
  type AppointmentEvent,
  appointmentEvents,
  type ExceptionEvent,
  eventClassName,
  eventTooltip,
  exceptionEvents,
  isAppointment,
} from './agenda-events';
import { useChairs, useScheduleExceptions, useSchedules } from './api';
import { AppointmentDialog } from './appointment-dialog';
import { BookingDialog, type BookingDraft } from './booking-dialog';
import {
  AgendaContext,
  DayHeader,
  EventBody,
  firstHour,
  ListEvent,
  MonthDateHeader,
  ResourceHeader,
  WeekDayHeader,
} from './calendar-parts';
import { rangesFor, useUrlState } from './calendar-url-state';
import {
  type AgendaView,
  agendaViews,
  dayOfDisplay,
  displayOfDay,
  instantOfDisplay,
  minutesOf,
  stepDay,
  toDisplay,
  viewDays,
  viewRange,
} from './display-time';
import { MiniMonth } from './mini-month';
import { OutsideScheduleDialog } from './outside-schedule';
import { overlapText, statusOrder } from './status';

const localizer = dateFnsLocalizer({
  format,
  parse,
  startOfWeek: (date: Date) => startOfWeek(date, { weekStartsOn: 1 }),
  getDay,
  locales: { es, en: enUS, fr, pt: ptBR },
});

interface Resource {
  id: string;
  title: string;
}

/** The addon is CommonJS only (lib/): the bundler may hand its whole `exports` as the default. */
const withDragAndDrop = ((dragAndDrop as unknown as { default?: typeof dragAndDrop }).default ??
  dragAndDrop) as typeof dragAndDrop;
const DnDCalendar = withDragAndDrop<AgendaEvent, Resource>(Calendar);

const rbcView: Record<AgendaView, View> = { day: Views.DAY, week: Views.WEEK, month: Views.MONTH, list: Views.AGENDA };

export function AgendaCalendar() {
  const { t, i18n } = useTranslation('agenda');
  const calendarRef = useRef<HTMLDivElement>(null);
  // The time grid scrolls: reachable and named for the keyboard even on a day without appointments
  // (axe scrollable-region-focusable; react-big-calendar gives it no tabindex). An exception drawn
  // behind the appointments is text, not a button: the library makes every event one.
  useEffect(() => {
    for (const grid of calendarRef.current?.querySelectorAll<HTMLElement>('.rbc-time-content') ?? []) {
      grid.tabIndex = 0;
      grid.setAttribute('role', 'region');
      grid.setAttribute('aria-label', t('timeGrid'));
    }
    for (const background of calendarRef.current?.querySelectorAll<HTMLElement>('.rbc-background-event') ?? []) {
      background.removeAttribute('role');
      background.removeAttribute('tabindex');
    }
  });
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
  const [pendingMove, setPendingMove] = useState<{
    appointment: CalendarAppointment;
    body: MoveBody;
    reasons: string[];
  } | null>(null);
  const today = clinicToday(timeZone);
  const language = (i18n.resolvedLanguage ?? 'es').slice(0, 2);

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

  const slotPropGetter = useCallback(
    (slot: Date, resourceId?: string | number) => {
      const ranges = rangesFor(schedules, useChairsAsColumns ? undefined : (resourceId as string | undefined));
      if (!ranges.length) return {};
      const weekday = weekdays[slot.getDay()];
      const minutes = slot.getHours() * 60 + slot.getMinutes();
      const open = ranges.some(
        (r) =>
          r.weekday === weekday &&
          minutes >= minutesOf(r.opening) &&
          minutes < minutesOf(r.closing) &&
          !(r.recessStart && r.recessEnd && minutes >= minutesOf(r.recessStart) && minutes < minutesOf(r.recessEnd)),
      );
      return open ? { className: 'agenda-open' } : { className: 'agenda-closed' };
    },
    [schedules, useChairsAsColumns],
  );

  const eventPropGetter = useCallback((event: AgendaEvent) => {
    const style: CSSProperties = {};
    if (isAppointment(event) && event.appointment.treatmentColor)
      style.borderLeftColor = event.appointment.treatmentColor;
    return { className: eventClassName(event), style };
  }, []);

  // Dates as the language writes them ("mar, 23 dic", not "Tue Dec 23"), times on 24 hours.
  const formats = useMemo(() => {
    const time = new Intl.DateTimeFormat(language, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    const listDate = new Intl.DateTimeFormat(language, { weekday: 'short', day: 'numeric', month: 'short' });
    const weekDay = new Intl.DateTimeFormat(language, { weekday: 'short', day: 'numeric' });
    return {
      timeGutterFormat: (value: Date) => time.format(value),
      eventTimeRangeFormat: () => '',
      agendaDateFormat: (value: Date) => listDate.format(value),
      agendaTimeFormat: (value: Date) => time.format(value),
      agendaTimeRangeFormat: ({ start, end }: { start: Date; end: Date }) =>
        `${time.format(start)}–${time.format(end)}`,
      dayFormat: (value: Date) => weekDay.format(value),
    };
  }, [language]);

  type MoveBody = Parameters<typeof appointmentsApi.update>[1];
  const move = async (appointment: CalendarAppointment, body: MoveBody) => {
    try {
      const answer = await appointmentsApi.update(appointment.id, body);
      toastSuccess(answer.code ?? 'appointment_updated');
    } catch (error) {
      if (isApiError(error) && error.code === 'appointment_outside_schedule') {
        const reasons = ((error.details?.reasons as string[] | undefined) ?? []).slice();
        setPendingMove({ appointment, body, reasons });
      } else if (isApiError(error) && error.code === 'appointment_overlaps') {
        toastErrorText(overlapText(t, error.details, timeZone, language));
      } else toastApiError(error);
    }
  };

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

  const { first } = viewDays(view, date);
  const longTitle =
    view === 'month'
      ? new Intl.DateTimeFormat(language, { month: 'long', year: 'numeric' }).format(displayOfDay(date))
      : view === 'day'
        ? new Intl.DateTimeFormat(language, { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' }).format(
            displayOfDay(date),
          )
        : `${new Intl.DateTimeFormat(language, { day: 'numeric', month: 'short' }).format(displayOfDay(first))} – ${new Intl.DateTimeFormat(language, { day: 'numeric', month: 'short', year: 'numeric' }).format(displayOfDay(addDays(first, 6)))}`;

  const title = longTitle.charAt(0).toUpperCase() + longTitle.slice(1);

  const toggleProfessional = (id: string) => {
    // An empty selection is every professional: the first click keeps the others.
    const current = selected.length ? selected : professionals.map((p) => p.id);
    const next = current.includes(id) ? current.filter((x) => x !== id) : [...current, id];
    const all = professionals.every((p) => next.includes(p.id));
    set({ professionals: all ? '' : next.join(',') });
  };

  // The month grid's ARIA roles are the library's and incomplete (a row holding "+N más" buttons, no
  // cells): without them the month is plain boxes of buttons and links, which is what it is.
  useLayoutEffect(() => {
    for (const element of document.querySelectorAll('.agenda .rbc-month-view, .agenda .rbc-month-view [role]')) {
      element.removeAttribute('role');
      element.removeAttribute('aria-sort');
    }
  });

  const context = useMemo(
    () => ({ open: setOpenId, exceptions, timeZone, day: date, byChair: useChairsAsColumns }),
    [exceptions, timeZone, date, useChairsAsColumns],
  );

  return (
    <div className={`agenda agenda-view-${view}`} data-testid="agenda">
      <div className="agenda-toolbar" role="toolbar" aria-label={t('toolbar')}>
        <fieldset className="btn-group" aria-label={t('navigation')}>
          <button type="button" className="btn btn-outline-secondary" onClick={() => set({ date: today })}>
            {t('today')}
          </button>
          <button
            type="button"
            className="btn btn-outline-secondary"
            aria-label={t('previous')}
            onClick={() => set({ date: stepDay(view, date, -1) })}
          >
            <ChevronLeft size={16} aria-hidden="true" />
          </button>
          <button
            type="button"
            className="btn btn-outline-secondary"
            aria-label={t('next')}
            onClick={() => set({ date: stepDay(view, date, 1) })}
          >
            <ChevronRight size={16} aria-hidden="true" />
          </button>
        </fieldset>
        <h2 className="agenda-title h5 mb-0" data-testid="agenda-title">
          {title}
        </h2>
        <label className="agenda-jump">
          <span className="visually-hidden">{t('jumpTo')}</span>
          <input
            type="date"
            className="form-control form-control-sm"
            value={date}
            data-testid="agenda-date"
            onChange={(event) => event.target.value && set({ date: event.target.value })}
          />
        </label>
        <MiniMonth value={date} today={today} onPick={(day) => set({ date: day })} />
        <fieldset className="btn-group" aria-label={t('views')}>
          {agendaViews.map((name) => (
            <button
              key={name}
              type="button"
              className={`btn ${view === name ? 'btn-primary' : 'btn-outline-secondary'}`}
              aria-pressed={view === name}
              data-testid={`view-${name}`}
              onClick={() => set({ view: name })}
            >
              {t(`view.${name}`)}
            </button>
          ))}
        </fieldset>
        <button
          type="button"
          className="btn btn-primary ms-auto"
          data-testid="new-appointment"
          onClick={() => setDraft({})}
        >
          <Plus size={16} aria-hidden="true" /> {t('newAppointment')}
        </button>
      </div>
      <div className="agenda-filters">
        <fieldset className="agenda-professionals">
          <legend className="agenda-filter-label">{t('professionals')}</legend>
          {professionals.map((p) => (
            <label key={p.id} className="form-check form-check-inline">
              <input
                type="checkbox"
                className="form-check-input"
                checked={!selected.length || selected.includes(p.id)}
                onChange={() => toggleProfessional(p.id)}
                data-testid="professional-filter"
              />
              <span className="form-check-label">{p.completeName}</span>
            </label>
          ))}
        </fieldset>
        {chairs.length && view === 'day' ? (
          <div className="form-check form-switch">
            <input
              id="agenda-by-chair"
              type="checkbox"
              role="switch"
              aria-checked={byChair}
              className="form-check-input"
              checked={byChair}
              onChange={(event) => set({ byChair: event.target.checked ? '1' : '0' })}
            />
            <label htmlFor="agenda-by-chair" className="form-check-label">
              {t('byChair')}
            </label>
          </div>
        ) : null}
        <ul className="agenda-legend" aria-label={t('legend')}>
          {statusOrder.map((status) => (
            <li key={status} className={`agenda-legend-item agenda-status-${status}`}>
              <span className="agenda-swatch" aria-hidden="true" />
              {t(`displayStatus.${status}`)}
            </li>
          ))}
          <li className="agenda-legend-item">
            <span className="agenda-swatch agenda-swatch-exception" aria-hidden="true" />
            {t('exceptionsLegend')}
          </li>
        </ul>
      </div>
      <AgendaContext.Provider value={context}>
        <div
          className="agenda-calendar"
          data-testid="agenda-calendar"
          aria-busy={calendar.isFetching}
          ref={calendarRef}
        >
          <DnDCalendar
            localizer={localizer}
            culture={language}
            events={events}
            backgroundEvents={backgroundEvents}
            resources={resources}
            resourceIdAccessor="id"
            resourceTitleAccessor="title"
            view={rbcView[view]}
            views={[Views.DAY, Views.WEEK, Views.MONTH, Views.AGENDA]}
            onView={(next) =>
              set({ view: (Object.keys(rbcView) as AgendaView[]).find((k) => rbcView[k] === next) ?? 'day' })
            }
            date={displayOfDay(date)}
            onNavigate={(next) => set({ date: dayOfDisplay(next) })}
            onDrillDown={(next) => set({ date: dayOfDisplay(next), view: 'day' })}
            length={7}
            toolbar={false}
            step={15}
            timeslots={4}
            min={new Date(1970, 0, 1, firstHour, 0)}
            max={new Date(1970, 0, 1, 21, 0)}
            scrollToTime={new Date(1970, 0, 1, 8, 0)}
            getNow={() => toDisplay(new Date(), timeZone)}
            selectable
            resizable
            popup
            onSelectSlot={onSelectSlot}
            onSelectEvent={(event) => {
              if (isAppointment(event)) setOpenId(event.appointment.id);
            }}
            onKeyPressEvent={(event, e) => {
              if ((e as unknown as KeyboardEvent).key === 'Enter' && isAppointment(event))
                setOpenId(event.appointment.id);
            }}
            draggableAccessor={movable}
            resizableAccessor={movable}
            onEventDrop={onDrop}
            onEventResize={onDrop}
            eventPropGetter={eventPropGetter}
            tooltipAccessor={(event) => eventTooltip(event, t)}
            slotPropGetter={slotPropGetter}
            components={{
              event: EventBody,
              week: { header: WeekDayHeader },
              day: { header: DayHeader },
              resourceHeader: ResourceHeader,
              month: { dateHeader: MonthDateHeader },
              agenda: { event: ListEvent },
            }}
            messages={{
              date: t('list.date'),
              time: t('list.time'),
              event: t('list.appointment'),
              allDay: t('allDay'),
              noEventsInRange: t('list.empty'),
              showMore: (count: number) => t('showMore', { count }),
            }}
            formats={formats}
          />
        </div>
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
        <OutsideScheduleDialog
          reasons={pendingMove.reasons}
          onCancel={() => setPendingMove(null)}
          onConfirm={() => {
            const { appointment, body } = pendingMove;
            setPendingMove(null);
            void move(appointment, { ...body, allowOutsideSchedule: true });
          }}
        />
      ) : null}
    </div>
  );
}
