import { addDays, type CalendarDay } from '@odontia/shared/clinic-time';
import { CalendarDays, ChevronLeft, ChevronRight } from 'lucide-react';
import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The mini-month that jumps the calendar to a day (issue 16): a button opens a month grid, the
 * days of the clinic's calendar (plain 'YYYY-MM-DD', no zone involved). Keyboard: Tab reaches the
 * chosen day, arrows move by a day or a week (across months), Page Up/Down by a month, Enter picks,
 * Escape closes and gives the focus back to the button.
 */

const monthOf = (day: CalendarDay) => day.slice(0, 7);
const firstOfMonth = (day: CalendarDay) => `${monthOf(day)}-01`;
const weekdayOf = (day: CalendarDay) => new Date(`${day}T12:00:00Z`).getUTCDay();

function shiftMonth(day: CalendarDay, months: number): CalendarDay {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  const target = new Date(Date.UTC(year, month - 1 + months, 1));
  const last = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(date, last));
  return target.toISOString().slice(0, 10);
}

/** Six weeks from the week of the month's first day; the week starts on Monday (Sunday in English). */
function gridOf(month: CalendarDay, weekStartsOn: 0 | 1): CalendarDay[] {
  const first = firstOfMonth(month);
  const start = addDays(first, -((weekdayOf(first) - weekStartsOn + 7) % 7));
  return Array.from({ length: 42 }, (_, index) => addDays(start, index));
}

export function MiniMonth({
  value,
  today,
  onPick,
}: {
  value: CalendarDay;
  today: CalendarDay;
  onPick: (day: CalendarDay) => void;
}) {
  const { t, i18n } = useTranslation('agenda');
  const language = i18n.resolvedLanguage ?? 'es';
  const weekStartsOn = language === 'en' ? 0 : 1;
  const [open, setOpen] = useState(false);
  const [focused, setFocused] = useState(value);
  const id = useId();
  const toggle = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (open) setFocused(value);
  }, [open, value]);

  useEffect(() => {
    if (!open) return;
    panel.current?.querySelector<HTMLButtonElement>(`[data-day="${focused}"]`)?.focus();
  }, [open, focused]);

  useEffect(() => {
    if (!open) return;
    const closeOutside = (event: MouseEvent) => {
      const target = event.target as Node;
      if (!panel.current?.contains(target) && !toggle.current?.contains(target)) setOpen(false);
    };
    document.addEventListener('mousedown', closeOutside);
    return () => document.removeEventListener('mousedown', closeOutside);
  }, [open]);

  const close = () => {
    setOpen(false);
    toggle.current?.focus();
  };
  const pick = (day: CalendarDay) => {
    onPick(day);
    close();
  };
  const onKeyDown = (event: KeyboardEvent) => {
    const moves: Record<string, () => CalendarDay> = {
      ArrowLeft: () => addDays(focused, -1),
      ArrowRight: () => addDays(focused, 1),
      ArrowUp: () => addDays(focused, -7),
      ArrowDown: () => addDays(focused, 7),
      PageUp: () => shiftMonth(focused, -1),
      PageDown: () => shiftMonth(focused, 1),
    };
    const move = moves[event.key];
    if (move) {
      event.preventDefault();
      setFocused(move());
    } else if (event.key === 'Escape') {
      event.preventDefault();
      close();
    }
  };

  const monthName = new Intl.DateTimeFormat(language, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(`${firstOfMonth(focused)}T12:00:00Z`),
  );
  // "noviembre de 2026" → "Noviembre de 2026" (CSS capitalize would write "De" too).
  const monthTitle = monthName.charAt(0).toLocaleUpperCase(language) + monthName.slice(1);
  const dayName = new Intl.DateTimeFormat(language, { weekday: 'short', timeZone: 'UTC' });
  const fullDay = new Intl.DateTimeFormat(language, { dateStyle: 'full', timeZone: 'UTC' });
  const days = gridOf(focused, weekStartsOn);

  return (
    <div className="agenda-mini-month">
      <button
        ref={toggle}
        type="button"
        className="btn btn-sm btn-outline-secondary"
        aria-expanded={open}
        aria-controls={id}
        aria-label={t('miniMonth.open')}
        title={t('miniMonth.open')}
        data-testid="agenda-mini-month"
        onClick={() => setOpen((current) => !current)}
      >
        <CalendarDays size={16} aria-hidden="true" />
      </button>
      {open && (
        <div
          ref={panel}
          id={id}
          role="dialog"
          aria-label={t('miniMonth.open')}
          className="agenda-mini-month-panel shadow"
          onKeyDown={onKeyDown}
        >
          <div className="d-flex align-items-center justify-content-between mb-1">
            <button
              type="button"
              className="btn btn-sm btn-link"
              aria-label={t('miniMonth.previous')}
              onClick={() => setFocused(shiftMonth(focused, -1))}
            >
              <ChevronLeft size={16} aria-hidden="true" />
            </button>
            <span className="fw-semibold" aria-live="polite">
              {monthTitle}
            </span>
            <button
              type="button"
              className="btn btn-sm btn-link"
              aria-label={t('miniMonth.next')}
              onClick={() => setFocused(shiftMonth(focused, 1))}
            >
              <ChevronRight size={16} aria-hidden="true" />
            </button>
          </div>
          <table className="agenda-mini-month-grid" aria-label={monthTitle}>
            <thead>
              <tr>
                {days.slice(0, 7).map((day) => (
                  <th key={day} scope="col" className="text-capitalize">
                    {dayName.format(new Date(`${day}T12:00:00Z`)).slice(0, 2)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {Array.from({ length: 6 }, (_, week) => (
                <tr key={days[week * 7]}>
                  {days.slice(week * 7, week * 7 + 7).map((day) => (
                    <td key={day}>
                      <button
                        type="button"
                        data-day={day}
                        tabIndex={day === focused ? 0 : -1}
                        aria-label={fullDay.format(new Date(`${day}T12:00:00Z`))}
                        aria-current={day === today ? 'date' : undefined}
                        aria-pressed={day === value}
                        className={[
                          'agenda-mini-day',
                          monthOf(day) === monthOf(focused) ? '' : 'is-outside',
                          day === today ? 'is-today' : '',
                          day === value ? 'is-selected' : '',
                        ]
                          .filter(Boolean)
                          .join(' ')}
                        onClick={() => pick(day)}
                      >
                        {Number(day.slice(8))}
                      </button>
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
          <button type="button" className="btn btn-sm btn-link w-100 mt-1" onClick={() => pick(today)}>
            {t('today')}
          </button>
        </div>
      )}
    </div>
  );
}
