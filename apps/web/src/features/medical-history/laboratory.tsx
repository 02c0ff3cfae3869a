import '../auth/zod-setup';
import { attendanceGroupOf, type LaboratoryStudy, laboratoryStatuses, laboratoryStudies } from '@odontia/shared/enums';
import {
  createLaboratoryRequestSchema,
  type Laboratory,
  updateLaboratoryRequestSchema,
} from '@odontia/shared/schemas/laboratories';
import { useId, useState } from 'react';
import { type FieldValues, type Resolver, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { z } from 'zod';
import { FieldFeedback } from '../../components/form-feedback';
import { describedField, FieldLabel, FormField, fieldCodeText, inputClass } from '../../components/form-field';
import { PdfButton } from '../../components/pdf-button';
import { toastSuccess } from '../../lib/api-toast';
import { formResolver, useFormErrors } from '../../lib/form-errors';
import { keepEnterInForm } from '../../lib/form-keys';
import { queryClient } from '../../lib/query-client';
import { useClinicToday } from '../auth/clinic-time';
import { DateInput } from '../profile/date-input';
import { clinicalApi, historyPath, recordKey, recordPaths, useSaveRecord } from './api';
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

/** The studies as the order groups them: laboratory, then imaging. */
export const studyGroups: { key: 'laboratory' | 'imaging'; studies: LaboratoryStudy[] }[] = [
  { key: 'laboratory', studies: laboratoryStudies.filter((study) => attendanceGroupOf[study] === 'laboratory') },
  { key: 'imaging', studies: laboratoryStudies.filter((study) => attendanceGroupOf[study] !== 'laboratory') },
];

interface LaboratoryValues {
  orderDate: string;
  professionalId: string;
  laboratoryName: string;
  studies: LaboratoryStudy[];
  instructions: string;
  notes: string;
  status: (typeof laboratoryStatuses)[number];
  resultDate: string;
  result: string;
  version: number;
}

function valuesOf(record: Laboratory | null, professionalId: string, today: string): LaboratoryValues {
  return {
    orderDate: record?.orderDate.slice(0, 10) ?? today,
    professionalId: record?.professionalId ?? professionalId,
    laboratoryName: record?.laboratoryName ?? '',
    studies: record?.studies ?? [],
    instructions: record?.instructions ?? '',
    notes: record?.notes ?? '',
    status: record?.status ?? 'ordered',
    resultDate: record?.resultDate?.slice(0, 10) ?? '',
    result: record?.result ?? '',
    version: record?.version ?? 1,
  };
}

/** Checkbox groups give `false` when none is ticked: the schema wants a list. */
const normalise = (value: unknown) => {
  if (!value || typeof value !== 'object') return value;
  const values = { ...(value as Record<string, unknown>) };
  if (!Array.isArray(values.studies)) values.studies = values.studies ? [values.studies] : [];
  // The result belongs to a received result only (the fields are hidden otherwise).
  if (values.status !== 'result_received') {
    values.resultDate = '';
    values.result = '';
  }
  return values;
};

export function statusClass(status: Laboratory['status']): string {
  if (status === 'result_received') return 'text-bg-success';
  if (status === 'sample_taken') return 'text-bg-info';
  return 'text-bg-secondary';
}

function LaboratoryForm({
  patientId,
  record,
  onConflict,
}: {
  patientId: string;
  record: Laboratory | null;
  onConflict?: (current: Laboratory | null) => void;
}) {
  const { t } = useTranslation('clinical');
  const id = useId();
  const navigate = useNavigate();
  const professional = useProfessional(record);
  const today = useClinicToday();
  const save = useSaveRecord('laboratory', patientId, record?.id);
  const editing = record !== null;
  const schema = editing ? updateLaboratoryRequestSchema : createLaboratoryRequestSchema;
  const formErrors = useFormErrors();
  const {
    register,
    handleSubmit,
    setError,
    control,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<LaboratoryValues>({
    resolver: ((values, context, options) =>
      formResolver(schema as unknown as z.ZodType<FieldValues, FieldValues>)(
        normalise(values) as FieldValues,
        context,
        options as never,
      )) as Resolver<LaboratoryValues>,
    defaultValues: valuesOf(record, professional.id, today),
  });
  const status = useWatch({ control, name: 'status' });
  const received = status === 'result_received';

  const onSubmit = handleSubmit(async (values) => {
    try {
      const answer = await save.mutateAsync(values);
      if (answer.code) toastSuccess(answer.code);
      void navigate(recordPaths.show('laboratory', patientId, answer.data.id), { replace: editing });
    } catch (error) {
      if (isVersionConflict(error) && onConflict) {
        onConflict((error.details?.current as Laboratory | undefined) ?? null);
        return;
      }
      if (!formErrors.place(error, setError)) toastSaveError(error);
    }
  }, formErrors.onInvalid);

  const fieldId = (name: string) => `${id}-${name}`;
  const text = (name: 'laboratoryName' | 'instructions' | 'notes' | 'result', rows?: number, required = false) => {
    const message = errors[name]?.message;
    return (
      <FormField
        id={fieldId(name)}
        label={<FieldLabel text={t(`fields.${name}`)} required={required} />}
        error={message}
        hint={
          name === 'instructions'
            ? t('laboratory.instructionsHint')
            : name === 'notes'
              ? t('laboratory.notesHint')
              : undefined
        }
        className="mb-0"
      >
        {rows ? (
          <textarea
            {...register(name)}
            {...describedField(fieldId(name), message, name === 'instructions' || name === 'notes')}
            rows={rows}
            className={inputClass(message)}
          />
        ) : (
          <input
            {...register(name)}
            {...describedField(fieldId(name), message)}
            className={inputClass(message)}
            autoComplete="off"
            aria-required={required || undefined}
          />
        )}
      </FormField>
    );
  };
  const studiesMessage = errors.studies?.message ?? errors.studies?.root?.message;
  return (
    <form
      ref={formErrors.ref}
      noValidate
      onSubmit={(event) => void onSubmit(event)}
      onKeyDown={keepEnterInForm}
      data-testid="laboratory-form"
    >
      <fieldset disabled={isSubmitting} className="card mb-0">
        <div className="card-body">
          <div className="row g-3">
            <div className="col-sm-6 col-lg-3">
              <FormField
                id={fieldId('orderDate')}
                label={<FieldLabel text={t('fields.orderDate')} required />}
                error={errors.orderDate?.message}
                className="mb-0"
              >
                <DateInput
                  {...register('orderDate')}
                  {...describedField(fieldId('orderDate'), errors.orderDate?.message)}
                  className={inputClass(errors.orderDate?.message)}
                />
              </FormField>
            </div>
            <div className="col-sm-6 col-lg-4">
              <ProfessionalSelect
                id={fieldId('professional')}
                initial={professional}
                registration={register('professionalId')}
                error={errors.professionalId?.message}
              />
            </div>
            <div className="col-lg-5">{text('laboratoryName', undefined, true)}</div>
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
                            {...register('studies')}
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
            <div className="col-lg-6">{text('instructions', 3)}</div>
            <div className="col-lg-6">{text('notes', 3)}</div>
            <div className="col-sm-6 col-lg-4">
              <FormField
                id={fieldId('status')}
                label={t('fields.status')}
                error={errors.status?.message}
                className="mb-0"
              >
                <select {...register('status')} id={fieldId('status')} className="form-select">
                  {laboratoryStatuses.map((value) => (
                    <option key={value} value={value}>
                      {t(`laboratory.statuses.${value}`)}
                    </option>
                  ))}
                </select>
              </FormField>
            </div>
            {received ? (
              <>
                <div className="col-sm-6 col-lg-4">
                  <FormField
                    id={fieldId('resultDate')}
                    label={<FieldLabel text={t('fields.resultDate')} required />}
                    error={errors.resultDate?.message}
                    className="mb-0"
                  >
                    <DateInput
                      {...register('resultDate')}
                      {...describedField(fieldId('resultDate'), errors.resultDate?.message)}
                      className={inputClass(errors.resultDate?.message)}
                    />
                  </FormField>
                </div>
                <div className="col-12">{text('result', 5)}</div>
              </>
            ) : null}
          </div>
        </div>
      </fieldset>
      <FormActions
        backTo={editing ? recordPaths.show('laboratory', patientId, record.id) : historyPath(patientId, 'laboratory')}
        editing={editing}
        submitting={isSubmitting}
        disabled={isSubmitting || (editing && !isDirty)}
      />
    </form>
  );
}

/** `…/mh/laboratory/new` */
export function NewLaboratory({ patientId }: { patientId: string }) {
  const { t } = useTranslation('common');
  const canWrite = useCanWriteClinical();
  return (
    <ClinicalFrame patientId={patientId} kind="laboratory" title={t('pages.laboratoryNew')} testId="laboratory-new">
      {() => (canWrite ? <LaboratoryForm patientId={patientId} record={null} /> : <ReadOnlyNotice />)}
    </ClinicalFrame>
  );
}

function EditLaboratoryForm({ patientId, record }: { patientId: string; record: Laboratory }) {
  const [conflict, setConflict] = useState<{ current: Laboratory | null } | null>(null);
  return (
    <>
      {conflict ? <ConflictAlert current={conflict.current} /> : null}
      <LaboratoryForm
        key={record.version}
        patientId={patientId}
        record={record}
        onConflict={(current) => {
          setConflict({ current });
          if (current) queryClient.setQueryData(recordKey('laboratory', patientId, record.id), current);
          else void queryClient.invalidateQueries({ queryKey: recordKey('laboratory', patientId, record.id) });
        }}
      />
    </>
  );
}

/** `…/mh/laboratory/edit/:id_laboratory` */
export function EditLaboratory({ patientId, id }: { patientId: string; id: string }) {
  const { t } = useTranslation('common');
  const canWrite = useCanWriteClinical();
  return (
    <ClinicalFrame patientId={patientId} kind="laboratory" title={t('pages.laboratoryEdit')} testId="laboratory-edit">
      {() =>
        canWrite ? (
          <RecordLoader kind="laboratory" patientId={patientId} id={id}>
            {(record) => <EditLaboratoryForm patientId={patientId} record={record} />}
          </RecordLoader>
        ) : (
          <ReadOnlyNotice />
        )
      }
    </ClinicalFrame>
  );
}

function LaboratoryView({ patientId, record, canWrite }: { patientId: string; record: Laboratory; canWrite: boolean }) {
  const { t } = useTranslation('clinical');
  const date = useCalendarDate();
  return (
    <>
      <section className="card mb-0" data-testid="laboratory-view">
        <div className="card-body d-flex flex-column gap-3">
          <div className="d-flex flex-wrap gap-2 align-items-center">
            <span className={`badge ${statusClass(record.status)}`} data-testid="record-status">
              {t(`laboratory.statuses.${record.status}`)}
            </span>
            <div className="ms-auto d-flex gap-2 flex-wrap">
              <PdfButton
                load={() => clinicalApi.orderPdf(patientId, record.id)}
                fallbackName="orden-laboratorio.pdf"
                label={t('laboratory.print')}
                testId="print-order"
              />
              {canWrite ? (
                <>
                  <DeleteRecordButton
                    kind="laboratory"
                    patientId={patientId}
                    id={record.id}
                    description={record.laboratoryName}
                  />
                  <EditLink kind="laboratory" patientId={patientId} id={record.id} />
                </>
              ) : null}
            </div>
          </div>
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
          <RecordStamps record={record} />
        </div>
      </section>
      <RecordChanges
        kind="laboratory"
        patientId={patientId}
        id={record.id}
        names={{ [record.professionalId]: record.professionalName }}
      />
    </>
  );
}

/** `…/mh/laboratory/show/:id_laboratory` */
export function ShowLaboratory({ patientId, id }: { patientId: string; id: string }) {
  const { t } = useTranslation('common');
  const canWrite = useCanWriteClinical();
  return (
    <ClinicalFrame patientId={patientId} kind="laboratory" title={t('pages.laboratoryShow')} testId="laboratory-show">
      {() => (
        <RecordLoader kind="laboratory" patientId={patientId} id={id}>
          {(record) => <LaboratoryView patientId={patientId} record={record} canWrite={canWrite} />}
        </RecordLoader>
      )}
    </ClinicalFrame>
  );
}
