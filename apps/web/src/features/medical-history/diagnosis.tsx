import '../../lib/zod-setup';
import { diagnosisStatuses } from '@odontia/shared/enums';
import { createDiagnosisRequestSchema, updateDiagnosisRequestSchema } from '@odontia/shared/schemas/diagnoses';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { BoundFields, TextField } from '../../components/bound-fields';
import { useZodForm } from '../../lib/use-zod-form';
import { useClinicToday } from '../../session/clinic-time';
import {
  Fact,
  RecordDateAndProfessional,
  RecordFormCard,
  TextFact,
  useCalendarDate,
  useProfessional,
} from './form-bits';
import { formBackPath, RecordCard, type RecordFormProps, type RecordViewProps, useRecordSave } from './record-screens';
import { diagnosisStatusClass } from './records';
import { TeethPicker } from './teeth-picker';

/** A diagnosis of the medical history: its form and its read view (the screens are record-screens.tsx). */

export function DiagnosisForm(props: RecordFormProps<'diagnosis'>) {
  const { patientId, record } = props;
  const { t } = useTranslation('clinical');
  const professional = useProfessional(record);
  const today = useClinicToday();
  const editing = record !== null;
  const form = useZodForm(
    updateDiagnosisRequestSchema,
    {
      date: record?.date.slice(0, 10) ?? today,
      professionalId: record?.professionalId ?? professional.id,
      text: record?.text ?? '',
      icd10Code: record?.icd10Code ?? '',
      teeth: record?.teeth ?? [],
      status: record?.status ?? 'active',
      notes: record?.notes ?? '',
      version: record?.version ?? 1,
    },
    { validateWith: editing ? undefined : createDiagnosisRequestSchema },
  );
  const save = useRecordSave('diagnosis', props, form.formErrors);
  const onSubmit = form.submit((values) => save(values, form.setError));
  const { isSubmitting, isDirty } = form.formState;
  return (
    <RecordFormCard
      ref={form.formErrors.ref}
      onSubmit={onSubmit}
      testId="diagnosis-form"
      backTo={formBackPath('diagnosis', patientId, record)}
      editing={editing}
      isSubmitting={isSubmitting}
      isDirty={isDirty}
    >
      <RecordDateAndProfessional form={form} professional={professional} professionalColumn="col-sm-6 col-lg-5" />
      <BoundFields
        form={form}
        fields={[
          {
            name: 'status',
            label: t('fields.status'),
            options: diagnosisStatuses.map((status) => ({ value: status, label: t(`statuses.${status}`) })),
            className: 'col-sm-6 col-lg-4',
          },
          { name: 'text', label: t('fields.text'), rows: 3, required: true, className: 'col-lg-9' },
          {
            name: 'icd10Code',
            label: t('fields.icd10Code'),
            hint: t('diagnosis.icd10Hint'),
            inputClassName: 'text-uppercase',
            maxLength: 10,
            className: 'col-sm-6 col-lg-3',
          },
        ]}
      />
      <div className="col-12">
        <span className="form-label d-block" id="diagnosis-teeth-label">
          {t('fields.teeth')}
        </span>
        <Controller
          control={form.control}
          name="teeth"
          render={({ field }) => (
            <TeethPicker id="diagnosis-teeth" value={field.value ?? []} onChange={field.onChange} />
          )}
        />
      </div>
      <div className="col-12">
        <TextField form={form} name="notes" label={t('fields.notes')} rows={3} />
      </div>
    </RecordFormCard>
  );
}

export function DiagnosisView(props: RecordViewProps<'diagnosis'>) {
  const { record } = props;
  const { t } = useTranslation('clinical');
  const date = useCalendarDate();
  return (
    <RecordCard
      {...props}
      kind="diagnosis"
      description={record.text}
      status={
        <span className={`badge ${diagnosisStatusClass(record.status)}`} data-testid="record-status">
          {t(`statuses.${record.status}`)}
        </span>
      }
    >
      <dl className="clinical-facts mb-0">
        <Fact label={t('fields.date')} testId="record-date">
          {date(record.date)}
        </Fact>
        <Fact label={t('fields.professional')}>{record.professionalName}</Fact>
        <Fact label={t('fields.icd10Code')} testId="record-icd10">
          {record.icd10Code}
        </Fact>
        <Fact label={t('fields.teeth')} testId="record-teeth">
          {record.teeth.length ? record.teeth.join(', ') : null}
        </Fact>
        <Fact label={t('fields.text')} wide testId="record-text">
          <span className="text-prewrap">{record.text}</span>
        </Fact>
        <TextFact label={t('fields.notes')} text={record.notes} />
      </dl>
    </RecordCard>
  );
}
