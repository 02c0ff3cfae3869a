import { appointmentCancelReasons, confirmationChannels } from '@odontia/shared/enums';
import type { Appointment } from '@odontia/shared/schemas/appointments';
import { Ban, Check, DoorOpen, Pencil, RotateCcw, Stethoscope, Trash2 } from 'lucide-react';
import { type ReactNode, useId, useState } from 'react';
import Modal from 'react-bootstrap/Modal';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { BusyIcon } from '../../components/busy-icon';
import { ConfirmDelete } from '../../components/confirm-delete';
import { FieldFeedback } from '../../components/form-feedback';
import { Spinner } from '../../components/spinner';
import { ValueOptions } from '../../components/value-options';
import { toastApiError, toastSuccess } from '../../lib/api-toast';
import { isApiError } from '../../lib/http';
import { useClinicTimeZone, useInstantFormat } from '../../session/clinic-time';
import { appointmentsApi, useAppointment } from '../appointments/api';
import { AppointmentLabCases } from '../lab-cases/lab-cases';
import { PatientAnswerChannel, ReminderDelivery } from '../messages/appointment-messages';
import { AppointmentChanges } from './appointment-changes';
import { OutsideScheduleDialog } from './outside-schedule';
import { displayStatus } from './status';

const staffChannels = confirmationChannels.filter((channel) => channel !== 'reminder_link' && channel !== 'online');

function Row({ label, children, testId }: { label: ReactNode; children: ReactNode; testId?: string }) {
  return (
    <>
      <dt className="col-sm-4">{label}</dt>
      <dd className="col-sm-8" data-testid={testId}>
        {children}
      </dd>
    </>
  );
}

/** An appointment's details and actions: confirm, arrived, start attendance, edit, cancel, restore, delete. */
export function AppointmentDialog({
  id,
  onClose,
  onEdit,
}: {
  id: string;
  onClose: () => void;
  onEdit: (appointment: Appointment) => void;
}) {
  const { t } = useTranslation('agenda');
  const titleId = useId();
  const formId = useId();
  const navigate = useNavigate();
  useClinicTimeZone();
  const dateTime = useInstantFormat('dateTime');
  const timeOnly = useInstantFormat('time');
  const query = useAppointment(id);
  const a = query.data;
  const [mode, setMode] = useState<'view' | 'cancel' | 'delete'>('view');
  const [channel, setChannel] = useState<string>('phone');
  const [reason, setReason] = useState('');
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [pending, setPending] = useState<string | null>(null);
  const [outside, setOutside] = useState<string[] | null>(null);

  const run = async (name: string, action: () => Promise<{ code?: string }>, close = false) => {
    setPending(name);
    try {
      const answer = await action();
      if (answer.code) toastSuccess(answer.code);
      if (close) onClose();
      else setMode('view');
    } catch (error) {
      if (isApiError(error) && error.code === 'appointment_outside_schedule')
        setOutside((error.details?.reasons as string[] | undefined) ?? []);
      else toastApiError(error);
    } finally {
      setPending(null);
    }
  };

  const status = a ? displayStatus(a) : null;
  const scheduled = a?.status === 'scheduled';
  const started = a ? Date.parse(a.startsAt) <= Date.now() : false;

  const cancel = () => {
    if (!a) return;
    const next: Record<string, string> = {};
    if (!reason) next.reason = t('validation:required');
    if (reason === 'other' && !note.trim()) next.note = t('validation:required');
    setErrors(next);
    if (Object.keys(next).length) return;
    void run('cancel', () =>
      appointmentsApi.cancel(a.id, {
        reason: reason as (typeof appointmentCancelReasons)[number],
        note: note || null,
        version: a.version,
      }),
    );
  };

  return (
    <Modal show onHide={onClose} size="lg" aria-labelledby={titleId} restoreFocus>
      <div data-testid="appointment-dialog">
        <Modal.Header closeButton closeLabel={t('close')}>
          <Modal.Title id={titleId} as="h2" className="h5">
            {a ? a.patientName : t('details.title')}
            {status ? (
              <span className={`badge agenda-badge agenda-status-${status} ms-2`} data-testid="appointment-status">
                {t(`displayStatus.${status}`)}
              </span>
            ) : null}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          {!a ? (
            query.isError ? (
              <p>{t('details.notFound')}</p>
            ) : (
              <Spinner />
            )
          ) : (
            <>
              <dl className="row mb-2">
                <Row label={t('fields.patient')}>
                  <Link to={`/patients/${a.patientId}/mh`}>{a.patientName}</Link>
                  {a.patientPhone ? ` · ${a.patientPhone}` : ''}
                </Row>
                <Row label={t('fields.when')} testId="appointment-when">
                  {dateTime(a.startsAt)} – {timeOnly(a.endsAt)}
                </Row>
                <Row label={t('fields.professional')}>{a.professionalName}</Row>
                {a.chairName ? <Row label={t('fields.chair')}>{a.chairName}</Row> : null}
                {a.treatmentName ? <Row label={t('fields.treatment')}>{a.treatmentName}</Row> : null}
                {a.reason ? <Row label={t('fields.reason')}>{a.reason}</Row> : null}
                {a.notes ? <Row label={t('fields.notes')}>{a.notes}</Row> : null}
                <Row label={t('fields.status')} testId="appointment-status-row">
                  {status ? t(`displayStatus.${status}`) : null}
                </Row>
                {a.outsideSchedule ? <Row label={t('fields.schedule')}>{t('details.outsideSchedule')}</Row> : null}
                {a.origin === 'online' ? (
                  <Row label={t('fields.origin')} testId="appointment-origin">
                    {t('details.bookedOnline')}
                  </Row>
                ) : null}
                <Row label={t('fields.confirmation')} testId="appointment-confirmation">
                  {a.confirmedAt && a.confirmationChannel
                    ? t('details.confirmed', {
                        at: dateTime(a.confirmedAt),
                        channel: t(`channels.${a.confirmationChannel}`),
                        who: a.confirmedByName ?? t('details.byPatient'),
                      })
                    : t('details.notConfirmed')}
                </Row>
                {a.arrivedAt ? <Row label={t('fields.arrival')}>{dateTime(a.arrivedAt)}</Row> : null}
                <Row label={t('fields.reminder')} testId="appointment-reminder">
                  {t(`reminderStates.${a.reminderState}`)}
                  <PatientAnswerChannel appointment={a} />
                  {a.reminderSentAt ? ` · ${dateTime(a.reminderSentAt)}` : ''}
                  {a.reminderError ? ` · ${a.reminderError}` : ''}
                  <ReminderDelivery appointmentId={a.id} />
                </Row>
                {a.status === 'cancelled' ? (
                  <Row label={t('fields.cancellation')} testId="appointment-cancellation">
                    {a.cancelReason ? t(`cancelReasons.${a.cancelReason}`) : ''}
                    {a.cancelNote ? ` · ${a.cancelNote}` : ''}
                    {a.cancelledAt ? ` · ${dateTime(a.cancelledAt)}` : ''}
                    {a.cancelledByName ? ` · ${a.cancelledByName}` : ''}
                    {a.reminderState === 'cancelled_by_patient' ? (
                      <>
                        {` · ${t('details.byPatient')}`}
                        <PatientAnswerChannel appointment={a} />
                      </>
                    ) : null}
                  </Row>
                ) : null}
              </dl>
              <AppointmentLabCases appointmentId={a.id} />
              {mode === 'cancel' ? (
                <fieldset className="border rounded p-3" data-testid="cancel-form">
                  <legend className="h6">{t('details.cancelTitle')}</legend>
                  <div className="mb-2">
                    <label htmlFor={`${formId}-reason`} className="form-label">
                      {t('fields.cancelReason')}
                    </label>
                    <select
                      id={`${formId}-reason`}
                      className={`form-select ${errors.reason ? 'is-invalid' : ''}`}
                      aria-describedby={errors.reason ? `${formId}-reason-error` : undefined}
                      value={reason}
                      onChange={(event) => setReason(event.target.value)}
                      data-testid="cancel-reason"
                    >
                      <option value="">{t('choose')}</option>
                      {appointmentCancelReasons
                        .filter((r) => r !== 'no_show' || started)
                        .map((r) => (
                          <option key={r} value={r}>
                            {t(`cancelReasons.${r}`)}
                          </option>
                        ))}
                    </select>
                    <FieldFeedback id={`${formId}-reason-error`} message={errors.reason} />
                  </div>
                  <div className="mb-2">
                    <label htmlFor={`${formId}-note`} className="form-label">
                      {t('fields.cancelNote')}
                    </label>
                    <textarea
                      id={`${formId}-note`}
                      className={`form-control ${errors.note ? 'is-invalid' : ''}`}
                      aria-describedby={errors.note ? `${formId}-note-error` : undefined}
                      rows={2}
                      maxLength={500}
                      value={note}
                      onChange={(event) => setNote(event.target.value)}
                    />
                    <FieldFeedback id={`${formId}-note-error`} message={errors.note} />
                  </div>
                  <div className="d-flex gap-2">
                    <button type="button" className="btn btn-outline-secondary" onClick={() => setMode('view')}>
                      {t('back')}
                    </button>
                    <button
                      type="button"
                      className="btn btn-danger"
                      disabled={pending === 'cancel'}
                      onClick={cancel}
                      data-testid="cancel-confirm"
                    >
                      <BusyIcon busy={pending === 'cancel'} icon={Ban} />
                      {t('actions.cancelAppointment')}
                    </button>
                  </div>
                </fieldset>
              ) : null}
              {scheduled && mode === 'view' ? (
                <div className="d-flex flex-wrap align-items-end gap-2" data-testid="appointment-actions">
                  {a.confirmedAt ? (
                    <button
                      type="button"
                      className="btn btn-outline-secondary"
                      disabled={pending !== null}
                      onClick={() => void run('unconfirm', () => appointmentsApi.action(a.id, 'unconfirm', a.version))}
                    >
                      {t('actions.unconfirm')}
                    </button>
                  ) : (
                    <div className="input-group w-auto">
                      <label className="visually-hidden" htmlFor={`${formId}-channel`}>
                        {t('fields.channel')}
                      </label>
                      <select
                        id={`${formId}-channel`}
                        className="form-select"
                        value={channel}
                        onChange={(event) => setChannel(event.target.value)}
                        data-testid="confirm-channel"
                      >
                        <ValueOptions values={staffChannels} label={(c) => t(`channels.${c}`)} />
                      </select>
                      <button
                        type="button"
                        className="btn btn-outline-success"
                        disabled={pending !== null}
                        data-testid="action-confirm"
                        onClick={() =>
                          void run('confirm', () =>
                            appointmentsApi.confirm(a.id, {
                              channel: channel as (typeof staffChannels)[number] & 'phone',
                              version: a.version,
                            }),
                          )
                        }
                      >
                        <BusyIcon busy={pending === 'confirm'} icon={Check} />
                        {t('actions.confirm')}
                      </button>
                    </div>
                  )}
                  {!a.arrivedAt ? (
                    <button
                      type="button"
                      className="btn btn-outline-primary"
                      disabled={pending !== null}
                      data-testid="action-arrive"
                      onClick={() => void run('arrive', () => appointmentsApi.action(a.id, 'arrive', a.version))}
                    >
                      <BusyIcon busy={pending === 'arrive'} icon={DoorOpen} />
                      {t('actions.arrive')}
                    </button>
                  ) : null}
                  <button
                    type="button"
                    className="btn btn-primary"
                    data-testid="action-start"
                    onClick={() => navigate(`/patients/${a.patientId}/mh/attendance/new?appointmentId=${a.id}`)}
                  >
                    <Stethoscope size={16} aria-hidden="true" /> {t('actions.start')}
                  </button>
                  <button
                    type="button"
                    className="btn btn-outline-secondary"
                    data-testid="action-edit"
                    onClick={() => onEdit(a)}
                  >
                    <Pencil size={16} aria-hidden="true" /> {t('actions.edit')}
                  </button>
                  <button
                    type="button"
                    className="btn btn-outline-danger"
                    data-testid="action-cancel"
                    onClick={() => setMode('cancel')}
                  >
                    <Ban size={16} aria-hidden="true" /> {t('actions.cancel')}
                  </button>
                </div>
              ) : null}
              {a.status === 'cancelled' && mode === 'view' ? (
                <button
                  type="button"
                  className="btn btn-outline-primary"
                  data-testid="action-restore"
                  disabled={pending !== null}
                  onClick={() => void run('restore', () => appointmentsApi.restore(a.id, a.version))}
                >
                  <BusyIcon busy={pending === 'restore'} icon={RotateCcw} />
                  {t('actions.restore')}
                </button>
              ) : null}
              <AppointmentChanges id={a.id} />
            </>
          )}
        </Modal.Body>
        <Modal.Footer>
          {a && a.status !== 'completed' ? (
            <button
              type="button"
              className="btn btn-outline-danger me-auto"
              onClick={() => setMode('delete')}
              data-testid="action-delete"
            >
              <Trash2 size={16} aria-hidden="true" /> {t('actions.delete')}
            </button>
          ) : null}
          <button type="button" className="btn btn-outline-secondary" onClick={onClose}>
            {t('close')}
          </button>
        </Modal.Footer>
      </div>
      {a ? (
        <ConfirmDelete
          show={mode === 'delete'}
          title={t('details.deleteTitle')}
          onCancel={() => setMode('view')}
          onConfirm={() => void run('delete', () => appointmentsApi.remove(a), true)}
          pending={pending === 'delete'}
        >
          {t('details.deleteText', { patient: a.patientName, when: dateTime(a.startsAt) })}
        </ConfirmDelete>
      ) : null}
      {outside && a ? (
        <OutsideScheduleDialog
          reasons={outside}
          onCancel={() => setOutside(null)}
          onConfirm={() => {
            setOutside(null);
            void run('restore', () => appointmentsApi.restore(a.id, a.version, true));
          }}
        />
      ) : null}
    </Modal>
  );
}
