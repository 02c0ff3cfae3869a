import '../auth/zod-setup';
import { attendanceGroupOf, type LaboratoryStudy, laboratoryStatuses, laboratoryStudies } from '@odontia/shared/enums';
import {
  createLaboratoryRequestSchema,
  type UpdateLaboratoryRequest,
  updateLaboratoryRequestSchema,
} from '@odontia/shared/schemas/laboratories';
import { useId } from 'react';
import { useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { fieldError, SelectField, TextField } from '../../components/bound-fields';
import { FieldFeedback } from '../../components/form-feedback';
import { FieldLabel, fieldCodeText } from '../../components/form-field';
import { PdfButton } from '../../components/pdf-button';
import { RecordForm } from '../../components/record-form';
import { useZodForm } from '../../lib/use-zod-form';
import { useClinicToday } from '../auth/clinic-time';
import { DateField } from '../profile/date-input';
import { clinicalApi } from './api';
import { Fact, FormActions, ProfessionalField, useCalendarDate, useProfessional } from './form-bits';
import { formBackPath, RecordCard, type RecordFormProps, type RecordViewProps, useRecordSave } from './record-screens';
import { laboratoryStatusClass } from './records';

/** The studies as the order groups them: laboratory, then imaging. */
export const studyGroups: { key: 'laboratory' | 'imaging'; studies: LaboratoryStudy[] }[] = [
  { key: 'laboratory', studies: laboratoryStudies.filter((study) => attendanceGroupOf[study] === 'laboratory') },
  { key: 'imaging', studies: laboratoryStudies.filter((study) => attendanceGroupOf[study] !== 'laboratory') },
];

/** Checkbox groups give `false` when none is ticked: the schema wants a list. */
const normalise = (value: UpdateLaboratoryRequest): UpdateLaboratoryRequest => {
  const values = { ...value };
  const studies: unknown = values.studies;
  if (!Array.isArray(studies)) values.studies = studies ? [studies as LaboratoryStudy] : [];
  // The result belongs to a received result only (the fields are hidden otherwise).
  if (values.status !== 'result_received') {
    values.resultDate = '';
    values.result = '';
  }
  return values;
};

export function LaboratoryForm(props: RecordFormProps<'laboratory'>) {
  const { patientId, record } = props;
  const { t } = useTranslation('clinical');
  const id = useId();
  const professional = useProfessional(record);
  const today = useClinicToday();
  const editing = record !== null;
  const form = useZodForm(
    updateLaboratoryRequestSchema,
    {
      orderDate: record?.orderDate.slice(0, 10) ?? today,
      professionalId: record?.professionalId ?? professional.id,
      laboratoryName: record?.laboratoryName ?? '',
      studies: record?.studies ?? [],
      instructions: record?.instructions ?? '',
      notes: record?.notes ?? '',
      status: record?.status ?? 'ordered',
      resultDate: record?.resultDate?.slice(0, 10) ?? '',
      result: record?.result ?? '',
      version: record?.version ?? 1,
    },
    { prepare: normalise, validateWith: editing ? undefined : createLaboratoryRequestSchema },
  );
  const save = useRecordSave('laboratory', props, form.formErrors);
  const onSubmit = form.submit((values) => save(values, form.setError));
  const { isSubmitting, isDirty } = form.formState;
  const received = useWatch({ control: form.control, name: 'status' }) === 'result_received';
  const fieldId = (name: string) => `${id}-${name}`;
  const studiesMessage = fieldError(form, 'studies');
  return (
    <RecordForm ref={form.formErrors.ref} onSubmit={onSubmit} testId="laboratory-form">
      <fieldset disabled={isSubmitting} className="card mb-0">
        <div className="card-body">
          <div className="row g-3">
            <div className="col-sm-6 col-lg-3">
              <DateField form={form} name="orderDate" label={t('fields.orderDate')} required />
            </div>
            <div className="col-sm-6 col-lg-4">
              <ProfessionalField form={form} initial={professional} />
            </div>
            <div className="col-lg-5">
              <TextField form={form} name="laboratoryName" label={t('fields.laboratoryName')} required />
            </div>
            <div className="col-12">
              <fieldset aria-describedby={studiesMessage ? `${fieldId('studies')}-error` : undefined}>
                <legend className="form-label fs-6 mb-1">
                  <FieldLabel text={t('fields.studies')} required />
                </legend>
                <div className="study-groups">
                  {studyGroups.map((group) => (
                    <div key={group.key} className="study-group" data-testid={`studies-${group.key}`}>
                      <div className="small fw-semibold text-body-secondary mb-1">
                        {t(`laboratory.groups.${group.key}`)}
                      </div>
                      {group.studies.map((study) => (
                        <div className="form-check" key={study}>
                          <input
                            {...form.register('studies')}
                            type="checkbox"
                            value={study}
                            id={fieldId(`study-${study}`)}
                            className={`form-check-input${studiesMessage ? ' is-invalid' : ''}`}
                          />
                          <label className="form-check-label" htmlFor={fieldId(`study-${study}`)}>
                            {t(`attendanceTypes.${study}`)}
                          </label>
                        </div>
                      ))}
                    </div>
                  ))}
                </div>
                <FieldFeedback id={`${fieldId('studies')}-error`} message={fieldCodeText(studiesMessage)} />
              </fieldset>
            </div>
            <div className="col-lg-6">
              <TextField
                form={form}
                name="instructions"
                label={t('fields.instructions')}
                hint={t('laboratory.instructionsHint')}
                rows={3}
              />
            </div>
            <div className="col-lg-6">
              <TextField form={form} name="notes" label={t('fields.notes')} hint={t('laboratory.notesHint')} rows={3} />
            </div>
            <div className="col-sm-6 col-lg-4">
              <SelectField
                form={form}
                name="status"
                label={t('fields.status')}
                options={laboratoryStatuses.map((value) => ({ value, label: t(`laboratory.statuses.${value}`) }))}
              />
            </div>
            {received ? (
              <>
                <div className="col-sm-6 col-lg-4">
                  <DateField form={form} name="resultDate" label={t('fields.resultDate')} required />
                </div>
                <div className="col-12">
                  <TextField form={form} name="result" label={t('fields.result')} rows={5} />
                </div>
              </>
            ) : null}
          </div>
        </div>
      </fieldset>
      <FormActions
        backTo={formBackPath('laboratory', patientId, record)}
        editing={editing}
        submitting={isSubmitting}
        disabled={isSubmitting || (editing && !isDirty)}
      />
    </RecordForm>
  );
}

export function LaboratoryView(props: RecordViewProps<'laboratory'>) {
  const { patientId, record } = props;
  const { t } = useTranslation('clinical');
  const date = useCalendarDate();
  return (
    <RecordCard
      {...props}
      kind="laboratory"
      description={record.laboratoryName}
      status={
        <span className={`badge ${laboratoryStatusClass(record.status)}`} data-testid="record-status">
          {t(`laboratory.statuses.${record.status}`)}
        </span>
      }
      actions={
        <PdfButton
          load={() => clinicalApi.orderPdf(patientId, record.id)}
          fallbackName="orden-laboratorio.pdf"
          label={t('laboratory.print')}
          testId="print-order"
        />
      }
    >
      <dl className="clinical-facts mb-0">
        <Fact label={t('fields.orderDate')} testId="record-date">
          {date(record.orderDate)}
        </Fact>
        <Fact label={t('fields.professional')}>{record.professionalName}</Fact>
        <Fact label={t('fields.laboratoryName')} testId="record-laboratory">
          {record.laboratoryName}
        </Fact>
        <Fact label={t('fields.studies')} wide testId="record-studies">
          {record.studies.map((study) => t(`attendanceTypes.${study}`)).join(', ')}
        </Fact>
        <Fact label={t('fields.instructions')} wide>
          {record.instructions ? <span className="text-prewrap">{record.instructions}</span> : null}
        </Fact>
        <Fact label={t('fields.notes')} wide>
          {record.notes ? <span className="text-prewrap">{record.notes}</span> : null}
        </Fact>
        <Fact label={t('fields.resultDate')} testId="record-result-date">
          {date(record.resultDate)}
        </Fact>
        <Fact label={t('fields.result')} wide testId="record-result">
          {record.result ? <span className="text-prewrap">{record.result}</span> : null}
        </Fact>
      </dl>
    </RecordCard>
  );
}
