import { addDays, type CalendarDay } from '@odontia/shared/clinic-time';
import { ChevronLeft, ChevronRight, Plus } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { SwitchField } from '../../components/switch-field';
import { type AgendaView, agendaViews, displayOfDay, stepDay, viewDays } from './display-time';
import { MiniMonth } from './mini-month';
import { statusOrder } from './status';

/** What the agenda's URL state changes (useUrlState's `set`). */
type SetState = (changes: Record<string, string | null>, replace?: boolean) => void;

/** The heading of what the calendar shows: the month, the day, or the week's first and last days. */
export function agendaTitle(view: AgendaView, date: CalendarDay, language: string): string {
  const { first } = viewDays(view, date);
  const longTitle =
    view === 'month'
      ? new Intl.DateTimeFormat(language, { month: 'long', year: 'numeric' }).format(displayOfDay(date))
      : view === 'day'
        ? new Intl.DateTimeFormat(language, { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' }).format(
            displayOfDay(date),
          )
        : `${new Intl.DateTimeFormat(language, { day: 'numeric', month: 'short' }).format(displayOfDay(first))} – ${new Intl.DateTimeFormat(language, { day: 'numeric', month: 'short', year: 'numeric' }).format(displayOfDay(addDays(first, 6)))}`;
  return longTitle.charAt(0).toUpperCase() + longTitle.slice(1);
}

/** Today, previous and next, the title, the day picker, the views and "new appointment". */
export function AgendaToolbar({
  view,
  date,
  today,
  title,
  set,
  onNew,
}: {
  view: AgendaView;
  date: CalendarDay;
  today: CalendarDay;
  title: string;
  set: SetState;
  onNew: () => void;
}) {
  const { t } = useTranslation('agenda');
  return (
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
      <button type="button" className="btn btn-primary ms-auto" data-testid="new-appointment" onClick={onNew}>
        <Plus size={16} aria-hidden="true" /> {t('newAppointment')}
      </button>
    </div>
  );
}

/** The professionals shown, chair columns (day view with chairs) and the colours' legend. */
export function AgendaFilters({
  professionals,
  selected,
  showByChair,
  byChair,
  set,
}: {
  professionals: { id: string; completeName: string }[];
  /** The professionals picked; none is every one. */
  selected: string[];
  showByChair: boolean;
  byChair: boolean;
  set: SetState;
}) {
  const { t } = useTranslation('agenda');
  const toggleProfessional = (id: string) => {
    // An empty selection is every professional: the first click keeps the others.
    const current = selected.length ? selected : professionals.map((p) => p.id);
    const next = current.includes(id) ? current.filter((x) => x !== id) : [...current, id];
    const all = professionals.every((p) => next.includes(p.id));
    set({ professionals: all ? '' : next.join(',') });
  };
  return (
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
      {showByChair ? (
        <SwitchField
          id="agenda-by-chair"
          label={t('byChair')}
          input={{
            role: 'switch',
            'aria-checked': byChair,
            checked: byChair,
            onChange: (event) => set({ byChair: event.target.checked ? '1' : '0' }),
          }}
        />
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
  );
}
