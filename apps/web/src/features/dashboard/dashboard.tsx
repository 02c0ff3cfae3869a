import { clinicDayRange, clinicWallTime } from '@odontia/shared/clinic-time';
import { can } from '@odontia/shared/permissions';
import type { CalendarAppointment } from '@odontia/shared/schemas/appointments';
import type { Dashboard as DashboardFigures } from '@odontia/shared/schemas/dashboard';
import { CalendarClock, CalendarPlus, Check, DoorOpen, PackageSearch, Stethoscope, Users } from 'lucide-react';
import type { CSSProperties, ReactNode } from 'react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { IconLink } from '../../components/icon-link';
import { Spinner } from '../../components/spinner';
import { toastApiError, toastSuccess } from '../../lib/api-toast';
import { useCalendarDateFormat, useClinicTimeZone, useClinicToday, useInstantFormat } from '../../session/clinic-time';
import { useSessionUser } from '../../session/session';
import { calendarPath, startAttendancePath, useCalendarAppointments, useFreeSlots } from '../appointments/api';
import { AppointmentBadges } from '../appointments/appointment-badges';
import { DateRangeFilter } from '../commercial/date-range-filter';
import { historyPath, recordPaths } from '../medical-history/api';
import { useAppointmentAction, useDashboardFigures, useRecentAttendances, useReorderTop } from './api';
import { PeriodFigures } from './figures';

/**
 * A card of the dashboard with its loading, error and empty states. It keeps the space of its
 * longest list (`rows` rows of one or two lines) from the first paint, so nothing below it moves
 * when its data arrives (issue 34: layout shift ≤ 0.05); its footer's line is kept as well.
 */
function Widget({
  id,
  title,
  icon,
  query,
  empty,
  footer,
  rows,
  children,
  className = '',
}: {
  id: string;
  title: string;
  icon: ReactNode;
  query: { isPending: boolean; isError: boolean; refetch: () => unknown };
  empty: string | null;
  footer?: ReactNode;
  /** The most rows the list shows, and their lines: the body's height from the first paint. */
  rows?: { count: number; lines: 1 | 2 };
  children: ReactNode;
  className?: string;
}) {
  const { t } = useTranslation('dashboard');
  const reserve = rows
    ? {
        className: `card-body dashboard-rows dashboard-rows-${rows.lines}`,
        style: { '--rows': rows.count } as CSSProperties,
      }
    : { className: 'card-body' };
  return (
    <section className={`card dashboard-card ${className}`} aria-labelledby={`${id}-title`} data-testid={id}>
      <div className="card-header d-flex align-items-center gap-2">
        {icon}
        <h2 id={`${id}-title`} className="h6 mb-0">
          {title}
        </h2>
      </div>
      <div {...reserve}>
        {query.isPending ? (
          <div className="d-flex justify-content-center py-3">
            <Spinner size={6} />
          </div>
        ) : query.isError ? (
          <div className="text-danger-emphasis small" role="alert">
            {t('loadError')}{' '}
            <button type="button" className="btn btn-link btn-sm p-0 align-baseline" onClick={() => query.refetch()}>
              {t('retry')}
            </button>
          </div>
        ) : empty ? (
          <p className="text-body-secondary small mb-0" data-testid={`${id}-empty`}>
            {empty}
          </p>
        ) : (
          children
        )}
      </div>
      {footer && query.isPending ? (
        <div className="card-footer small" aria-hidden="true">
          &nbsp;
        </div>
      ) : null}
      {footer && !query.isPending && !query.isError ? <div className="card-footer small">{footer}</div> : null}
    </section>
  );
}

function AppointmentRow({ appointment }: { appointment: CalendarAppointment }) {
  const { t } = useTranslation('dashboard');
  const user = useSessionUser();
  const time = useInstantFormat('time');
  const action = useAppointmentAction();
  const canBook = user ? can(user.level, 'appointments.write') : false;
  const canAttend = user ? can(user.level, 'clinical.write') : false;
  const scheduled = appointment.status === 'scheduled';
  const run = (kind: 'arrive' | 'confirm') =>
    action.mutate(
      { appointment, action: kind },
      { onSuccess: (answer) => answer.code && toastSuccess(answer.code), onError: toastApiError },
    );
  const what = appointment.treatmentName ?? appointment.reason;
  return (
    <li className="dashboard-appointment" data-testid="today-appointment" data-appointment-id={appointment.id}>
      <div className="dashboard-appointment-time">
        {time(appointment.startsAt)}
        <span className="visually-hidden"> – </span>
        <span className="text-body-secondary small d-block">{time(appointment.endsAt)}</span>
      </div>
      <div className="dashboard-appointment-main">
        <Link
          to={historyPath(appointment.patientId)}
          className="fw-semibold link-body-emphasis text-decoration-none"
          data-testid="today-patient"
        >
          {appointment.patientName}
        </Link>
        {what ? <div className="small text-body-secondary text-truncate">{what}</div> : null}
        <AppointmentBadges appointment={appointment} />
      </div>
      {scheduled ? (
        <div className="dashboard-appointment-actions">
          {canBook && !appointment.arrivedAt ? (
            <button
              type="button"
              className="btn btn-outline-secondary btn-sm"
              disabled={action.isPending}
              onClick={() => run('arrive')}
              data-testid="mark-arrived"
            >
              <DoorOpen size={14} aria-hidden="true" className="me-1" />
              {t('actions.arrived')}
            </button>
          ) : null}
          {canBook && !appointment.confirmedAt ? (
            <button
              type="button"
              className="btn btn-outline-secondary btn-sm"
              disabled={action.isPending}
              onClick={() => run('confirm')}
              data-testid="confirm-appointment"
            >
              <Check size={14} aria-hidden="true" className="me-1" />
              {t('actions.confirm')}
            </button>
          ) : null}
          {canAttend ? (
            <IconLink
              to={startAttendancePath(appointment)}
              className="btn btn-primary btn-sm"
              icon={Stethoscope}
              small
              testId="start-attendance"
            >
              {t('actions.startAttendance')}
            </IconLink>
          ) : null}
        </div>
      ) : null}
    </li>
  );
}

/** Today's appointments per professional: the signed-in professional's own first, then by name. */
function TodayAgenda({ counts }: { counts: DashboardFigures['agenda'] | undefined }) {
  const { t } = useTranslation('dashboard');
  const user = useSessionUser();
  const timeZone = useClinicTimeZone();
  const today = useClinicToday();
  const range = useMemo(() => clinicDayRange(timeZone, today), [timeZone, today]);
  const query = useCalendarAppointments(
    { from: range.start.toISOString(), to: range.end.toISOString() },
    { refetchInterval: 60_000 },
  );
  const groups = useMemo(() => {
    const byProfessional = new Map<string, { id: string; name: string; appointments: CalendarAppointment[] }>();
    for (const appointment of query.data ?? []) {
      const group = byProfessional.get(appointment.professionalId) ?? {
        id: appointment.professionalId,
        name: appointment.professionalName,
        appointments: [],
      };
      group.appointments.push(appointment);
      byProfessional.set(appointment.professionalId, group);
    }
    return [...byProfessional.values()].sort((a, b) =>
      a.id === user?.id ? -1 : b.id === user?.id ? 1 : a.name.localeCompare(b.name),
    );
  }, [query.data, user?.id]);
  return (
    <Widget
      id="today-agenda"
      className="dashboard-agenda"
      title={t('today.title')}
      icon={<CalendarClock size={18} aria-hidden="true" />}
      query={query}
      empty={groups.length ? null : t('today.empty')}
      footer={
        <Link to={calendarPath({ date: today, book: false })} data-testid="open-calendar">
          {t('today.openCalendar')}
        </Link>
      }
    >
      <div className="dashboard-agenda-groups">
        {groups.map((group) => (
          <section key={group.id} className="dashboard-professional" data-testid="today-professional">
            <h3 className="h6 dashboard-professional-name">
              {group.name}
              <span className="badge bg-body-secondary text-body ms-2">
                {t('today.count', { count: group.appointments.length })}
              </span>
            </h3>
            <AgendaCounts row={counts?.find((row) => row.professionalId === group.id)} />
            <ul className="list-unstyled mb-0">
              {group.appointments.map((appointment) => (
                <AppointmentRow key={appointment.id} appointment={appointment} />
              ))}
            </ul>
          </section>
        ))}
      </div>
    </Widget>
  );
}

/** A professional's day at a glance: confirmed, not confirmed, arrived (from the dashboard's figures). */
function AgendaCounts({ row }: { row: DashboardFigures['agenda'][number] | undefined }) {
  const { t } = useTranslation('dashboard');
  if (!row) return null;
  return (
    <p className="small text-body-secondary mb-2" data-testid="agenda-counts">
      {t('today.summary', {
        confirmed: row.confirmed,
        notConfirmed: row.notConfirmed,
        arrived: row.arrived,
        completed: row.completed,
      })}
    </p>
  );
}

const freeSlotCount = 6;
const reorderCount = 5;
const recentCount = 8;

/** The next free half hours of any professional, each a link to book it in the calendar. */
function FreeSlots() {
  const { t } = useTranslation('dashboard');
  const timeZone = useClinicTimeZone();
  const when = useInstantFormat('dateTime');
  const query = useFreeSlots({ durationMinutes: 30, limit: freeSlotCount });
  const slots = query.data ?? [];
  return (
    <Widget
      id="free-slots"
      title={t('freeSlots.title')}
      icon={<CalendarPlus size={18} aria-hidden="true" />}
      query={query}
      empty={slots.length ? null : t('freeSlots.empty')}
      rows={{ count: freeSlotCount, lines: 1 }}
    >
      <ul className="list-unstyled mb-0 dashboard-list">
        {slots.map((slot) => {
          const link = `${calendarPath({
            date: clinicWallTime(slot.startsAt, timeZone).slice(0, 10),
            professionalId: slot.professionalId,
          })}&startsAt=${encodeURIComponent(slot.startsAt)}`;
          return (
            <li key={`${slot.professionalId}-${slot.startsAt}`}>
              <Link to={link} className="dashboard-list-link" data-testid="free-slot">
                <span className="fw-semibold">{when(slot.startsAt)}</span>
                <span className="text-body-secondary small">{slot.professionalName}</span>
                <span className="visually-hidden"> — {t('freeSlots.book')}</span>
              </Link>
            </li>
          );
        })}
      </ul>
    </Widget>
  );
}

/** The top of the inventory's "to order" list (only for levels that read the inventory). */
function Reorder() {
  const { t } = useTranslation('dashboard');
  const query = useReorderTop(reorderCount, true);
  const items = query.data?.data ?? [];
  return (
    <Widget
      id="reorder"
      title={t('reorder.title')}
      icon={<PackageSearch size={18} aria-hidden="true" />}
      query={query}
      empty={items.length ? null : t('reorder.empty')}
      rows={{ count: reorderCount, lines: 1 }}
      footer={
        <Link to="/inventory/reorder" data-testid="reorder-all">
          {t('reorder.all', { count: query.data?.total ?? 0 })}
        </Link>
      }
    >
      <ul className="list-unstyled mb-0 dashboard-list">
        {items.map((item) => (
          <li key={item.id} className="dashboard-list-row" data-testid="reorder-item">
            <span className="text-truncate">{item.name}</span>
            <span className="text-body-secondary small text-nowrap">
              {t('reorder.stock', { stock: item.totalStock, order: item.suggestedQuantity })}
            </span>
          </li>
        ))}
      </ul>
    </Widget>
  );
}

/** The clinic's latest attendances: who was seen, by whom, when. */
function RecentPatients() {
  const { t } = useTranslation('dashboard');
  const when = useInstantFormat('dateTime');
  const query = useRecentAttendances(recentCount);
  const rows = query.data ?? [];
  return (
    <Widget
      id="recent-patients"
      title={t('recent.title')}
      icon={<Users size={18} aria-hidden="true" />}
      query={query}
      empty={rows.length ? null : t('recent.empty')}
      rows={{ count: recentCount, lines: 2 }}
    >
      <ul className="list-unstyled mb-0 dashboard-list">
        {rows.map((row) => (
          <li key={row.id} className="dashboard-list-row" data-testid="recent-attendance">
            <span className="min-w-0">
              <Link
                to={recordPaths.show('attendance', row.patientId, row.id)}
                className="fw-semibold link-body-emphasis text-decoration-none d-block text-truncate"
              >
                {row.patientName}
              </Link>
              <span className="small text-body-secondary d-block text-truncate">
                {row.titleResume} · {row.professionalName}
              </span>
            </span>
            <span className="small text-body-secondary text-nowrap">{when(row.date)}</span>
          </li>
        ))}
      </ul>
    </Widget>
  );
}

/** The period the figures sum: two dates in the URL (none: this month so far), and "this month". */
function PeriodPicker({
  from,
  to,
  onChange,
}: {
  from: string;
  to: string;
  onChange: (from: string, to: string) => void;
}) {
  const { t } = useTranslation('dashboard');
  return (
    <form className="dashboard-period" aria-label={t('period.label')} onSubmit={(event) => event.preventDefault()}>
      <DateRangeFilter
        names={['from', 'to'] as const}
        values={[from, to]}
        labels={[t('period.from'), t('period.to')]}
        inputClassName="form-control form-control-sm"
        onChange={(name, value) => (name === 'from' ? onChange(value, to) : onChange(from, value))}
      />
      <button
        type="button"
        className="btn btn-outline-secondary btn-sm align-self-end"
        onClick={() => onChange('', '')}
        disabled={!from && !to}
      >
        {t('period.thisMonth')}
      </button>
    </form>
  );
}

/** `/dashboard`: the first screen after sign-in (issue 16), with the period's figures (issue 19). */
export function Dashboard() {
  const { t } = useTranslation('dashboard');
  const user = useSessionUser();
  const showInventory = user ? can(user.level, 'inventory.read') : false;
  const showReports = user ? can(user.level, 'reports.read') : false;
  const [params, setParams] = useSearchParams();
  const from = params.get('from') ?? '';
  const to = params.get('to') ?? '';
  const figures = useDashboardFigures(from, to);
  const setPeriod = (nextFrom: string, nextTo: string) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const [name, value] of [
          ['from', nextFrom],
          ['to', nextTo],
        ] as const)
          value ? next.set(name, value) : next.delete(name);
        return next;
      },
      { replace: true },
    );
  const period = figures.data?.period;
  const day = useCalendarDateFormat();
  return (
    <div className="dashboard" data-testid="dashboard">
      <div className="dashboard-period-bar">
        <h2 className="h6 mb-0">
          {t('period.title')}
          {period ? (
            <span className="dashboard-period-shown text-body-secondary fw-normal" data-testid="period-shown">
              {t('period.range', { from: day(period.from), to: day(period.to) })}
            </span>
          ) : (
            // The period's line kept while it loads (on a phone it is a line of its own).
            <span className="dashboard-period-shown" aria-hidden="true">
              &nbsp;
            </span>
          )}
        </h2>
        <div className="d-flex flex-wrap align-items-end gap-2">
          <PeriodPicker from={from} to={to} onChange={setPeriod} />
          {showReports ? (
            <Link to="/reports" className="btn btn-link btn-sm" data-testid="open-reports">
              {t('period.reports')}
            </Link>
          ) : null}
        </div>
      </div>
      {figures.isError ? (
        <div className="alert alert-danger" role="alert">
          {t('loadError')}{' '}
          <button type="button" className="btn btn-link btn-sm p-0 align-baseline" onClick={() => figures.refetch()}>
            {t('retry')}
          </button>
        </div>
      ) : (
        <PeriodFigures figures={figures.data} pending={figures.isPending} financial={showReports} />
      )}
      <div className="dashboard-grid">
        <TodayAgenda counts={figures.data?.agenda} />
        <div className="dashboard-side">
          <FreeSlots />
          {showInventory ? <Reorder /> : null}
          <RecentPatients />
        </div>
      </div>
    </div>
  );
}
