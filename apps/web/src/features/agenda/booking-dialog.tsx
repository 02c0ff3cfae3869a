import '../../lib/zod-setup';
import { instantOfClinicWallTime } from '@odontia/shared/clinic-time';
import { CalendarPlus } from 'lucide-react';
import { type FormEvent, useId } from 'react';
import Modal from 'react-bootstrap/Modal';
import { useTranslation } from 'react-i18next';
import { BusyIcon } from '../../components/busy-icon';
import { FormAlert } from '../../components/form-feedback';
import { useProfessionals } from '../medical-history/api';
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
  const {
    editing,
    timeZone,
    language,
    values,
    set,
    pickSlot,
    minutes,
    patient,
    setPatient,
    creating,
    setCreating,
    errors,
    outside,
    overlap,
    past,
    pending,
    submit,
    confirmPast,
  } = useBookingForm(draft, treatments, onClose);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void submit(false);
  };
  const titleId = `${id}-title`;
  const pastStart = instantOfClinicWallTime(`${values.date}T${values.time}`, timeZone);
  const pastWhen = pastStart
    ? new Intl.DateTimeFormat(language, { dateStyle: 'full', timeStyle: 'short', timeZone }).format(pastStart)
    : '';
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
                onClick={confirmPast}
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
            <BookingFreeSlots
              id={id}
              professionalId={values.professionalId}
              chairId={values.chairId}
              date={values.date}
              minutes={minutes}
              timeZone={timeZone}
              language={language}
              onPick={pickSlot}
            />
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
