import {
  type OnlineBookingSettings,
  onlineBookingBounds,
  updateOnlineBookingSettingsSchema,
} from '@odontia/shared/schemas/online-booking';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { FieldGrid } from '../../components/bound-fields';
import { FormAlert } from '../../components/form-feedback';
import { SettingsRecordForm, SettingsSection } from '../../components/settings-page-frame';
import { SwitchField } from '../../components/switch-field';
import { useVersionedSubmit } from '../../lib/use-versioned-submit';
import { useZodForm } from '../../lib/use-zod-form';
import { useOnlineBookingSettings, useSaveOnlineBookingSettings } from './api';

/*
 * The settings page's "Online booking" section (issue 37): on or off, which price-list treatments
 * (each for its duration) and which professionals patients may book, and the rules that narrow the
 * agenda's free slots — lead time, horizon, pending bookings per patient, new patients, and the
 * window to confirm, cancel or reschedule online. Saved on its own (PUT /api/settings/online-booking).
 */

function valuesOf(data: OnlineBookingSettings) {
  return {
    enabled: data.enabled,
    treatmentIds: data.treatmentIds,
    professionalIds: data.professionalIds,
    leadHours: String(data.leadHours),
    horizonDays: String(data.horizonDays),
    maxPending: String(data.maxPending),
    newPatients: data.newPatients,
    changeHours: String(data.changeHours),
    version: data.version,
  };
}

function ChoiceList({
  legend,
  options,
  input,
  testId,
}: {
  legend: string;
  options: { id: string; label: string }[];
  input: ReturnType<ReturnType<typeof useZodForm>['register']>;
  testId: string;
}) {
  const id = useId();
  return (
    <fieldset className="col-md-6" data-testid={testId}>
      <legend className="form-label fs-6">{legend}</legend>
      {options.map((option) => (
        <div className="form-check" key={option.id}>
          <input {...input} id={`${id}-${option.id}`} type="checkbox" value={option.id} className="form-check-input" />
          <label htmlFor={`${id}-${option.id}`} className="form-check-label">
            {option.label}
          </label>
        </div>
      ))}
    </fieldset>
  );
}

function OnlineBookingForm({ data }: { data: OnlineBookingSettings }) {
  const { t } = useTranslation('settings');
  const id = useId();
  const save = useSaveOnlineBookingSettings();
  const form = useZodForm(updateOnlineBookingSettingsSchema, valuesOf(data));
  const { saveVersioned, conflict } = useVersionedSubmit(
    form,
    save.mutateAsync,
    valuesOf,
    'online_booking_settings_updated',
  );
  const number = (name: 'leadHours' | 'horizonDays' | 'maxPending' | 'changeHours') => ({
    name,
    label: t(`onlineBooking.fields.${name}`),
    hint: t(`onlineBooking.hints.${name}`, onlineBookingBounds[name]),
    required: true,
    type: 'number' as const,
    inputMode: 'numeric' as const,
    min: onlineBookingBounds[name].min,
    max: onlineBookingBounds[name].max,
    className: 'col-md-6',
    testId: `online-booking-${name}`,
  });
  return (
    <SettingsRecordForm
      ref={form.formErrors.ref}
      onSubmit={form.submit(saveVersioned)}
      prefix="online-booking"
      busy={save.isPending}
      conflict={conflict ? t('conflict') : null}
      saveLabel={t('actions.save')}
      savedAt={null}
    >
      <SettingsSection
        title={t('sections.onlineBooking')}
        intro={t('intros.onlineBooking')}
        testId="settings-online-booking"
      >
        <div className="row g-3">
          <div className="col-md-6">
            <SwitchField
              id={`${id}-enabled`}
              label={t('onlineBooking.fields.enabled')}
              input={form.register('enabled')}
              testId="online-booking-enabled"
            />
          </div>
          <div className="col-md-6">
            <SwitchField
              id={`${id}-new`}
              label={t('onlineBooking.fields.newPatients')}
              hint={t('onlineBooking.hints.newPatients')}
              input={form.register('newPatients')}
              testId="online-booking-newPatients"
            />
          </div>
          <ChoiceList
            legend={t('onlineBooking.fields.treatments')}
            options={data.treatments.map((row) => ({
              id: row.id,
              label: t('onlineBooking.treatmentOption', { name: row.name, minutes: row.durationMinutes }),
            }))}
            input={form.register('treatmentIds')}
            testId="online-booking-treatments"
          />
          <ChoiceList
            legend={t('onlineBooking.fields.professionals')}
            options={data.professionals.map((row) => ({ id: row.id, label: row.name }))}
            input={form.register('professionalIds')}
            testId="online-booking-professionals"
          />
        </div>
        {data.treatments.length === 0 ? <FormAlert>{t('onlineBooking.noTreatments')}</FormAlert> : null}
        <div className="mt-3">
          <FieldGrid
            form={form}
            fields={[number('leadHours'), number('horizonDays'), number('maxPending'), number('changeHours')]}
          />
        </div>
      </SettingsSection>
    </SettingsRecordForm>
  );
}

export function OnlineBookingSection() {
  const { t } = useTranslation('settings');
  const settings = useOnlineBookingSettings();
  if (settings.isPending) return <p className="text-body-secondary">{t('loading')}</p>;
  if (settings.isError) return <FormAlert>{t('loadError')}</FormAlert>;
  return <OnlineBookingForm key={settings.data.data.version} data={settings.data.data} />;
}
