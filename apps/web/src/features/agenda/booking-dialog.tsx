import '../../lib/zod-setup';
import { instantOfClinicWallTime } from '@odontia/shared/clinic-time';
import { CalendarPlus } from 'lucide-react';
import { type ChangeEvent, type FormEvent, useId } from 'react';
import Modal from 'react-bootstrap/Modal';
import { useTranslation } from 'react-i18next';
import { BusyIcon } from '../../components/busy-icon';
import { FormAlert } from '../../components/form-feedback';
import { useProfessionals } from '../users/professionals';
import { useChairs, useTreatments } from './api';
import { BookingFreeSlots, BookingResources } from './booking-fields';
import { Field, NewPatient, PatientPicker } from './booking-patient';
import { OutsideScheduleReasons } from './outside-schedule';
import { type BookingDraft, useBookingForm } from './use-booking-form';

export type { BookingDraft };

export function BookingDialog({ draft, onClose }: { draft: BookingDraft; onClose: () => void }) {
  const { t } = useTranslation(['agenda', 'validation']);
  const id = useId();
  const professionals = useProfessionals().data ?? [];
  const chairs = useChairs().data ?? [];
  const treatments = useTreatments().data ?? [];
  const booking = useBookingForm(draft, treatments, onClose);
  const { editing, values, set, errors, patient, setPatient, setCreating, pending, submit } = booking;
  const { timeZone, language } = booking;
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void submit(false);
  };
  const titleId = `${id}-title`;
  const pastStart = instantOfClinicWallTime(`${values.date}T${values.time}`, timeZone);
  const pastWhen = pastStart
    ? new Intl.DateTimeFormat(language, { dateStyle: 'full', timeStyle: 'short', timeZone }).format(pastStart)
    : '';
  /** The props that bind an input of the dialog to its value, its label and its message. */
  const bound = (name: 'date' | 'time' | 'minutes' | 'reason' | 'notes') => ({
    id: `${id}-${name}`,
    className: `form-control ${errors[name] ? 'is-invalid' : ''}`,
    'aria-describedby': errors[name] ? `${id}-${name}-error` : undefined,
    value: values[name],
    onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => set(name, event.target.value),
  });
  return (
    <Modal show onHide={onClose} size="lg" aria-labelledby={titleId} restoreFocus>
      <form onSubmit={onSubmit} noValidate data-testid="booking-dialog">
        <Modal.Header closeButton closeLabel={t('close')}>
          <Modal.Title id={titleId} as="h2" className="h5">
            {editing ? t('booking.editTitle') : t('booking.title')}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          {booking.overlap ? <FormAlert testId="booking-overlap">{booking.overlap}</FormAlert> : null}
          {booking.past === 'asking' ? (
            <FormAlert variant="warning" testId="booking-past">
              <p className="mb-1">{t('booking.pastText', { when: pastWhen })}</p>
              <button
                type="button"
                className="btn btn-warning btn-sm mt-1"
                disabled={pending}
                onClick={booking.confirmPast}
                data-testid="book-past"
              >
                {t('booking.bookPast')}
              </button>
            </FormAlert>
          ) : null}
          {booking.outside ? (
            <FormAlert variant="warning" testId="booking-outside">
              <p className="mb-1">{t('outsideText')}</p>
              <OutsideScheduleReasons reasons={booking.outside} />
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
                  aria-expanded={booking.creating}
                  onClick={() => setCreating(!booking.creating)}
                  data-testid="new-patient-toggle"
                >
                  {t('newPatient.toggle')}
                </button>
              ) : null}
              {booking.creating && !patient ? (
                <NewPatient
                  onCreated={(created) => {
                    setPatient(created);
                    setCreating(false);
                  }}
                />
              ) : null}
            </div>
            <BookingResources
              id={id}
              values={values}
              errors={errors}
              professionals={professionals}
              chairs={chairs}
              treatments={treatments}
              set={set}
            />
            <div className="w-100 m-0 p-0" aria-hidden="true" />
            <Field id={`${id}-date`} label={t('fields.date')} error={errors.date} className="col-sm-4">
              <input {...bound('date')} type="date" data-testid="booking-date" />
            </Field>
            <Field id={`${id}-time`} label={t('fields.time')} error={errors.time} className="col-sm-4">
              <input {...bound('time')} type="time" step={300} data-testid="booking-time" />
            </Field>
            <Field id={`${id}-minutes`} label={t('fields.minutes')} error={errors.minutes} className="col-sm-4">
              <input {...bound('minutes')} type="number" min={5} step={5} data-testid="booking-minutes" />
            </Field>
            <BookingFreeSlots
              id={id}
              professionalId={values.professionalId}
              chairId={values.chairId}
              date={values.date}
              minutes={booking.minutes}
              timeZone={timeZone}
              language={language}
              onPick={booking.pickSlot}
            />
            <Field id={`${id}-reason`} label={t('fields.reason')} error={errors.reason}>
              <input {...bound('reason')} maxLength={200} data-testid="booking-reason" />
            </Field>
            <Field id={`${id}-notes`} label={t('fields.notes')} error={errors.notes}>
              <textarea {...bound('notes')} rows={2} maxLength={2000} />
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
