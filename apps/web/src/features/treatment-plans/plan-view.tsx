import { addDays, clinicToday, instantOfClinicWallTime } from '@odontia/shared/clinic-time';
import type { PlanProgress } from '@odontia/shared/schemas/treatment-plans';
import { CalendarPlus, CheckCircle2, Pencil, Send, XCircle } from 'lucide-react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DialogFrame } from '../../components/dialog-frame';
import { FieldFeedback } from '../../components/form-feedback';
import { fieldCodeText } from '../../components/form-field';
import { type FieldCodes, fieldCodesOf } from '../../lib/api-errors';
import { toastApiError, toastSuccess } from '../../lib/api-toast';
import { useClinicTimeZone, useInstantFormat } from '../../session/clinic-time';
import { useCurrencyFormat } from '../commercial/money-format';
import { useProfessionals } from '../users/professionals';
import { type Plan, useAcceptPlan, useBookSession, usePlanStep } from './api';

type Session = Plan['alternatives'][number]['phases'][number]['items'][number]['sessions'][number];

const statusClass: Record<string, string> = {
  draft: 'text-bg-secondary',
  presented: 'text-bg-info',
  accepted: 'text-bg-primary',
  rejected: 'text-bg-danger',
  completed: 'text-bg-success',
  cancelled: 'text-bg-secondary',
  done: 'text-bg-success',
  scheduled: 'text-bg-info',
  pending: 'text-bg-warning',
};

export function PlanStatusBadge({ status, testId }: { status: string; testId?: string }) {
  const { t } = useTranslation('plans');
  return (
    <span className={`badge ${statusClass[status] ?? 'text-bg-secondary'}`} data-testid={testId} data-status={status}>
      {t(`statuses.${status}`)}
    </span>
  );
}

/** Done, scheduled and pending money as one stacked bar, with its figures. */
export function PlanProgressBar({ progress, testId = 'plan-progress' }: { progress: PlanProgress; testId?: string }) {
  const { t } = useTranslation('plans');
  const money = useCurrencyFormat();
  const total = Number(progress.money.total);
  const width = (value: string) => (total > 0 ? `${(Number(value) / total) * 100}%` : '0%');
  return (
    <div data-testid={testId}>
      <div
        className="progress-stacked plan-progress"
        role="img"
        aria-label={t('progress.label', {
          done: money(progress.money.done),
          scheduled: money(progress.money.scheduled),
          pending: money(progress.money.pending),
        })}
      >
        <div className="progress" style={{ width: width(progress.money.done) }}>
          <div className="progress-bar bg-success" />
        </div>
        <div className="progress" style={{ width: width(progress.money.scheduled) }}>
          <div className="progress-bar bg-info" />
        </div>
      </div>
      <div className="d-flex flex-wrap gap-3 small mt-1">
        <span data-testid="plan-progress-done">
          {t('progress.done')}: <strong>{money(progress.money.done)}</strong> ·{' '}
          {t('progress.items', { count: progress.items.done, total: progress.items.total })}
        </span>
        <span data-testid="plan-progress-scheduled">
          {t('progress.scheduled')}: <strong>{money(progress.money.scheduled)}</strong>
        </span>
        <span data-testid="plan-progress-pending">
          {t('progress.pending')}: <strong>{money(progress.money.pending)}</strong>
        </span>
      </div>
    </div>
  );
}

/** "Citar sesión": day, time, length and professional; the appointment is booked for the item's treatment. */
function BookSessionDialog({ plan, session, onClose }: { plan: Plan; session: Session; onClose: () => void }) {
  const { t } = useTranslation('plans');
  const id = useId();
  const timeZone = useClinicTimeZone();
  const professionals = useProfessionals();
  const book = useBookSession(plan.patientId, plan.id);
  const [day, setDay] = useState(() => addDays(clinicToday(timeZone), 1));
  const [time, setTime] = useState('10:00');
  const [minutes, setMinutes] = useState('30');
  const [professionalId, setProfessionalId] = useState(plan.professionalId);
  const [errors, setErrors] = useState<FieldCodes>({});
  const submit = async () => {
    setErrors({});
    const start = instantOfClinicWallTime(`${day}T${time}`, timeZone);
    if (!start) {
      setErrors({ startsAt: 'invalid_date' });
      return;
    }
    const end = new Date(start.getTime() + Math.max(5, Number(minutes) || 30) * 60_000);
    try {
      const answer = await book.mutateAsync({
        sessionId: session.id,
        body: {
          professionalId,
          startsAt: start.toISOString(),
          endsAt: end.toISOString(),
          allowOutsideSchedule: true,
        },
      });
      if (answer.code) toastSuccess(answer.code);
      onClose();
    } catch (failure) {
      const fields = fieldCodesOf(failure);
      if (fields) setErrors(fields);
      else toastApiError(failure);
    }
  };
  return (
    <DialogFrame
      onHide={onClose}
      testId="plan-book-dialog"
      title={t('book.title', { session: session.description })}
      closeLabel={t('actions.close')}
      cancelLabel={t('actions.cancel')}
      confirm={{
        label: t('book.confirm'),
        onClick: () => void submit(),
        busy: book.isPending,
        disabled: book.isPending,
        icon: CalendarPlus,
        testId: 'plan-book-confirm',
      }}
    >
      <div className="row g-2">
        <div className="col-6">
          <label className="form-label" htmlFor={`${id}-day`}>
            {t('book.day')}
          </label>
          <input
            id={`${id}-day`}
            type="date"
            className={`form-control${errors.startsAt ? ' is-invalid' : ''}`}
            value={day}
            data-testid="plan-book-day"
            onChange={(event) => setDay(event.target.value)}
          />
          <FieldFeedback id={`${id}-day-error`} message={fieldCodeText(errors.startsAt)} />
        </div>
        <div className="col-6">
          <label className="form-label" htmlFor={`${id}-time`}>
            {t('book.time')}
          </label>
          <input
            id={`${id}-time`}
            type="time"
            className="form-control"
            value={time}
            data-testid="plan-book-time"
            onChange={(event) => setTime(event.target.value)}
          />
        </div>
        <div className="col-6">
          <label className="form-label" htmlFor={`${id}-minutes`}>
            {t('book.minutes')}
          </label>
          <input
            id={`${id}-minutes`}
            className="form-control"
            inputMode="numeric"
            value={minutes}
            onChange={(event) => setMinutes(event.target.value)}
          />
        </div>
        <div className="col-6">
          <label className="form-label" htmlFor={`${id}-professional`}>
            {t('fields.professional')}
          </label>
          <select
            id={`${id}-professional`}
            className={`form-select${errors.professionalId ? ' is-invalid' : ''}`}
            value={professionalId}
            onChange={(event) => setProfessionalId(event.target.value)}
          >
            {(professionals.data ?? []).map((professional) => (
              <option key={professional.id} value={professional.id}>
                {professional.completeName}
              </option>
            ))}
          </select>
        </div>
      </div>
    </DialogFrame>
  );
}

const toothLabel = (tooth: number | null, zone: string | null, zoneText: (zone: string) => string) =>
  [tooth === null ? null : String(tooth), zone ? zoneText(zone) : null].filter(Boolean).join(' · ');

/** One plan: its status and steps, the alternatives side by side, progress and the sessions to book. */
export function PlanView({
  plan,
  canWrite,
  canBook,
  onEdit,
}: {
  plan: Plan;
  canWrite: boolean;
  canBook: boolean;
  onEdit: () => void;
}) {
  const { t } = useTranslation('plans');
  const money = useCurrencyFormat();
  const instant = useInstantFormat();
  const step = usePlanStep(plan.patientId, plan.id);
  const accept = useAcceptPlan(plan.patientId, plan.id);
  const [booking, setBooking] = useState<Session | null>(null);
  const open = plan.status === 'draft' || plan.status === 'presented';
  const run = async (action: () => Promise<{ code?: string | undefined }>) => {
    try {
      const answer = await action();
      if (answer.code) toastSuccess(answer.code);
    } catch (failure) {
      toastApiError(failure);
    }
  };
  const zoneText = (zone: string) => t(`zones.${zone}`);
  return (
    <section className="card" data-testid="plan-view" aria-labelledby={`plan-${plan.id}-title`}>
      <div className="card-header d-flex flex-wrap align-items-center gap-2">
        <h3 className="h5 mb-0 me-auto" id={`plan-${plan.id}-title`}>
          {plan.title}
        </h3>
        <PlanStatusBadge status={plan.status} testId="plan-status" />
        {plan.budgetId ? (
          <Link to={`/sales/view/${plan.budgetId}`} className="small" data-testid="plan-budget-link">
            {t('budgetLink', { number: plan.budgetNumber ?? '' })}
          </Link>
        ) : null}
      </div>
      <div className="card-body d-flex flex-column gap-3">
        <div className="text-body-secondary small">
          {plan.professionalName}
          {plan.notes ? ` · ${plan.notes}` : ''}
        </div>
        {plan.status === 'accepted' || plan.status === 'completed' ? (
          <PlanProgressBar progress={plan.progress} />
        ) : null}
        {canWrite && open ? (
          <div className="d-flex flex-wrap gap-2">
            <button type="button" className="btn btn-outline-primary btn-sm" data-testid="plan-edit" onClick={onEdit}>
              <Pencil size={14} aria-hidden="true" className="me-1" />
              {t('actions.edit')}
            </button>
            {plan.status === 'draft' ? (
              <button
                type="button"
                className="btn btn-outline-primary btn-sm"
                data-testid="plan-present"
                disabled={step.isPending}
                onClick={() => void run(() => step.mutateAsync({ step: 'present', version: plan.version }))}
              >
                <Send size={14} aria-hidden="true" className="me-1" />
                {t('actions.present')}
              </button>
            ) : null}
            <button
              type="button"
              className="btn btn-outline-danger btn-sm"
              data-testid="plan-reject"
              disabled={step.isPending}
              onClick={() => void run(() => step.mutateAsync({ step: 'reject', version: plan.version }))}
            >
              <XCircle size={14} aria-hidden="true" className="me-1" />
              {t('actions.reject')}
            </button>
          </div>
        ) : null}
        <div className="row row-cols-1 row-cols-xl-2 g-3">
          {plan.alternatives.map((alternative) => (
            <div className="col" key={alternative.id}>
              <section
                className={`card h-100${alternative.state === 'accepted' ? ' border-primary' : ''}`}
                data-testid="plan-alternative"
                data-state={alternative.state}
                aria-label={alternative.label}
              >
                <div className="card-header d-flex flex-wrap align-items-center gap-2">
                  <h4 className="h6 mb-0 me-auto">{alternative.label}</h4>
                  {alternative.state !== 'open' ? (
                    <PlanStatusBadge status={alternative.state === 'accepted' ? 'accepted' : 'cancelled'} />
                  ) : null}
                  <span className="fw-semibold text-nowrap" data-testid="plan-alternative-total">
                    {money(alternative.total)}
                  </span>
                  {canWrite && open ? (
                    <button
                      type="button"
                      className="btn btn-primary btn-sm"
                      data-testid="plan-accept"
                      disabled={accept.isPending}
                      onClick={() =>
                        void run(() => accept.mutateAsync({ version: plan.version, alternativeId: alternative.id }))
                      }
                    >
                      <CheckCircle2 size={14} aria-hidden="true" className="me-1" />
                      {t('actions.accept')}
                    </button>
                  ) : null}
                </div>
                <div className="card-body d-flex flex-column gap-3">
                  {alternative.phases.map((phase) => (
                    <div key={phase.id} data-testid="plan-phase">
                      <h5 className="h6 text-body-secondary mb-1">
                        {phase.position}. {phase.name}
                      </h5>
                      {phase.items.length === 0 ? (
                        <p className="small text-body-secondary mb-0">{t('emptyPhase')}</p>
                      ) : null}
                      <ul className="list-unstyled mb-0 d-flex flex-column gap-2">
                        {phase.items.map((item) => (
                          <li
                            key={item.id}
                            className="border rounded p-2"
                            data-testid="plan-item"
                            data-status={item.status}
                          >
                            <div className="d-flex flex-wrap align-items-center gap-2">
                              <span className="fw-semibold">{item.description}</span>
                              {item.tooth !== null || item.zone ? (
                                <span className="badge bg-body-secondary text-body border">
                                  {toothLabel(item.tooth, item.zone, zoneText)}
                                </span>
                              ) : null}
                              <span className="ms-auto text-nowrap">{money(item.amount)}</span>
                              {alternative.state === 'accepted' ? (
                                <PlanStatusBadge status={item.status} testId="plan-item-status" />
                              ) : null}
                            </div>
                            {item.sessions.length > 1 || alternative.state === 'accepted' ? (
                              <ul className="list-unstyled small mb-0 mt-1 ps-2 border-start">
                                {item.sessions.map((session) => (
                                  <li
                                    key={session.id}
                                    className="d-flex flex-wrap align-items-center gap-2 py-1"
                                    data-testid="plan-session"
                                    data-status={session.status}
                                  >
                                    <span>{session.description}</span>
                                    <span className="text-body-secondary">
                                      {Number(session.sharePercent)} % · {money(session.amount)}
                                    </span>
                                    {session.appointmentStartsAt ? (
                                      <span className="text-body-secondary" data-testid="plan-session-when">
                                        {instant(session.appointmentStartsAt)}
                                      </span>
                                    ) : null}
                                    <span className="ms-auto" />
                                    {alternative.state === 'accepted' ? (
                                      <PlanStatusBadge status={session.status} testId="plan-session-status" />
                                    ) : null}
                                    {alternative.state === 'accepted' && session.status === 'pending' && canBook ? (
                                      <button
                                        type="button"
                                        className="btn btn-outline-primary btn-sm py-0"
                                        data-testid="plan-session-book"
                                        onClick={() => setBooking(session)}
                                      >
                                        <CalendarPlus size={14} aria-hidden="true" className="me-1" />
                                        {t('actions.book')}
                                      </button>
                                    ) : null}
                                  </li>
                                ))}
                              </ul>
                            ) : null}
                          </li>
                        ))}
                      </ul>
                    </div>
                  ))}
                </div>
              </section>
            </div>
          ))}
        </div>
      </div>
      {booking ? <BookSessionDialog plan={plan} session={booking} onClose={() => setBooking(null)} /> : null}
    </section>
  );
}
