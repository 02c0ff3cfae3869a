import { useClinicTimeZone } from '../../session/clinic-time';
import { useAllergyCheck } from '../patients/allergy-warning';
import '../../lib/zod-setup';
import type { Appointment } from '@odontia/shared/schemas/appointments';
import {
  type Attendance,
  createAttendanceRequestSchema,
  updateAttendanceRequestSchema,
} from '@odontia/shared/schemas/attendances';
import type { Treatment } from '@odontia/shared/schemas/schedules';
import { ClipboardCheck, Stethoscope } from 'lucide-react';
import { useId, useState } from 'react';
import { type FieldValues, type Resolver, useFieldArray, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import type { z } from 'zod';
import { TextField } from '../../components/bound-fields';
import { DateField } from '../../components/date-input';
import { RecordForm } from '../../components/record-form';
import { Spinner } from '../../components/spinner';
import { SwitchField } from '../../components/switch-field';
import { toastSuccess } from '../../lib/api-toast';
import { formResolver, useFormErrors } from '../../lib/form-errors';
import { isApiError } from '../../lib/http';
import { refreshAppointments, useAppointment } from '../appointments/api';
import { AppointmentBanner } from '../appointments/appointment-banner';
import { historyPath, type RecordBody, recordPaths, useSaveRecord } from './api';
import { AttendanceBilling, Section } from './attendance-billing';
import { usePriceListOptions } from './attendance-line-links';
import { AttendanceTypeField } from './attendance-type-field';
import { InsufficientStock, type ShortItem, StockUsed } from './attendance-used-items';
import { type AttendanceValues, toRequest, valuesOf } from './attendance-values';
import { FormActions, isVersionConflict, ProfessionalField, toastSaveError, useProfessional } from './form-bits';

/**
 * Create or edit an (open) attendance: every field of spec §3, billing with live totals in
 * decimals, and the supplies and medicines used (taken from stock when saved).
 */
/**
 * The attendance form. A new attendance opened with `?appointmentId=` ("start attendance", issue
 * 16) is that appointment's: the form starts with its professional, time and treatment or reason,
 * and saving sends `appointmentId`, so the server marks the appointment completed.
 */
export function AttendanceForm(props: {
  patientId: string;
  record: Attendance | null;
  onConflict?: (current: Attendance | null) => void;
}) {
  const [params] = useSearchParams();
  const appointmentId = props.record ? null : params.get('appointmentId');
  const appointment = useAppointment(appointmentId);
  const priceList = usePriceListOptions();
  if (!appointmentId) return <AttendanceFormBody {...props} appointment={null} treatment={null} />;
  // The booked treatment's price comes from the price list: the form starts once both are here.
  if (appointment.isPending || (appointment.data?.treatmentId && priceList.isPending))
    return (
      <div className="d-flex justify-content-center py-4">
        <Spinner />
      </div>
    );
  const usable =
    appointment.data && appointment.data.patientId === props.patientId && appointment.data.status === 'scheduled'
      ? appointment.data
      : null;
  return (
    <>
      <AppointmentBanner appointment={appointment.data ?? null} usable={usable !== null} />
      <AttendanceFormBody
        {...props}
        appointment={usable}
        treatment={priceList.data?.data.find((treatment) => treatment.id === usable?.treatmentId) ?? null}
      />
    </>
  );
}

function AttendanceFormBody({
  patientId,
  record,
  onConflict,
  appointment,
  treatment,
}: {
  patientId: string;
  record: Attendance | null;
  onConflict?: (current: Attendance | null) => void;
  appointment: Appointment | null;
  treatment: Treatment | null;
}) {
  const { t } = useTranslation('clinical');
  const id = useId();
  const navigate = useNavigate();
  const professional = useProfessional(record);
  const save = useSaveRecord('attendance', patientId, record?.id);
  const editing = record !== null;
  const schema = editing ? updateAttendanceRequestSchema : createAttendanceRequestSchema;
  const [short, setShort] = useState<ShortItem[]>([]);
  const timeZone = useClinicTimeZone();
  const allergyOf = useAllergyCheck(patientId);
  const formErrors = useFormErrors();
  const form = useForm<AttendanceValues>({
    resolver: ((values, context, options) =>
      formResolver(schema as unknown as z.ZodType<FieldValues, FieldValues>)(
        toRequest(values, timeZone) as FieldValues,
        context,
        options as never,
      )) as Resolver<AttendanceValues>,
    defaultValues: valuesOf(record, professional.id, timeZone, appointment, treatment),
  });
  const {
    register,
    handleSubmit,
    setError,
    control,
    formState: { isSubmitting, isDirty },
  } = form;
  const lines = useFieldArray({ control, name: 'lines' });
  const supplies = useFieldArray({ control, name: 'supplies' });
  const medications = useFieldArray({ control, name: 'medications' });
  const feeInvoiced = record?.feeInvoiced ?? false;

  const onSubmit = handleSubmit(async (values) => {
    setShort([]);
    try {
      // `values` went through the schema's transforms: the request body as the contract wants it.
      const body = (appointment ? { ...values, appointmentId: appointment.id } : values) as RecordBody<'attendance'>;
      const answer = await save.mutateAsync(body);
      if (appointment) void refreshAppointments();
      if (answer.code) toastSuccess(answer.code);
      void navigate(recordPaths.show('attendance', patientId, answer.data.id), { replace: editing });
    } catch (error) {
      if (isVersionConflict(error) && onConflict) {
        onConflict((error.details?.current as Attendance | undefined) ?? null);
        return;
      }
      if (isApiError(error) && error.code === 'insufficient_stock') {
        const items = (error.details?.items ?? []) as Partial<ShortItem>[];
        setShort(
          items.map((item) => ({
            name: item.name ?? '',
            available: Number(item.available ?? 0),
            requested: Number(item.requested ?? 0),
          })),
        );
        window.scrollTo({ top: 0, behavior: 'smooth' });
        return;
      }
      if (!formErrors.place(error, setError)) toastSaveError(error);
    }
  }, formErrors.onInvalid);

  const fieldId = (name: string) => `${id}-${name}`;
  type Simple =
    | 'specialization'
    | 'titleResume'
    | 'resume'
    | 'detail'
    | 'result'
    | 'date'
    | 'nextAppointment'
    | 'resultDate';
  const field = (
    name: Simple,
    options: { rows?: number; type?: 'date' | 'datetime-local'; required?: boolean; hint?: string } = {},
  ) => {
    const common = {
      form,
      name,
      label: t(`fields.${name}`),
      required: options.required,
      hint: options.hint,
      className: 'mb-0',
    };
    if (options.type === 'date') return <DateField {...common} />;
    if (options.rows) return <TextField {...common} rows={options.rows} />;
    return <TextField {...common} type={options.type ?? 'text'} />;
  };

  return (
    <RecordForm ref={formErrors.ref} onSubmit={onSubmit} testId="attendance-form">
      <InsufficientStock items={short} />
      <fieldset disabled={isSubmitting} className="attendance-form-layout">
        <Section title={t('attendance.sections.main')} icon={<Stethoscope size={18} aria-hidden="true" />}>
          <div className="row g-3">
            <div className="col-sm-6 col-xl-4">{field('date', { type: 'datetime-local', required: true })}</div>
            <div className="col-sm-6 col-xl-4">
              <AttendanceTypeField id={fieldId('attendanceType')} form={form} />
            </div>
            <div className="col-sm-6 col-xl-4">{field('specialization')}</div>
            <div className="col-sm-6 col-xl-4">
              <ProfessionalField form={form} initial={professional} />
            </div>
            <div className="col-xl-8">{field('titleResume', { required: true })}</div>
            <div className="col-12">{field('resume', { rows: 2 })}</div>
            <div className="col-12">{field('detail', { rows: 5 })}</div>
          </div>
        </Section>
        <Section title={t('attendance.sections.result')} icon={<ClipboardCheck size={18} aria-hidden="true" />}>
          <div className="row g-3">
            <div className="col-sm-6">{field('resultDate', { type: 'date' })}</div>
            <div className="col-sm-6">{field('nextAppointment', { type: 'date' })}</div>
            <div className="col-12">{field('result', { rows: 3 })}</div>
            <div className="col-12">
              <SwitchField
                id={fieldId('finished')}
                label={t('attendance.finishedLabel')}
                hint={t('attendance.finishedHint')}
                className="mb-0"
                input={register('finished')}
              />
            </div>
          </div>
        </Section>
        <AttendanceBilling
          form={form}
          lines={lines}
          fieldId={fieldId}
          feeInvoiced={feeInvoiced}
          patientId={patientId}
          recordId={record?.id ?? null}
        />
        <StockUsed form={form} supplies={supplies} medications={medications} allergyOf={allergyOf} />
      </fieldset>
      <FormActions
        backTo={editing ? recordPaths.show('attendance', patientId, record.id) : historyPath(patientId, 'attendances')}
        editing={editing}
        submitting={isSubmitting}
        disabled={isSubmitting || (editing && !isDirty)}
      />
    </RecordForm>
  );
}
