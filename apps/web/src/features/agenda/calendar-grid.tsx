import type { CalendarDay } from '@odontia/shared/clinic-time';
import { weekdays } from '@odontia/shared/enums';
import { format, getDay, parse, startOfWeek } from 'date-fns';
import { enUS, es, fr, ptBR } from 'date-fns/locale';
import { type CSSProperties, type RefObject, useCallback, useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import { Calendar, dateFnsLocalizer, type SlotInfo, type View, Views } from 'react-big-calendar';
import dragAndDrop, { type EventInteractionArgs } from 'react-big-calendar/lib/addons/dragAndDrop';
import { useTranslation } from 'react-i18next';
import { type AgendaEvent, eventClassName, eventTooltip, isAppointment } from './agenda-events';
import type { useSchedules } from './api';
import {
  DayHeader,
  EventBody,
  firstHour,
  ListEvent,
  MonthDateHeader,
  ResourceHeader,
  WeekDayHeader,
} from './calendar-parts';
import { rangesFor } from './calendar-url-state';
import { type AgendaView, dayOfDisplay, displayOfDay, minutesOf, toDisplay } from './display-time';

const localizer = dateFnsLocalizer({
  format,
  parse,
  startOfWeek: (date: Date) => startOfWeek(date, { weekStartsOn: 1 }),
  getDay,
  locales: { es, en: enUS, fr, pt: ptBR },
});

/** A column of the day view: a professional, or a chair. */
export interface Resource {
  id: string;
  title: string;
}

/** The addon is CommonJS only (lib/): the bundler may hand its whole `exports` as the default. */
const withDragAndDrop = ((dragAndDrop as unknown as { default?: typeof dragAndDrop }).default ??
  dragAndDrop) as typeof dragAndDrop;
const DnDCalendar = withDragAndDrop<AgendaEvent, Resource>(Calendar);

const rbcView: Record<AgendaView, View> = { day: Views.DAY, week: Views.WEEK, month: Views.MONTH, list: Views.AGENDA };

/** Dates as the language writes them ("mar, 23 dic", not "Tue Dec 23"), times on 24 hours. */
function useCalendarFormats(language: string) {
  return useMemo(() => {
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
}

/** Open and closed slots of a column: its professional's hours, else the clinic's (chairs: the clinic's). */
function useSlotPropGetter(schedules: ReturnType<typeof useSchedules>['data'], chairColumns: boolean) {
  return useCallback(
    (slot: Date, resourceId?: string | number) => {
      const ranges = rangesFor(schedules, chairColumns ? undefined : (resourceId as string | undefined));
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
    [schedules, chairColumns],
  );
}

const eventPropGetter = (event: AgendaEvent) => {
  const style: CSSProperties = {};
  if (isAppointment(event) && event.appointment.treatmentColor)
    style.borderLeftColor = event.appointment.treatmentColor;
  return { className: eventClassName(event), style };
};

/**
 * The accessibility the library leaves out. The time grid scrolls: reachable and named for the
 * keyboard even on a day without appointments (axe scrollable-region-focusable; react-big-calendar
 * gives it no tabindex). An exception drawn behind the appointments is text, not a button: the
 * library makes every event one. The month grid's ARIA roles are the library's and incomplete (a
 * row holding "+N más" buttons, no cells): without them the month is plain boxes of buttons and
 * links, which is what it is.
 */
function useCalendarAccessibility(calendar: RefObject<HTMLDivElement | null>, label: string) {
  useEffect(() => {
    for (const grid of calendar.current?.querySelectorAll<HTMLElement>('.rbc-time-content') ?? []) {
      grid.tabIndex = 0;
      grid.setAttribute('role', 'region');
      grid.setAttribute('aria-label', label);
    }
    for (const background of calendar.current?.querySelectorAll<HTMLElement>('.rbc-background-event') ?? []) {
      background.removeAttribute('role');
      background.removeAttribute('tabindex');
    }
  });
  useLayoutEffect(() => {
    for (const element of document.querySelectorAll('.agenda .rbc-month-view, .agenda .rbc-month-view [role]')) {
      element.removeAttribute('role');
      element.removeAttribute('aria-sort');
    }
  });
}

/** The calendar itself (react-big-calendar with drag and drop) in the agenda's views and formats. */
export function CalendarGrid({
  view,
  date,
  language,
  timeZone,
  events,
  backgroundEvents,
  resources,
  schedules,
  chairColumns,
  busy,
  set,
  onSelectSlot,
  onOpen,
  onMove,
  movable,
}: {
  view: AgendaView;
  date: CalendarDay;
  language: string;
  timeZone: string;
  events: AgendaEvent[];
  backgroundEvents: AgendaEvent[];
  resources: Resource[] | undefined;
  schedules: ReturnType<typeof useSchedules>['data'];
  /** The day view's columns are chairs (else professionals). */
  chairColumns: boolean;
  busy: boolean;
  set: (changes: Record<string, string | null>) => void;
  onSelectSlot: (slot: SlotInfo) => void;
  onOpen: (appointmentId: string) => void;
  onMove: (interaction: EventInteractionArgs<AgendaEvent>) => void;
  movable: (event: AgendaEvent) => boolean;
}) {
  const { t } = useTranslation('agenda');
  const calendarRef = useRef<HTMLDivElement>(null);
  useCalendarAccessibility(calendarRef, t('timeGrid'));
  const slotPropGetter = useSlotPropGetter(schedules, chairColumns);
  const formats = useCalendarFormats(language);
  return (
    <div className="agenda-calendar" data-testid="agenda-calendar" aria-busy={busy} ref={calendarRef}>
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
          if (isAppointment(event)) onOpen(event.appointment.id);
        }}
        onKeyPressEvent={(event, e) => {
          if ((e as unknown as KeyboardEvent).key === 'Enter' && isAppointment(event)) onOpen(event.appointment.id);
        }}
        draggableAccessor={movable}
        resizableAccessor={movable}
        onEventDrop={onMove}
        onEventResize={onMove}
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
  );
}
