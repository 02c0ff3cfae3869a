import { clinicDayRange, clinicToday } from '@odontia/shared/clinic-time';
import { useTranslation } from 'react-i18next';
import { useFreeSlots } from '../appointments/api';
import type { useChairs, useTreatments } from './api';
import { type Errors, Field } from './booking-patient';

/** The booking's professional, chair (when the clinic has chairs) and treatment (when it has any). */
export function BookingResources({
  id,
  values,
  errors,
  professionals,
  chairs,
  treatments,
  set,
}: {
  id: string;
  values: { professionalId: string; chairId: string; treatmentId: string };
  errors: Errors;
  professionals: { id: string; completeName: string }[];
  chairs: NonNullable<ReturnType<typeof useChairs>['data']>;
  treatments: NonNullable<ReturnType<typeof useTreatments>['data']>;
  set: (name: 'professionalId' | 'chairId' | 'treatmentId', value: string) => void;
}) {
  const { t } = useTranslation('agenda');
  const invalid = (name: string) => (errors[name] ? 'is-invalid' : '');
  return (
    <>
      <Field
        id={`${id}-professionalId`}
        label={t('fields.professional')}
        error={errors.professionalId}
        className="col-sm-6"
      >
        <select
          id={`${id}-professionalId`}
          className={`form-select ${invalid('professionalId')}`}
          aria-describedby={errors.professionalId ? `${id}-professionalId-error` : undefined}
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
        <Field id={`${id}-treatmentId`} label={t('fields.treatment')} error={errors.treatmentId} className="col-sm-6">
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
    </>
  );
}

/** The next free times from the day chosen (the server starts them no earlier than now), to pick one. */
export function BookingFreeSlots({
  id,
  professionalId,
  chairId,
  date,
  minutes,
  timeZone,
  language,
  onPick,
}: {
  id: string;
  professionalId: string;
  chairId: string;
  date: string;
  minutes: number;
  timeZone: string;
  language: string;
  onPick: (slot: { startsAt: string; professionalId: string }) => void;
}) {
  const { t } = useTranslation('agenda');
  const validDate = /^\d{4}-\d{2}-\d{2}$/.test(date) ? date : clinicToday(timeZone);
  const freeFrom = clinicDayRange(timeZone, validDate).start.toISOString();
  const freeSlots = useFreeSlots(
    {
      professionalId: professionalId || undefined,
      chairId: chairId || undefined,
      durationMinutes: minutes,
      from: freeFrom,
      limit: 6,
    },
    minutes >= 5,
  );
  const slotTime = new Intl.DateTimeFormat(language, {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    timeZone,
  });
  const freeDay = new Intl.DateTimeFormat(language, { day: 'numeric', month: 'long', timeZone }).format(
    new Date(freeFrom),
  );
  return (
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
                onClick={() => onPick(slot)}
              >
                {slotTime.format(new Date(slot.startsAt))}
                {professionalId ? '' : ` · ${slot.professionalName}`}
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
  );
}
