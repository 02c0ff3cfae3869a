import '../auth/zod-setup';
import { addDays, clinicToday } from '@odontia/shared/clinic-time';
import { weekdays } from '@odontia/shared/enums';
import type { CalendarAppointment } from '@odontia/shared/schemas/appointments';
import type { Schedule } from '@odontia/shared/schemas/schedules';
import { format, getDay, parse, startOfWeek } from 'date-fns';
import { enUS, es, fr, ptBR } from 'date-fns/locale';
import { ChevronLeft, ChevronRight, Plus } from 'lucide-react';
import {
  type CSSProperties,
  createContext,
  useCallback,
  useContext,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { Calendar, dateFnsLocalizer, type SlotInfo, type View, Views } from 'react-big-calendar';
import dragAndDrop, { type EventInteractionArgs } from 'react-big-calendar/lib/addons/dragAndDrop';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { toastApiError, toastErrorText, toastSuccess } from '../../lib/api-toast';
import { isApiError } from '../../lib/http';
import { useClinicTimeZone } from '../auth/clinic-time';
import { useProfessionals } from '../medical-history/api';
import { agendaApi, useCalendarAppointments, useChairs, useScheduleExceptions, useSchedules } from './api';
import { AppointmentDialog } from './appointment-dialog';
import { BookingDialog, type BookingDraft } from './booking-dialog';
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
import { displayStatus, overlapText, statusOrder } from './status';

const localizer = dateFnsLocalizer({
  format,
  parse,
  startOfWeek: (date: Date) => startOfWeek(date, { weekStartsOn: 1 }),
  getDay,
  locales: { es, en: enUS, fr, pt: ptBR },
});

export interface CalendarEvent {
  id: string;
  title: string;
  start: Date;
  end: Date;
  resourceId: string;
  appointment: CalendarAppointment;
}
interface BackgroundEvent {
  id: string;
  title: string;
  start: Date;
  end: Date;
  resourceId?: string;
}
interface Resource {
  id: string;
  title: string;
}

/** The addon is CommonJS only (lib/): the bundler may hand its whole `exports` as the default. */
const withDragAndDrop = ((dragAndDrop as unknown as { default?: typeof dragAndDrop }).default ??
  dragAndDrop) as typeof dragAndDrop;
const DnDCalendar = withDragAndDrop<CalendarEvent, Resource>(Calendar);

const rbcView: Record<AgendaView, View> = { day: Views.DAY, week: Views.WEEK, month: Views.MONTH, list: Views.AGENDA };

function useUrlState() {
  const [search, setSearch] = useSearchParams();
  const timeZone = useClinicTimeZone();
  const rawView = search.get('view');
  const view: AgendaView = agendaViews.includes(rawView as AgendaView) ? (rawView as AgendaView) : 'week';
  const rawDate = search.get('date') ?? '';
  const date = /^\d{4}-\d{2}-\d{2}$/.test(rawDate) ? rawDate : clinicToday(timeZone);
  const set = useCallback(
    (changes: Record<string, string | null>, replace = false) =>
      setSearch(
        (current) => {
          const next = new URLSearchParams(current);
          for (const [key, value] of Object.entries(changes)) {
            if (value === null) next.delete(key);
            else next.set(key, value);
          }
          return next;
        },
        { replace },
      ),
    [setSearch],
  );
  return { search, view, date, set };
}

/** The wall-clock ranges of a week for a resource: the professional's, else the clinic's. */
function rangesFor(
  schedules: { clinic: Schedule | null; professionals: Schedule[] } | undefined,
  professionalId?: string,
) {
  const own = professionalId ? schedules?.professionals.find((s) => s.professionalId === professionalId) : undefined;
  if (own?.ranges.length) return own.ranges;
  return schedules?.clinic?.ranges ?? [];
}

export function AgendaCalendar() {
  const { t, i18n } = useTranslation('agenda');
  const calendarRef = useRef<HTMLDivElement>(null);
  // The time grid scrolls: reachable and named for the keyboard even on a day without appointments
  // (axe scrollable-region-focusable; react-big-calendar gives it no tabindex).
  useEffect(() => {
    for (const grid of calendarRef.current?.querySelectorAll<HTMLElement>('.rbc-time-content') ?? []) {
      grid.tabIndex = 0;
      grid.setAttribute('role', 'region');
      grid.setAttribute('aria-label', t('timeGrid'));
    }
  });
  const timeZone = useClinicTimeZone();
  const { search, view, date, set } = useUrlState();
  const [byChair, setByChair] = useState(false);
  const professionalsQuery = useProfessionals();
  const professionals = professionalsQuery.data ?? [];
  const chairs = useChairs().data ?? [];
  const schedules = useSchedules().data;
  const selected = (search.get('professionals') ?? '').split(',').filter(Boolean);
  const range = viewRange(view, date, timeZone);
  const calendar = useCalendarAppointments({
    ...range,
    professionalIds: selected.length ? selected : undefined,
    inactive: 'true',
  });
  const exceptions = useScheduleExceptions(range.from, range.to).data ?? [];
  const [openId, setOpenId] = useState<string | null>(null);
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

  const useChairsAsColumns = byChair && chairs.length > 0;
  const shownProfessionals = professionals.filter((p) => !selected.length || selected.includes(p.id));
  const resources: Resource[] | undefined =
    view === 'day' || view === 'week'
      ? useChairsAsColumns
        ? chairs.map((chair) => ({ id: chair.id, title: chair.name }))
        : shownProfessionals.map((p) => ({ id: p.id, title: p.completeName }))
      : undefined;

  const events: CalendarEvent[] = useMemo(
    () =>
      (calendar.data ?? [])
        .filter((a) => a.status !== 'rescheduled')
        .filter((a) => view === 'list' || a.status !== 'cancelled' || a.cancelReason === 'no_show')
        .map((a) => ({
          id: a.id,
          title: a.patientName,
          start: toDisplay(a.startsAt, timeZone),
          end: toDisplay(a.endsAt, timeZone),
          resourceId: useChairsAsColumns ? (a.chairId ?? '') : a.professionalId,
          appointment: a,
        })),
    [calendar.data, timeZone, useChairsAsColumns, view],
  );

  const backgroundEvents: BackgroundEvent[] = useMemo(() => {
    const list: BackgroundEvent[] = [];
    for (const exception of exceptions) {
      const base = {
        title: exception.reason ?? t(`exceptionKinds.${exception.kind}`),
        start: toDisplay(exception.startsAt, timeZone),
        end: toDisplay(exception.endsAt, timeZone),
      };
      const targets =
        resources && !useChairsAsColumns
          ? exception.professionalId
            ? [exception.professionalId]
            : resources.map((r) => r.id)
          : resources
            ? resources.map((r) => r.id)
            : [undefined];
      for (const resourceId of targets) list.push({ id: `${exception.id}:${resourceId}`, ...base, resourceId });
    }
    return list;
  }, [exceptions, resources, t, timeZone, useChairsAsColumns]);

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

  const eventPropGetter = useCallback((event: CalendarEvent) => {
    const status = displayStatus(event.appointment);
    const style: CSSProperties = {};
    if (event.appointment.treatmentColor) style.borderLeftColor = event.appointment.treatmentColor;
    return { className: `agenda-event agenda-status-${status}`, style };
  }, []);

  type MoveBody = Parameters<typeof agendaApi.update>[1];
  const move = async (appointment: CalendarAppointment, body: MoveBody) => {
    try {
      const answer = await agendaApi.update(appointment.id, body);
      toastSuccess(answer.code ?? 'appointment_updated');
    } catch (error) {
      if (isApiError(error) && error.code === 'appointment_outside_schedule') {
        const reasons = ((error.details?.reasons as string[] | undefined) ?? []).slice();
        setPendingMove({ appointment, body, reasons });
      } else if (isApiError(error) && error.code === 'appointment_overlaps') {
        toastErrorText(overlapText(t, error.details, timeZone, language));
      } else toastApiError(error);
    } finally {
      await calendar.refetch();
    }
  };

  const onDrop = ({ event, start, end, resourceId }: EventInteractionArgs<CalendarEvent>) => {
    const a = event.appointment;
    if (a.status !== 'scheduled') return;
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
    const next = selected.includes(id) ? selected.filter((x) => x !== id) : [...selected, id];
    set({ professionals: next.length ? next.join(',') : null });
  };

  // The month grid's ARIA roles are the library's and incomplete (a row holding "+N más" buttons, no
  // cells): without them the month is plain boxes of buttons and links, which is what it is.
  useLayoutEffect(() => {
    for (const element of document.querySelectorAll('.agenda .rbc-month-view, .agenda .rbc-month-view [role]')) {
      element.removeAttribute('role');
      element.removeAttribute('aria-sort');
    }
  });

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
                onChange={
                  () =>
                    toggleProfessional(
                      p.id,
                    ) /* an empty selection is every professional: the first click keeps the others */
                }
                data-testid="professional-filter"
              />
              <span className="form-check-label">{p.completeName}</span>
            </label>
          ))}
        </fieldset>
        {chairs.length ? (
          <div className="form-check form-switch">
            <input
              id="agenda-by-chair"
              type="checkbox"
              role="switch"
              aria-checked={byChair}
              className="form-check-input"
              checked={byChair}
              onChange={(event) => setByChair(event.target.checked)}
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
        </ul>
      </div>
      <OpenAppointment.Provider value={setOpenId}>
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
            backgroundEvents={backgroundEvents as unknown as CalendarEvent[]}
            resources={resources}
            resourceIdAccessor="id"
            resourceTitleAccessor="title"
            view={rbcView[view]}
            views={[Views.DAY, Views.WEEK, Views.MONTH, Views.AGENDA]}
            onView={(next) =>
              set({ view: (Object.keys(rbcView) as AgendaView[]).find((k) => rbcView[k] === next) ?? 'week' })
            }
            date={displayOfDay(date)}
            onNavigate={(next) => set({ date: dayOfDisplay(next) })}
            onDrillDown={(next) => set({ date: dayOfDisplay(next), view: 'day' })}
            length={7}
            toolbar={false}
            step={15}
            timeslots={4}
            min={new Date(1970, 0, 1, 7, 0)}
            max={new Date(1970, 0, 1, 21, 0)}
            scrollToTime={new Date(1970, 0, 1, 8, 0)}
            getNow={() => toDisplay(new Date(), timeZone)}
            selectable
            resizable
            popup
            onSelectSlot={onSelectSlot}
            onSelectEvent={(event) => setOpenId(event.id)}
            onKeyPressEvent={(event, e) => {
              if ((e as unknown as KeyboardEvent).key === 'Enter') setOpenId(event.id);
            }}
            draggableAccessor={(event) => event.appointment.status === 'scheduled'}
            resizableAccessor={(event) => event.appointment.status === 'scheduled'}
            onEventDrop={onDrop}
            onEventResize={onDrop}
            eventPropGetter={eventPropGetter}
            tooltipAccessor={(event) =>
              `${event.appointment.patientName} · ${t(`displayStatus.${displayStatus(event.appointment)}`)}`
            }
            slotPropGetter={slotPropGetter}
            components={{
              event: EventBody,
              week: { header: DayHeader },
              day: { header: DayHeader },
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
            formats={{ timeGutterFormat: 'HH:mm', eventTimeRangeFormat: () => '' }}
          />
        </div>
      </OpenAppointment.Provider>
      {draft ? <BookingDialog draft={draft} onClose={closeDraft} /> : null}
      {openId ? (
        <AppointmentDialog
          id={openId}
          onClose={() => setOpenId(null)}
          onEdit={(appointment) => {
            setOpenId(null);
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

/** A day's header without the library's stray role="columnheader" (no grid around it). */
function DayHeader({ label }: { label: string }) {
  return <span>{label}</span>;
}

function EventBody({ event }: { event: CalendarEvent }) {
  const { t } = useTranslation('agenda');
  const timeZone = useClinicTimeZone();
  const a = event.appointment;
  const time = (iso: string) => toDisplay(iso, timeZone).toTimeString().slice(0, 5);
  return (
    <span
      className="agenda-event-body"
      data-testid="agenda-event"
      data-appointment-id={a.id}
      data-status={displayStatus(a)}
      title={`${time(a.startsAt)}–${time(a.endsAt)} ${a.patientName} · ${t(`displayStatus.${displayStatus(a)}`)}`}
    >
      <span className="agenda-event-time">
        {time(a.startsAt)}–{time(a.endsAt)}
      </span>{' '}
      <strong className="agenda-event-patient">{a.patientName}</strong>
      {a.treatmentName ? <span className="agenda-event-treatment"> · {a.treatmentName}</span> : null}
      <span className="visually-hidden"> · {t(`displayStatus.${displayStatus(a)}`)}</span>
    </span>
  );
}

/** Opens an appointment's details (the list view's rows are buttons). */
const OpenAppointment = createContext<(id: string) => void>(() => undefined);

function ListEvent({ event }: { event: CalendarEvent }) {
  const { t } = useTranslation('agenda');
  const open = useContext(OpenAppointment);
  const a = event.appointment;
  const status = displayStatus(a);
  return (
    <span className={`agenda-list-event agenda-status-${status}`} data-testid="agenda-list-event">
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
