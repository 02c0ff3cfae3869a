import '../../lib/zod-setup';
import {
  createPrescriptionRequestSchema,
  maxPrescriptionLines,
  type Prescription,
  updatePrescriptionRequestSchema,
} from '@odontia/shared/schemas/prescriptions';
import { Plus, Trash2 } from 'lucide-react';
import { useId } from 'react';
import { Controller, useFieldArray, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { TextField } from '../../components/bound-fields';
import { describedField, FieldLabel, FormField, fieldCodeText, inputClass } from '../../components/form-field';
import { IconTextButton } from '../../components/icon-button';
import { PdfButton } from '../../components/pdf-button';
import { toastApiError, toastSuccess } from '../../lib/api-toast';
import { isApiError } from '../../lib/http';
import { useZodForm } from '../../lib/use-zod-form';
import { useClinicToday, useDateTimeFormat } from '../../session/clinic-time';
import { clinicalApi, historyPath, recordPaths, useRecordList, useSaveRecord } from '../medical-history/api';
import { RecordStamps } from '../medical-history/clinical-frame';
import {
  DeleteRecordButton,
  EditLink,
  Fact,
  isVersionConflict,
  RecordDateAndProfessional,
  RecordFormCard,
  TextFact,
  toastSaveError,
  useCalendarDate,
  useProfessional,
} from '../medical-history/form-bits';
import { ClinicalChanges } from '../medical-history/record-changes';
import { AllergyWarning, useAllergyCheck, useAllergyText } from '../patients/allergy-warning';
import { MedicinePicker } from './medicine-picker';

interface LineValues {
  medicationId: string;
  medicine: string;
  dose: string;
  frequency: string;
  duration: string;
  quantity: string;
  instructions: string;
}

interface PrescriptionValues {
  date: string;
  professionalId: string;
  diagnosis: string;
  notes: string;
  attendanceId: string;
  lines: LineValues[];
  version: number;
}

const emptyLine = (): LineValues => ({
  medicationId: '',
  medicine: '',
  dose: '',
  frequency: '',
  duration: '',
  quantity: '',
  instructions: '',
});

function valuesOf(record: Prescription | null, professionalId: string, today: string): PrescriptionValues {
  return {
    date: record?.date.slice(0, 10) ?? today,
    professionalId: record?.professionalId ?? professionalId,
    diagnosis: record?.diagnosis ?? '',
    notes: record?.notes ?? '',
    attendanceId: record?.attendanceId ?? '',
    lines: record?.lines.map((line) => ({
      medicationId: line.medicationId ?? '',
      medicine: line.medicine,
      dose: line.dose ?? '',
      frequency: line.frequency ?? '',
      duration: line.duration ?? '',
      quantity: line.quantity ?? '',
      instructions: line.instructions ?? '',
    })) ?? [emptyLine()],
    version: record?.version ?? 1,
  };
}

/** The patient's recent attendances, to link the prescription to one of them. */
function AttendanceSelect({ patientId, id, register }: { patientId: string; id: string; register: object }) {
  const { t } = useTranslation('prescriptions');
  const dateTime = useDateTimeFormat();
  const attendances = useRecordList('attendance', patientId, 1, 20);
  return (
    <FormField id={id} label={t('fields.attendance')} hint={t('form.attendanceHint')} className="mb-0">
      <select {...register} id={id} className="form-select" aria-describedby={`${id}-hint`}>
        <option value="">{t('form.noAttendance')}</option>
        {(attendances.data?.data ?? []).map((attendance) => (
          <option key={attendance.id} value={attendance.id}>
            {dateTime(attendance.date)} · {attendance.titleResume}
          </option>
        ))}
      </select>
    </FormField>
  );
}

/** A prescription's form (its screens are record-screens.tsx). */
export function PrescriptionForm({
  patientId,
  record,
  onConflict,
}: {
  patientId: string;
  record: Prescription | null;
  onConflict?: (current: Prescription | null) => void;
}) {
  const { t } = useTranslation('prescriptions');
  const id = useId();
  const navigate = useNavigate();
  const professional = useProfessional(record);
  const today = useClinicToday();
  const save = useSaveRecord('prescription', patientId, record?.id);
  const editing = record !== null;
  const form = useZodForm(updatePrescriptionRequestSchema, valuesOf(record, professional.id, today), {
    validateWith: editing ? undefined : createPrescriptionRequestSchema,
  });
  const {
    register,
    setError,
    control,
    formErrors,
    formState: { errors, isSubmitting, isDirty },
  } = form;
  const lines = useFieldArray({ control, name: 'lines' });
  // The patient is already loaded by the page's frame (same query): no extra request.
  const allergyOf = useAllergyCheck(patientId);
  const watchedLines = useWatch({ control, name: 'lines' });

  const onSubmit = form.submit(async (values) => {
    try {
      const answer = await save.mutateAsync(values);
      if (answer.code) toastSuccess(answer.code);
      void navigate(recordPaths.show('prescription', patientId, answer.data.id), { replace: editing });
    } catch (error) {
      if (isVersionConflict(error) && onConflict) {
        onConflict((error.details?.current as Prescription | undefined) ?? null);
        return;
      }
      if (isApiError(error) && error.code === 'professional_license_required') {
        setError('professionalId', { type: 'server', message: 'invalid_value' });
        formErrors.reveal({ toast: false });
        toastApiError(error);
        return;
      }
      if (isApiError(error) && error.code === 'medication_not_prescribable') {
        const path = error.details?.path;
        if (typeof path === 'string') {
          const index = Number(path.split('.')[1]);
          if (Number.isInteger(index)) {
            setError(`lines.${index}.medicine`, { type: 'server', message: 'invalid_value' });
            formErrors.reveal({ toast: false });
          }
        }
        toastApiError(error);
        return;
      }
      if (!formErrors.place(error, setError)) toastSaveError(error);
    }
  });

  const fieldId = (name: string) => `${id}-${name}`;
  const linesMessage = errors.lines?.message ?? errors.lines?.root?.message;
  return (
    <RecordFormCard
      ref={formErrors.ref}
      onSubmit={onSubmit}
      testId="prescription-form"
      backTo={
        editing ? recordPaths.show('prescription', patientId, record.id) : historyPath(patientId, 'prescriptions')
      }
      editing={editing}
      isSubmitting={isSubmitting}
      isDirty={isDirty}
      after={
        <>
          <fieldset disabled={isSubmitting} className="card mt-3 mb-0" data-testid="prescription-lines">
            <div className="card-header d-flex flex-wrap align-items-center gap-2">
              <legend className="h6 mb-0 me-auto float-none w-auto">
                <FieldLabel text={t('fields.lines')} required />
              </legend>
              <span className="small text-body-secondary">
                {t('form.linesCount', { count: lines.fields.length, max: maxPrescriptionLines })}
              </span>
            </div>
            <div className="card-body d-flex flex-column gap-3">
              {linesMessage ? (
                <div className="text-danger small" role="alert" data-testid="lines-error">
                  {fieldCodeText(linesMessage)}
                </div>
              ) : null}
              {lines.fields.map((field, index) => {
                const lineErrors = errors.lines?.[index];
                const base = fieldId(`line-${field.id}`);
                const small = (name: 'dose' | 'frequency' | 'duration' | 'quantity', col: string) => (
                  <div className={col}>
                    <TextField
                      form={form}
                      name={`lines.${index}.${name}`}
                      label={t(`fields.${name}`)}
                      placeholder={t(`form.placeholders.${name}`)}
                      data-testid={`line-${name}`}
                    />
                  </div>
                );
                const medicineMessage = lineErrors?.medicine?.message;
                return (
                  <div key={field.id} className="prescription-line" data-testid="prescription-line">
                    <div className="d-flex align-items-center gap-2 mb-2">
                      <span className="badge rounded-pill text-bg-primary">{index + 1}</span>
                      <span className="fw-semibold small me-auto">{t('form.lineTitle', { number: index + 1 })}</span>
                      {lines.fields.length > 1 ? (
                        <IconTextButton
                          icon={Trash2}
                          className="btn btn-sm btn-outline-danger"
                          onClick={() => lines.remove(index)}
                          testId="line-remove"
                          small
                        >
                          {t('form.removeLine')}
                          <span className="visually-hidden"> {index + 1}</span>
                        </IconTextButton>
                      ) : null}
                    </div>
                    <div className="row g-2">
                      <div className="col-lg-6">
                        <label htmlFor={`${base}-medicine`} className="form-label">
                          <FieldLabel text={t('fields.medicine')} required />
                        </label>
                        <Controller
                          control={control}
                          name={`lines.${index}.medicine`}
                          render={({ field: medicine }) => (
                            <Controller
                              control={control}
                              name={`lines.${index}.medicationId`}
                              render={({ field: medication }) => (
                                <MedicinePicker
                                  id={`${base}-medicine`}
                                  value={medicine.value}
                                  medicationId={typeof medication.value === 'string' ? medication.value : ''}
                                  invalid={Boolean(medicineMessage)}
                                  describedBy={medicineMessage ? `${base}-medicine-error` : undefined}
                                  onChange={(next) => {
                                    medicine.onChange(next.medicine);
                                    medication.onChange(next.medicationId);
                                  }}
                                />
                              )}
                            />
                          )}
                        />
                        {medicineMessage ? (
                          <div id={`${base}-medicine-error`} className="invalid-feedback d-block">
                            {fieldCodeText(medicineMessage)}
                          </div>
                        ) : null}
                        <AllergyWarning match={allergyOf(watchedLines?.[index]?.medicine ?? '')} />
                      </div>
                      {small('dose', 'col-sm-6 col-lg-3')}
                      {small('frequency', 'col-sm-6 col-lg-3')}
                      {small('duration', 'col-sm-6 col-lg-3')}
                      {small('quantity', 'col-sm-6 col-lg-3')}
                      <div className="col-lg-6">
                        <FormField
                          id={`${base}-instructions`}
                          label={t('fields.instructions')}
                          error={lineErrors?.instructions?.message}
                          className="mb-0"
                        >
                          <input
                            {...register(`lines.${index}.instructions`)}
                            {...describedField(`${base}-instructions`, lineErrors?.instructions?.message)}
                            className={inputClass(lineErrors?.instructions?.message)}
                            placeholder={t('form.placeholders.instructions')}
                            autoComplete="off"
                            data-testid="line-instructions"
                          />
                        </FormField>
                      </div>
                    </div>
                  </div>
                );
              })}
              <div>
                <IconTextButton
                  icon={Plus}
                  className="btn btn-outline-primary btn-sm"
                  onClick={() => lines.append(emptyLine())}
                  disabled={lines.fields.length >= maxPrescriptionLines}
                  testId="line-add"
                  small
                >
                  {t('form.addLine')}
                </IconTextButton>
              </div>
            </div>
          </fieldset>

          <fieldset disabled={isSubmitting} className="card mt-3 mb-0">
            <div className="card-body">
              <TextField
                form={form}
                name="notes"
                label={t('fields.notes')}
                hint={t('form.notesHint')}
                rows={2}
                className="mb-0"
              />
            </div>
          </fieldset>
        </>
      }
    >
      <RecordDateAndProfessional form={form} professional={professional} professionalColumn="col-sm-6 col-lg-4" />
      <div className="col-lg-5">
        <AttendanceSelect patientId={patientId} id={fieldId('attendance')} register={register('attendanceId')} />
      </div>
      <div className="col-12">
        <TextField
          form={form}
          name="diagnosis"
          label={t('fields.diagnosis')}
          hint={t('form.diagnosisHint')}
          rows={2}
          className="mb-0"
        />
      </div>
    </RecordFormCard>
  );
}

/** The audit's field names, in this namespace. */
function useFieldLabels(): Record<string, string> {
  const { t } = useTranslation('prescriptions');
  return {
    date: t('fields.date'),
    diagnosis: t('fields.diagnosis'),
    notes: t('fields.notes'),
    attendanceId: t('fields.attendance'),
    lines: t('fields.lines'),
    verificationCode: t('fields.verificationCode'),
    professionalName: t('fields.printedName'),
    professionalLicense: t('fields.license'),
    professionalSpecialty: t('fields.specialty'),
  };
}

export function PrescriptionView({
  patientId,
  record,
  canWrite,
}: {
  patientId: string;
  record: Prescription;
  canWrite: boolean;
}) {
  const { t } = useTranslation('prescriptions');
  const date = useCalendarDate();
  const fieldLabels = useFieldLabels();
  const medicines = record.lines.map((line) => line.medicine).join(', ');
  // The patient is already loaded by the page's frame (same query): no extra request.
  const allergyText = useAllergyText();
  const allergyOf = useAllergyCheck(patientId);
  return (
    <>
      <section className="card mb-0" data-testid="prescription-view">
        <div className="card-body d-flex flex-column gap-3">
          <div className="d-flex flex-wrap gap-2 align-items-center">
            <span className="small text-body-secondary">{t('fields.verificationCode')}</span>
            <code className="fs-6 fw-semibold text-body" data-testid="verification-code">
              {record.verificationCode}
            </code>
            <div className="ms-auto d-flex gap-2 flex-wrap">
              <PdfButton
                load={() => clinicalApi.prescriptionPdf(patientId, record.id)}
                fallbackName="receta.pdf"
                label={t('print')}
                testId="print-prescription"
              />
              {canWrite ? (
                <>
                  <DeleteRecordButton
                    kind="prescription"
                    patientId={patientId}
                    id={record.id}
                    description={`${date(record.date)} · ${medicines}`}
                    title={t('delete.title')}
                  />
                  <EditLink kind="prescription" patientId={patientId} id={record.id} />
                </>
              ) : null}
            </div>
          </div>
          <dl className="clinical-facts mb-0">
            <Fact label={t('fields.date')} testId="record-date">
              {date(record.date)}
            </Fact>
            <Fact label={t('fields.professional')} testId="record-professional">
              {[
                record.professionalName,
                record.professionalSpecialty,
                record.professionalLicense ? t('licenseShort', { number: record.professionalLicense }) : null,
              ]
                .filter(Boolean)
                .join(' · ')}
            </Fact>
            <TextFact label={t('fields.diagnosis')} text={record.diagnosis} testId="record-diagnosis" />
            <Fact label={t('fields.attendance')}>
              {record.attendanceId ? (
                <Link to={recordPaths.show('attendance', patientId, record.attendanceId)}>{t('openAttendance')}</Link>
              ) : null}
            </Fact>
            <TextFact label={t('fields.notes')} text={record.notes} />
          </dl>
          <div>
            <h2 className="h6">{t('fields.lines')}</h2>
            <ol className="prescription-lines list-group list-group-numbered" data-testid="record-lines">
              {record.lines.map((line) => {
                const allergy = allergyOf(line.medicine);
                return (
                  <li key={line.id} className="list-group-item d-flex gap-2" data-testid="record-line">
                    <div className="min-w-0 ms-1">
                      <div className="fw-semibold d-flex flex-wrap align-items-center gap-2">
                        <span data-testid="record-line-medicine">{line.medicine}</span>
                        <span
                          className={`badge ${line.medicationId ? 'text-bg-success' : 'text-bg-warning'}`}
                          data-testid="record-line-source"
                        >
                          {line.medicationId ? t('form.fromCatalogue') : t('form.freeText')}
                        </span>
                        {allergy ? (
                          <span className="badge text-bg-danger" data-testid="record-line-allergy">
                            {allergyText(allergy, 'short')}
                          </span>
                        ) : null}
                      </div>
                      <div className="small">
                        {[
                          line.dose ? `${t('fields.dose')}: ${line.dose}` : null,
                          line.frequency ? `${t('fields.frequency')}: ${line.frequency}` : null,
                          line.duration ? `${t('fields.duration')}: ${line.duration}` : null,
                          line.quantity ? `${t('fields.quantity')}: ${line.quantity}` : null,
                        ]
                          .filter(Boolean)
                          .join(' · ')}
                      </div>
                      {line.instructions ? (
                        <div className="small text-body-secondary fst-italic">{line.instructions}</div>
                      ) : null}
                    </div>
                  </li>
                );
              })}
            </ol>
          </div>
          <RecordStamps record={record} />
        </div>
      </section>
      <ClinicalChanges
        kind="prescription"
        patientId={patientId}
        id={record.id}
        names={{ [record.professionalId]: record.professionalName }}
        fieldLabels={fieldLabels}
      />
    </>
  );
}
