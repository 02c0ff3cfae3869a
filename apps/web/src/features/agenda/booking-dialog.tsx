import '../../lib/zod-setup';
import { clinicDayRange, clinicToday, clinicWallTime, instantOfClinicWallTime } from '@odontia/shared/clinic-time';
import { type Appointment, createAppointmentRequestSchema } from '@odontia/shared/schemas/appointments';
import { CalendarPlus } from 'lucide-react';
import { type FormEvent, useId, useRef, useState } from 'react';
import Modal from 'react-bootstrap/Modal';
import { useTranslation } from 'react-i18next';
import { BusyIcon } from '../../components/busy-icon';
import { FormAlert } from '../../components/form-feedback';
import { toastApiError, toastSuccess } from '../../lib/api-toast';
import { fieldErrorsOf, fieldMessageKey, parseFieldMessage } from '../../lib/field-message';
import { isApiError } from '../../lib/http';
import { useClinicTimeZone } from '../../session/clinic-time';
import { appointmentsApi, useFreeSlots } from '../appointments/api';
import { useProfessionals } from '../medical-history/api';
import { useChairs, useTreatments } from './api';
import { type Errors, Field, NewPatient, PatientPicker, usePatientById } from './booking-patient';
import { OutsideScheduleReasons } from './outside-schedule';
import { overlapText } from './status';

/** What opens the booking dialog: a selected slot, a deep link, or an appointment to edit. */
export interface BookingDraft {
  startsAt?: string;
  endsAt?: string;
  professionalId?: string;
  chairId?: string;
  patientId?: string;
  appointment?: Appointment;
}

const defaultMinutes = 30;

export function BookingDialog({ draft, onClose }: { draft: BookingDraft; onClose: () => void }) {
  const { t, i18n } = useTranslation(['agenda', 'validation']);
  const id = useId();
  const timeZone = useClinicTimeZone();
  const language = (i18n.resolvedLanguage ?? 'es').slice(0, 2);
  const editing = draft.appointment ?? null;
  const professionals = useProfessionals().data ?? [];
  const chairs = useChairs().data ?? [];
  const treatments = useTreatments().data ?? [];
  const startsAt = editing?.startsAt ?? draft.startsAt;
  const endsAt = editing?.endsAt ?? draft.endsAt;
  const startWall = startsAt ? clinicWallTime(startsAt, timeZone) : `${clinicToday(timeZone)}T09:00`;
  const [patient, setPatient] = useState<{ id: string; name: string } | null>(
    editing ? { id: editing.patientId, name: editing.patientName } : null,
  );
  const [patientIdFromLink] = useState(draft.patientId ?? null);
  usePatientById(patient ? null : patientIdFromLink, setPatient);
  const [creating, setCreating] = useState(false);
  const [values, setValues] = useState({
    professionalId: editing?.professionalId ?? draft.professionalId ?? '',
    chairId: editing?.chairId ?? draft.chairId ?? '',
    treatmentId: editing?.treatmentId ?? '',
    date: startWall.slice(0, 10),
    time: startWall.slice(11, 16),
    minutes: String(
      startsAt && endsAt ? Math.round((Date.parse(endsAt) - Date.parse(startsAt)) / 60_000) : defaultMinutes,
    ),
    reason: editing?.reason ?? '',
    notes: editing?.notes ?? '',
  });
  const [errors, setErrors] = useState<Errors>({});
  const [outside, setOutside] = useState<string[] | null>(null);
  const [overlap, setOverlap] = useState<string | null>(null);
  /** A start in the past, said before booking it (a walk-in recorded afterwards); confirmed once. */
  const [past, setPast] = useState<'asking' | 'confirmed' | null>(null);
  const [pending, setPending] = useState(false);
  // A second click (on "Guardar", "Reservar igualmente" or "Reservar en el pasado") while the first
  // is on its way would send the same change twice: the second answers a stale version.
  const sending = useRef(false);
  const minutes = Number(values.minutes) || defaultMinutes;
  // The free slots from the day chosen (the server starts them no earlier than now).
  const validDate = /^\d{4}-\d{2}-\d{2}$/.test(values.date) ? values.date : clinicToday(timeZone);
  const freeFrom = clinicDayRange(timeZone, validDate).start.toISOString();
  const freeSlots = useFreeSlots(
    {
      professionalId: values.professionalId || undefined,
      chairId: values.chairId || undefined,
      durationMinutes: minutes,
      from: freeFrom,
      limit: 6,
    },
    minutes >= 5,
  );
  const set = (name: keyof typeof values, value: string) => {
    setValues((current) => {
      const next = { ...current, [name]: value };
      if (name === 'treatmentId') {
        const treatment = treatments.find((x) => x.id === value);
        if (treatment) {
          next.minutes = String(treatment.durationMinutes);
          if (!current.reason) next.reason = treatment.name;
        }
      }
      return next;
    });
    setOutside(null);
    setOverlap(null);
    if (name === 'date' || name === 'time') setPast(null);
  };
  const message = (code: string) => {
    const { key, values: v } = fieldMessageKey(parseFieldMessage(code));
    return t(`validation:${key}`, v);
  };
  const fieldOf = (path: string) => (path === 'startsAt' ? 'time' : path === 'endsAt' ? 'minutes' : path);

  const submit = async (allowOutsideSchedule: boolean, pastConfirmed = past === 'confirmed') => {
    const start = instantOfClinicWallTime(`${values.date}T${values.time}`, timeZone);
    const local: Errors = {};
    if (!values.date) local.date = message('required');
    if (!start) local.time = message(values.time ? 'invalid_time' : 'required');
    if (!(Number(values.minutes) >= 5)) local.minutes = message('too_small|min=5');
    const body = {
      patientId: patient?.id ?? '',
      professionalId: values.professionalId,
      chairId: values.chairId || null,
      treatmentId: values.treatmentId || null,
      startsAt: start?.toISOString() ?? '',
      endsAt: start ? new Date(start.getTime() + minutes * 60_000).toISOString() : '',
      reason: values.reason,
      notes: values.notes,
      allowOutsideSchedule,
    };
    const parsed = createAppointmentRequestSchema.safeParse(body);
    if (!parsed.success)
      for (const issue of parsed.error.issues) {
        const field = fieldOf(String(issue.path[0]));
        local[field] ??= message(issue.message);
      }
    setErrors(local);
    if (Object.keys(local).length) return;
    // A new start in the past: allowed (a walk-in recorded afterwards), but said first.
    const movedToPast = start && start.getTime() < Date.now() && start.toISOString() !== editing?.startsAt;
    if (movedToPast && !pastConfirmed) {
      setPast('asking');
      return;
    }
    if (sending.current) return;
    sending.current = true;
    setPending(true);
    try {
      const answer = editing
        ? await appointmentsApi.update(editing.id, { ...body, version: editing.version })
        : await appointmentsApi.create(body);
      toastSuccess(answer.code ?? 'appointment_created');
      onClose();
    } catch (error) {
      if (isApiError(error) && error.code === 'appointment_outside_schedule')
        setOutside((error.details?.reasons as string[] | undefined) ?? []);
      else if (isApiError(error) && error.code === 'appointment_overlaps')
        setOverlap(overlapText(t, error.details, timeZone, language));
      else {
        const fields = fieldErrorsOf(error);
        if (fields.length) setErrors(Object.fromEntries(fields.map((f) => [fieldOf(f.path), message(f.code)])));
        else toastApiError(error);
      }
    } finally {
      sending.current = false;
      setPending(false);
    }
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void submit(false);
  };
  const titleId = `${id}-title`;
  const slotTime = new Intl.DateTimeFormat(language, {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    timeZone,
  });
  const pastStart = instantOfClinicWallTime(`${values.date}T${values.time}`, timeZone);
  const pastWhen = pastStart
    ? new Intl.DateTimeFormat(language, { dateStyle: 'full', timeStyle: 'short', timeZone }).format(pastStart)
    : '';
  const freeDay = new Intl.DateTimeFormat(language, { day: 'numeric', month: 'long', timeZone }).format(
    new Date(freeFrom),
  );
  const invalid = (name: string) => (errors[name] ? 'is-invalid' : '');
  const described = (name: string) => (errors[name] ? `${id}-${name}-error` : undefined);
  return (
    <Modal show onHide={onClose} size="lg" aria-labelledby={titleId} restoreFocus>
      <form onSubmit={onSubmit} noValidate data-testid="booking-dialog">
        <Modal.Header closeButton closeLabel={t('close')}>
          <Modal.Title id={titleId} as="h2" className="h5">
            {editing ? t('booking.editTitle') : t('booking.title')}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          {overlap ? <FormAlert testId="booking-overlap">{overlap}</FormAlert> : null}
          {past === 'asking' ? (
            <FormAlert variant="warning" testId="booking-past">
              <p className="mb-1">{t('booking.pastText', { when: pastWhen })}</p>
              <button
                type="button"
                className="btn btn-warning btn-sm mt-1"
                disabled={pending}
                onClick={() => {
                  setPast('confirmed');
                  void submit(false, true);
                }}
                data-testid="book-past"
              >
                {t('booking.bookPast')}
              </button>
            </FormAlert>
          ) : null}
          {outside ? (
            <FormAlert variant="warning" testId="booking-outside">
              <p className="mb-1">{t('outsideText')}</p>
              <OutsideScheduleReasons reasons={outside} />
              <button
                type="button"
                className="btn btn-warning btn-sm mt-2"
                disabled={pending}
                onClick={() => void submit(true)}
                data-testid="book-anyway"
              >
                {t('bookAnyway')}
              </button>
            </FormAlert>
          ) : null}
          <div className="row g-3">
            <div className="col-12">
              <label htmlFor={`${id}-patient`} className="form-label">
                {t('fields.patient')}
              </label>
              <PatientPicker
                inputId={`${id}-patient`}
                picked={patient}
                onPick={(picked) => {
                  setPatient(picked);
                  setCreating(false);
                }}
                error={errors.patientId}
              />
              {!patient && !editing ? (
                <button
                  type="button"
                  className="btn btn-link btn-sm px-0"
                  aria-expanded={creating}
                  onClick={() => setCreating(!creating)}
                  data-testid="new-patient-toggle"
                >
                  {t('newPatient.toggle')}
                </button>
              ) : null}
              {creating && !patient ? (
                <NewPatient
                  onCreated={(created) => {
                    setPatient(created);
                    setCreating(false);
                  }}
                />
              ) : null}
            </div>
            <Field
              id={`${id}-professionalId`}
              label={t('fields.professional')}
              error={errors.professionalId}
              className="col-sm-6"
            >
              <select
                id={`${id}-professionalId`}
                className={`form-select ${invalid('professionalId')}`}
                aria-describedby={described('professionalId')}
                value={values.professionalId}
                onChange={(event) => set('professionalId', event.target.value)}
                data-testid="booking-professional"
              >
                <option value="">{t('choose')}</option>
                {professionals.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.completeName}
                  </option>
                ))}
              </select>
            </Field>
            {chairs.length ? (
              <Field id={`${id}-chairId`} label={t('fields.chair')} error={errors.chairId} className="col-sm-6">
                <select
                  id={`${id}-chairId`}
                  className={`form-select ${invalid('chairId')}`}
                  value={values.chairId}
                  onChange={(event) => set('chairId', event.target.value)}
                >
                  <option value="">{t('noChair')}</option>
                  {chairs.map((chair) => (
                    <option key={chair.id} value={chair.id}>
                      {chair.name}
                    </option>
                  ))}
                </select>
              </Field>
            ) : null}
            {treatments.length ? (
              <Field
                id={`${id}-treatmentId`}
                label={t('fields.treatment')}
                error={errors.treatmentId}
                className="col-sm-6"
              >
                <select
                  id={`${id}-treatmentId`}
                  className={`form-select ${invalid('treatmentId')}`}
                  value={values.treatmentId}
                  onChange={(event) => set('treatmentId', event.target.value)}
                  data-testid="booking-treatment"
                >
                  <option value="">{t('noTreatment')}</option>
                  {treatments.map((treatment) => (
                    <option key={treatment.id} value={treatment.id}>
                      {t('treatmentOption', { name: treatment.name, minutes: treatment.durationMinutes })}
                    </option>
                  ))}
                </select>
              </Field>
            ) : null}
            <div className="w-100 m-0 p-0" aria-hidden="true" />
            <Field id={`${id}-date`} label={t('fields.date')} error={errors.date} className="col-sm-4">
              <input
                id={`${id}-date`}
                type="date"
                className={`form-control ${invalid('date')}`}
                aria-describedby={described('date')}
                value={values.date}
                onChange={(event) => set('date', event.target.value)}
                data-testid="booking-date"
              />
            </Field>
            <Field id={`${id}-time`} label={t('fields.time')} error={errors.time} className="col-sm-4">
              <input
                id={`${id}-time`}
                type="time"
                step={300}
                className={`form-control ${invalid('time')}`}
                aria-describedby={described('time')}
                value={values.time}
                onChange={(event) => set('time', event.target.value)}
                data-testid="booking-time"
              />
            </Field>
            <Field id={`${id}-minutes`} label={t('fields.minutes')} error={errors.minutes} className="col-sm-4">
              <input
                id={`${id}-minutes`}
                type="number"
                min={5}
                step={5}
                className={`form-control ${invalid('minutes')}`}
                aria-describedby={described('minutes')}
                value={values.minutes}
                onChange={(event) => set('minutes', event.target.value)}
                data-testid="booking-minutes"
              />
            </Field>
            <section className="col-12" aria-labelledby={`${id}-free`}>
              <h3 id={`${id}-free`} className="h6">
                {t('booking.freeSlots', { date: freeDay })}
              </h3>
              {freeSlots.data?.length ? (
                // While the slots of a newly chosen day load, the last day's stay in place (no layout
                // shift) but cannot be picked: a click would book the day before the one asked for.
                <ul
                  className="agenda-free-slots list-unstyled d-flex flex-wrap gap-2 mb-0"
                  data-testid="free-slots"
                  aria-busy={freeSlots.isPlaceholderData}
                >
                  {freeSlots.data.map((slot) => (
                    <li key={`${slot.startsAt}-${slot.professionalId}`}>
                      <button
                        type="button"
                        className="btn btn-outline-primary btn-sm"
                        disabled={freeSlots.isPlaceholderData}
                        onClick={() => {
                          const wall = clinicWallTime(slot.startsAt, timeZone);
                          setValues((current) => ({
                            ...current,
                            date: wall.slice(0, 10),
                            time: wall.slice(11, 16),
                            professionalId: slot.professionalId,
                          }));
                          setOutside(null);
                          setOverlap(null);
                        }}
                      >
                        {slotTime.format(new Date(slot.startsAt))}
                        {values.professionalId ? '' : ` · ${slot.professionalName}`}
                      </button>
                    </li>
                  ))}
                </ul>
              ) : (
                <p className="text-body-secondary small mb-0">
                  {freeSlots.isFetching ? t('booking.searching') : t('booking.noFreeSlots')}
                </p>
              )}
            </section>
            <Field id={`${id}-reason`} label={t('fields.reason')} error={errors.reason}>
              <input
                id={`${id}-reason`}
                className={`form-control ${invalid('reason')}`}
                maxLength={200}
                value={values.reason}
                onChange={(event) => set('reason', event.target.value)}
                data-testid="booking-reason"
              />
            </Field>
            <Field id={`${id}-notes`} label={t('fields.notes')} error={errors.notes}>
              <textarea
                id={`${id}-notes`}
                className={`form-control ${invalid('notes')}`}
                rows={2}
                maxLength={2000}
                value={values.notes}
                onChange={(event) => set('notes', event.target.value)}
              />
            </Field>
          </div>
        </Modal.Body>
        <Modal.Footer>
          <button type="button" className="btn btn-outline-secondary" onClick={onClose}>
            {t('cancel')}
          </button>
          <button type="submit" className="btn btn-primary" disabled={pending} data-testid="booking-save">
            <BusyIcon busy={pending} icon={CalendarPlus} />
            {editing ? t('booking.save') : t('booking.book')}
          </button>
        </Modal.Footer>
      </form>
    </Modal>
  );
}
