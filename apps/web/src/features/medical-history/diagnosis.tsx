import '../auth/zod-setup';
import { diagnosisStatuses } from '@odontia/shared/enums';
import {
  createDiagnosisRequestSchema,
  type Diagnosis,
  updateDiagnosisRequestSchema,
} from '@odontia/shared/schemas/diagnoses';
import { useId, useState } from 'react';
import { Controller, type FieldValues, type Resolver, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { z } from 'zod';
import { describedField, FieldLabel, FormField, inputClass } from '../../components/form-field';
import { toastSuccess } from '../../lib/api-toast';
import { formResolver, useFormErrors } from '../../lib/form-errors';
import { keepEnterInForm } from '../../lib/form-keys';
import { queryClient } from '../../lib/query-client';
import { useClinicToday } from '../auth/clinic-time';
import { DateInput } from '../profile/date-input';
import { historyPath, recordKey, recordPaths, useSaveRecord } from './api';
import { ClinicalFrame, ReadOnlyNotice, RecordLoader, RecordStamps, useCanWriteClinical } from './clinical-frame';
import {
  ConflictAlert,
  DeleteRecordButton,
  EditLink,
  Fact,
  FormActions,
  isVersionConflict,
  ProfessionalSelect,
  toastSaveError,
  useCalendarDate,
  useProfessional,
} from './form-bits';
import { RecordChanges } from './record-changes';
import { TeethPicker } from './teeth-picker';

interface DiagnosisValues {
  date: string;
  professionalId: string;
  text: string;
  icd10Code: string;
  teeth: number[];
  status: (typeof diagnosisStatuses)[number];
  notes: string;
  version: number;
}

function valuesOf(record: Diagnosis | null, professionalId: string, today: string): DiagnosisValues {
  return {
    date: record?.date.slice(0, 10) ?? today,
    professionalId: record?.professionalId ?? professionalId,
    text: record?.text ?? '',
    icd10Code: record?.icd10Code ?? '',
    teeth: record?.teeth ?? [],
    status: record?.status ?? 'active',
    notes: record?.notes ?? '',
    version: record?.version ?? 1,
  };
}

function DiagnosisForm({
  patientId,
  record,
  onConflict,
}: {
  patientId: string;
  record: Diagnosis | null;
  onConflict?: (current: Diagnosis | null) => void;
}) {
  const { t } = useTranslation('clinical');
  const id = useId();
  const navigate = useNavigate();
  const professional = useProfessional(record);
  const today = useClinicToday();
  const save = useSaveRecord('diagnosis', patientId, record?.id);
  const editing = record !== null;
  const formErrors = useFormErrors();
  const {
    register,
    handleSubmit,
    setError,
    control,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<DiagnosisValues>({
    resolver: formResolver(
      (editing ? updateDiagnosisRequestSchema : createDiagnosisRequestSchema) as unknown as z.ZodType<
        FieldValues,
        FieldValues
      >,
    ) as unknown as Resolver<DiagnosisValues>,
    defaultValues: valuesOf(record, professional.id, today),
  });

  const onSubmit = handleSubmit(async (values) => {
    try {
      const answer = await save.mutateAsync(values);
      if (answer.code) toastSuccess(answer.code);
      void navigate(recordPaths.show('diagnosis', patientId, answer.data.id), { replace: editing });
    } catch (error) {
      if (isVersionConflict(error) && onConflict) {
        onConflict((error.details?.current as Diagnosis | undefined) ?? null);
        return;
      }
      if (!formErrors.place(error, setError)) toastSaveError(error);
    }
  }, formErrors.onInvalid);

  const fieldId = (name: string) => `${id}-${name}`;
  return (
    <form
      ref={formErrors.ref}
      noValidate
      onSubmit={(event) => void onSubmit(event)}
      onKeyDown={keepEnterInForm}
      data-testid="diagnosis-form"
    >
      <fieldset disabled={isSubmitting} className="card mb-0">
        <div className="card-body">
          <div className="row g-3">
            <div className="col-sm-6 col-lg-3">
              <FormField
                id={fieldId('date')}
                label={<FieldLabel text={t('fields.date')} required />}
                error={errors.date?.message}
                className="mb-0"
              >
                <DateInput
                  {...register('date')}
                  {...describedField(fieldId('date'), errors.date?.message)}
                  className={inputClass(errors.date?.message)}
                />
              </FormField>
            </div>
            <div className="col-sm-6 col-lg-5">
              <ProfessionalSelect
                id={fieldId('professional')}
                initial={professional}
                registration={register('professionalId')}
                error={errors.professionalId?.message}
              />
            </div>
            <div className="col-sm-6 col-lg-4">
              <FormField
                id={fieldId('status')}
                label={t('fields.status')}
                error={errors.status?.message}
                className="mb-0"
              >
                <select {...register('status')} id={fieldId('status')} className="form-select">
                  {diagnosisStatuses.map((status) => (
                    <option key={status} value={status}>
                      {t(`statuses.${status}`)}
                    </option>
                  ))}
                </select>
              </FormField>
            </div>
            <div className="col-lg-9">
              <FormField
                id={fieldId('text')}
                label={<FieldLabel text={t('fields.text')} required />}
                error={errors.text?.message}
                className="mb-0"
              >
                <textarea
                  {...register('text')}
                  {...describedField(fieldId('text'), errors.text?.message)}
                  rows={3}
                  className={inputClass(errors.text?.message)}
                  aria-required
                />
              </FormField>
            </div>
            <div className="col-sm-6 col-lg-3">
              <FormField
                id={fieldId('icd10Code')}
                label={t('fields.icd10Code')}
                error={errors.icd10Code?.message}
                hint={t('diagnosis.icd10Hint')}
                className="mb-0"
              >
                <input
                  {...register('icd10Code')}
                  {...describedField(fieldId('icd10Code'), errors.icd10Code?.message, true)}
                  className={`${inputClass(errors.icd10Code?.message)} text-uppercase`}
                  autoComplete="off"
                  maxLength={10}
                />
              </FormField>
            </div>
            <div className="col-12">
              <span className="form-label d-block" id={`${fieldId('teeth')}-label`}>
                {t('fields.teeth')}
              </span>
              <Controller
                control={control}
                name="teeth"
                render={({ field }) => (
                  <TeethPicker id={fieldId('teeth')} value={field.value} onChange={field.onChange} />
                )}
              />
            </div>
            <div className="col-12">
              <FormField id={fieldId('notes')} label={t('fields.notes')} error={errors.notes?.message} className="mb-0">
                <textarea
                  {...register('notes')}
                  {...describedField(fieldId('notes'), errors.notes?.message)}
                  rows={3}
                  className={inputClass(errors.notes?.message)}
                />
              </FormField>
            </div>
          </div>
        </div>
      </fieldset>
      <FormActions
        backTo={editing ? recordPaths.show('diagnosis', patientId, record.id) : historyPath(patientId, 'diagnoses')}
        editing={editing}
        submitting={isSubmitting}
        disabled={isSubmitting || (editing && !isDirty)}
      />
    </form>
  );
}

/** `…/mh/diagnosis/new` */
export function NewDiagnosis({ patientId }: { patientId: string }) {
  const { t } = useTranslation('common');
  const canWrite = useCanWriteClinical();
  return (
    <ClinicalFrame patientId={patientId} kind="diagnosis" title={t('pages.diagnosisNew')} testId="diagnosis-new">
      {() => (canWrite ? <DiagnosisForm patientId={patientId} record={null} /> : <ReadOnlyNotice />)}
    </ClinicalFrame>
  );
}

function EditDiagnosisForm({ patientId, record }: { patientId: string; record: Diagnosis }) {
  const [conflict, setConflict] = useState<{ current: Diagnosis | null } | null>(null);
  return (
    <>
      {conflict ? <ConflictAlert current={conflict.current} /> : null}
      <DiagnosisForm
        key={record.version}
        patientId={patientId}
        record={record}
        onConflict={(current) => {
          setConflict({ current });
          if (current) queryClient.setQueryData(recordKey('diagnosis', patientId, record.id), current);
          else void queryClient.invalidateQueries({ queryKey: recordKey('diagnosis', patientId, record.id) });
        }}
      />
    </>
  );
}

/** `…/mh/diagnosis/edit/:id_diagnosis` */
export function EditDiagnosis({ patientId, id }: { patientId: string; id: string }) {
  const { t } = useTranslation('common');
  const canWrite = useCanWriteClinical();
  return (
    <ClinicalFrame patientId={patientId} kind="diagnosis" title={t('pages.diagnosisEdit')} testId="diagnosis-edit">
      {() =>
        canWrite ? (
          <RecordLoader kind="diagnosis" patientId={patientId} id={id}>
            {(record) => <EditDiagnosisForm patientId={patientId} record={record} />}
          </RecordLoader>
        ) : (
          <ReadOnlyNotice />
        )
      }
    </ClinicalFrame>
  );
}

function DiagnosisView({ patientId, record, canWrite }: { patientId: string; record: Diagnosis; canWrite: boolean }) {
  const { t } = useTranslation('clinical');
  const date = useCalendarDate();
  return (
    <>
      <section className="card mb-0" data-testid="diagnosis-view">
        <div className="card-body d-flex flex-column gap-3">
          <div className="d-flex flex-wrap gap-2 align-items-center">
            <span
              className={`badge ${record.status === 'active' ? 'text-bg-warning' : 'text-bg-success'}`}
              data-testid="record-status"
            >
              {t(`statuses.${record.status}`)}
            </span>
            {canWrite ? (
              <div className="ms-auto d-flex gap-2 flex-wrap">
                <DeleteRecordButton kind="diagnosis" patientId={patientId} id={record.id} description={record.text} />
                <EditLink kind="diagnosis" patientId={patientId} id={record.id} />
              </div>
            ) : null}
          </div>
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
            <Fact label={t('fields.notes')} wide>
              {record.notes ? <span className="text-prewrap">{record.notes}</span> : null}
            </Fact>
          </dl>
          <RecordStamps record={record} />
        </div>
      </section>
      <RecordChanges
        kind="diagnosis"
        patientId={patientId}
        id={record.id}
        names={{ [record.professionalId]: record.professionalName }}
      />
    </>
  );
}

/** `…/mh/diagnosis/show/:id_diagnosis` */
export function ShowDiagnosis({ patientId, id }: { patientId: string; id: string }) {
  const { t } = useTranslation('common');
  const canWrite = useCanWriteClinical();
  return (
    <ClinicalFrame patientId={patientId} kind="diagnosis" title={t('pages.diagnosisShow')} testId="diagnosis-show">
      {() => (
        <RecordLoader kind="diagnosis" patientId={patientId} id={id}>
          {(record) => <DiagnosisView patientId={patientId} record={record} canWrite={canWrite} />}
        </RecordLoader>
      )}
    </ClinicalFrame>
  );
}
