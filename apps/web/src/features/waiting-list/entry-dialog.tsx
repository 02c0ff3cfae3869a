import '../../lib/zod-setup';
import { maxWaitingTimeRanges, waitingListContracts } from '@odontia/shared/schemas/waiting-list';
import { Plus, X } from 'lucide-react';
import { useId, useState } from 'react';
import { useController, useFieldArray } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { SelectField, TextField } from '../../components/bound-fields';
import { FormDialog } from '../../components/dialog-frame';
import { FieldFeedback } from '../../components/form-feedback';
import { FieldLabel, fieldCodeText, inputClass } from '../../components/form-field';
import { IconButton, IconTextButton } from '../../components/icon-button';
import { saveRecordDialog } from '../../lib/save-record-dialog';
import { useZodForm } from '../../lib/use-zod-form';
import { useTreatments } from '../agenda/api';
import { PatientPicker } from '../agenda/booking-patient';
import { displayedWeekdays } from '../schedules/week-editor';
import { useProfessionals } from '../users/professionals';
import { useAddToWaitingList } from './api';

type Values = z.input<typeof waitingListContracts.create>;

const blank: Values = {
  patientId: '',
  treatmentId: '',
  professionalId: '',
  weekdays: [],
  timeRanges: [],
  until: '',
  priority: 'normal',
  notes: '',
};

/** No box ticked is no day (react-hook-form answers `false` for an unticked group). */
const prepare = (values: Values): Values => ({
  ...values,
  weekdays: Array.isArray(values.weekdays) ? values.weekdays : [],
});

/**
 * Put a patient on the waiting list (issue 38): the patient (searched as in the agenda's booking
 * dialog), the treatment (its duration decides which freed times fit), a professional or any,
 * the preferred weekdays and times (none: any), the last day and the priority.
 */
export function EntryDialog({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation(['agenda', 'schedules', 'common']);
  const id = useId();
  const save = useAddToWaitingList();
  const treatments = useTreatments();
  const professionals = useProfessionals();
  const form = useZodForm(waitingListContracts.create, blank, { prepare });
  const patient = useController({ control: form.control, name: 'patientId' });
  const [picked, setPicked] = useState<{ id: string; name: string } | null>(null);
  const ranges = useFieldArray({ control: form.control, name: 'timeRanges' });
  const onSubmit = form.submit(async (values) => {
    await saveRecordDialog(form, {
      save: () => save.mutateAsync(values),
      valuesOf: () => blank,
      onDone,
      onConflict: () => undefined,
      place: { fields: Object.keys(blank) },
    });
  });
  const busy = form.formState.isSubmitting;
  const patientError = form.formState.errors.patientId?.message;
  return (
    <FormDialog
      ref={form.formErrors.ref}
      onHide={onDone}
      onSubmit={(event) => void onSubmit(event)}
      testId="waiting-entry-form"
      title={t('waitingList.add')}
      closeLabel={t('common:close')}
      cancelLabel={t('waitingList.cancel')}
      submit={{ label: t('waitingList.save'), busy, disabled: busy, testId: 'waiting-entry-save' }}
      size="lg"
      scrollable
    >
      <fieldset disabled={busy} className="row g-3">
        <div className="col-12" data-testid="waiting-entry-patient">
          <label htmlFor={`${id}-patient`} className="form-label">
            <FieldLabel text={t('waitingList.patient')} required />
          </label>
          <PatientPicker
            inputId={`${id}-patient`}
            picked={picked}
            error={patientError ? fieldCodeText(patientError) : undefined}
            onPick={(chosen) => {
              setPicked(chosen);
              patient.field.onChange(chosen?.id ?? '');
            }}
          />
        </div>
        <SelectField
          form={form}
          name="treatmentId"
          label={t('waitingList.treatment')}
          required
          className="col-md-6"
          data-testid="waiting-entry-treatment"
          options={[
            { value: '', label: t('choose') },
            ...(treatments.data ?? []).map((treatment) => ({
              value: treatment.id,
              label: t('waitingList.treatmentOption', { name: treatment.name, minutes: treatment.durationMinutes }),
            })),
          ]}
        />
        <SelectField
          form={form}
          name="professionalId"
          label={t('waitingList.professional')}
          className="col-md-6"
          data-testid="waiting-entry-professional"
          options={[
            { value: '', label: t('waitingList.anyProfessional') },
            ...(professionals.data ?? []).map((professional) => ({
              value: professional.id,
              label: professional.completeName,
            })),
          ]}
        />
        <fieldset className="col-12" aria-describedby={`${id}-days-hint`}>
          <legend className="form-label fs-6 mb-1">{t('waitingList.weekdays')}</legend>
          <p id={`${id}-days-hint`} className="form-text mt-0 mb-1">
            {t('waitingList.weekdaysHint')}
          </p>
          <div className="d-flex flex-wrap gap-3">
            {displayedWeekdays.map((day) => (
              <div className="form-check" key={day}>
                <input
                  id={`${id}-${day}`}
                  type="checkbox"
                  className="form-check-input"
                  value={day}
                  {...form.register('weekdays')}
                />
                <label htmlFor={`${id}-${day}`} className="form-check-label">
                  {t(`schedules:weekdays.${day}`)}
                </label>
              </div>
            ))}
          </div>
        </fieldset>
        <fieldset className="col-12">
          <legend className="form-label fs-6 mb-1">{t('waitingList.times')}</legend>
          <p className="form-text mt-0 mb-1">{t('waitingList.timesHint')}</p>
          {ranges.fields.map((range, index) => {
            const fromError = form.formState.errors.timeRanges?.[index]?.from?.message;
            const toError = form.formState.errors.timeRanges?.[index]?.to?.message;
            const label = t('waitingList.range', { number: index + 1 });
            return (
              <div className="mb-2" key={range.id} data-testid="waiting-entry-range">
                <div className="d-flex align-items-end gap-2">
                  <div>
                    <label htmlFor={`${id}-from-${index}`} className="form-label small mb-0">
                      {t('waitingList.from')} <span className="visually-hidden">({label})</span>
                    </label>
                    <input
                      id={`${id}-from-${index}`}
                      type="time"
                      className={inputClass(fromError)}
                      aria-invalid={fromError ? true : undefined}
                      aria-describedby={(toError ?? fromError) ? `${id}-range-${index}-error` : undefined}
                      {...form.register(`timeRanges.${index}.from`)}
                    />
                  </div>
                  <div>
                    <label htmlFor={`${id}-to-${index}`} className="form-label small mb-0">
                      {t('waitingList.to')} <span className="visually-hidden">({label})</span>
                    </label>
                    <input
                      id={`${id}-to-${index}`}
                      type="time"
                      className={inputClass(toError)}
                      aria-invalid={toError ? true : undefined}
                      aria-describedby={(toError ?? fromError) ? `${id}-range-${index}-error` : undefined}
                      {...form.register(`timeRanges.${index}.to`)}
                    />
                  </div>
                  <IconButton
                    icon={X}
                    label={t('waitingList.removeRange', { number: index + 1 })}
                    onClick={() => ranges.remove(index)}
                  />
                </div>
                <FieldFeedback id={`${id}-range-${index}-error`} message={fieldCodeText(toError ?? fromError)} />
              </div>
            );
          })}
          {ranges.fields.length < maxWaitingTimeRanges ? (
            <IconTextButton
              icon={Plus}
              small
              className="btn btn-sm btn-outline-secondary"
              onClick={() => ranges.append({ from: '09:00', to: '13:00' })}
              testId="waiting-entry-add-range"
            >
              {t('waitingList.addRange')}
            </IconTextButton>
          ) : null}
        </fieldset>
        <TextField form={form} name="until" type="date" label={t('waitingList.until')} className="col-md-6" />
        <SelectField
          form={form}
          name="priority"
          label={t('waitingList.priority')}
          className="col-md-6"
          options={['normal', 'high'].map((value) => ({ value, label: t(`waitingList.priorities.${value}`) }))}
        />
        <TextField form={form} name="notes" label={t('waitingList.notes')} rows={2} className="col-12" />
      </fieldset>
    </FormDialog>
  );
}
