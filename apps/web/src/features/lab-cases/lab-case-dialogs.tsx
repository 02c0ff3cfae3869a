import '../../lib/zod-setup';
import {
  createLabCaseSchema,
  type LabCaseStep,
  labCaseStepSchemas,
  labWorkTypes,
  updateLabCaseSchema,
  vitaShades,
} from '@odontia/shared/schemas/lab-cases';
import { useTranslation } from 'react-i18next';
import { SelectField, TextField } from '../../components/bound-fields';
import { DateField } from '../../components/date-input';
import { FormDialog } from '../../components/dialog-frame';
import { useZodForm } from '../../lib/use-zod-form';
import { useCalendarDateFormat, useClinicToday, useInstantFormat } from '../../session/clinic-time';
import { usePatientAppointments } from '../appointments/api';
import {
  type LabCaseRow,
  useLabCase,
  useLabCasePlanItems,
  useLabCaseStep,
  useLabInvoices,
  useLabs,
  useSaveLabCase,
} from './api';

/** "Corona · 21, 22": what a case is, as its lists and dialogs name it. */
export function useCaseName() {
  const { t } = useTranslation('labCases');
  return (row: Pick<LabCaseRow, 'workType' | 'teeth'>) =>
    `${t(`workTypes.${row.workType}`)}${row.teeth.length ? ` · ${row.teeth.join(', ')}` : ''}`;
}

/** "11, 21 22" → [11, 21, 22]; anything not a number is kept so the contract names the field. */
function parseTeeth(text: unknown): unknown {
  if (Array.isArray(text)) return text;
  const parts = String(text ?? '')
    .split(/[\s,;]+/)
    .filter(Boolean);
  return parts.map((part) => (/^\d+$/.test(part) ? Number(part) : part));
}

/** The patient's upcoming scheduled appointments, as options (the seating appointment). */
function useAppointmentOptions(patientId: string, current: string | null) {
  const { t } = useTranslation('labCases');
  const appointments = usePatientAppointments(patientId, 1, 50);
  const when = useInstantFormat();
  const rows = (appointments.data?.data ?? []).filter(
    (appointment) =>
      appointment.id === current || (appointment.status === 'scheduled' && Date.parse(appointment.endsAt) > Date.now()),
  );
  return [
    { value: '', label: t('noAppointment') },
    ...rows.map((appointment) => ({
      value: appointment.id,
      label: `${when(appointment.startsAt)} · ${appointment.professionalName}`,
    })),
  ];
}

/** New case (of `patientId`) or the edit of `row`: lab, work, teeth, shade, material, due date, seating appointment, invoice. */
export function LabCaseFormDialog({
  patientId,
  row,
  onDone,
}: {
  patientId: string;
  row: LabCaseRow | null;
  onDone: () => void;
}) {
  const { t } = useTranslation(['labCases', 'common']);
  const save = useSaveLabCase(row?.id ?? null, onDone);
  const labs = useLabs();
  const form = useZodForm(
    updateLabCaseSchema,
    {
      providerId: row?.providerId ?? '',
      workType: row?.workType ?? 'crown',
      teeth: (row ? row.teeth.join(', ') : '') as unknown as number[],
      shade: row?.shade ?? '',
      material: row?.material ?? '',
      instructions: row?.instructions ?? '',
      notes: row?.notes ?? '',
      dueOn: row?.dueOn ?? '',
      appointmentId: row?.appointmentId ?? '',
      purchaseId: row?.purchaseId ?? '',
      treatmentPlanItemId: row?.treatmentPlanItemId ?? '',
      version: row?.version ?? 1,
    },
    {
      prepare: (values) => ({ ...values, teeth: parseTeeth(values.teeth) as number[] }),
      validateWith: row ? undefined : createLabCaseSchema.omit({ patientId: true }),
    },
  );
  const providerId = form.watch('providerId');
  const invoices = useLabInvoices(providerId ?? '');
  const appointmentOptions = useAppointmentOptions(patientId, row?.appointmentId ?? null);
  const planItems = useLabCasePlanItems(patientId);
  const onSubmit = form.submit(async (body) => {
    try {
      if (row) await save.mutateAsync({ ...body, version: row.version });
      else {
        const { version: _version, ...fields } = body as typeof body & { version?: number };
        await save.mutateAsync({ ...fields, patientId });
      }
    } catch (error) {
      form.formErrors.place(error, form.setError);
    }
  });
  const busy = save.isPending;
  return (
    <FormDialog
      ref={form.formErrors.ref}
      onHide={onDone}
      onSubmit={(event) => void onSubmit(event)}
      testId="lab-case-form"
      title={row ? t('form.editTitle') : t('form.newTitle')}
      closeLabel={t('common:close')}
      cancelLabel={t('steps.cancelButton')}
      size="lg"
      submit={{ label: t('form.save'), busy, disabled: busy, testId: 'lab-case-save' }}
    >
      <fieldset disabled={busy} className="row g-3">
        <div className="col-sm-6">
          <SelectField
            form={form}
            name="providerId"
            label={t('fields.lab')}
            required
            data-testid="lab-case-lab"
            options={[
              { value: '', label: t('form.pickLab') },
              ...(labs.data?.data ?? []).map((lab) => ({ value: lab.id, label: lab.fantasyName })),
            ]}
          />
        </div>
        <div className="col-sm-6">
          <SelectField
            form={form}
            name="workType"
            label={t('fields.workType')}
            required
            data-testid="lab-case-work-type"
            options={labWorkTypes.map((value) => ({ value, label: t(`workTypes.${value}`) }))}
          />
        </div>
        <div className="col-sm-6">
          <TextField
            form={form}
            name="teeth"
            label={t('fields.teeth')}
            hint={t('form.teethHint')}
            inputMode="numeric"
            data-testid="lab-case-teeth"
          />
        </div>
        <div className="col-sm-6">
          <TextField
            form={form}
            name="shade"
            label={t('fields.shade')}
            hint={t('form.shadeHint')}
            maxLength={40}
            list="lab-case-shades"
            data-testid="lab-case-shade"
          />
          <datalist id="lab-case-shades">
            {vitaShades.map((shade) => (
              <option key={shade} value={shade} />
            ))}
          </datalist>
        </div>
        <div className="col-sm-6">
          <TextField
            form={form}
            name="material"
            label={t('fields.material')}
            maxLength={120}
            data-testid="lab-case-material"
          />
        </div>
        <div className="col-sm-6">
          <DateField form={form} name="dueOn" label={t('fields.dueOn')} />
        </div>
        <div className="col-12">
          <TextField
            form={form}
            name="instructions"
            label={t('fields.instructions')}
            rows={2}
            maxLength={2000}
            data-testid="lab-case-instructions"
          />
        </div>
        <div className="col-sm-6">
          <SelectField
            form={form}
            name="appointmentId"
            label={t('fields.appointment')}
            data-testid="lab-case-appointment"
            options={appointmentOptions}
          />
        </div>
        <div className="col-sm-6">
          <SelectField
            form={form}
            name="purchaseId"
            label={t('fields.purchase')}
            data-testid="lab-case-purchase"
            options={[
              { value: '', label: t('noPurchase') },
              ...(invoices.data?.data ?? []).map((purchase) => ({
                value: purchase.id,
                label: [purchase.pointOfService, purchase.documentNumber].filter(Boolean).join('-') || purchase.date,
              })),
            ]}
          />
        </div>
        <div className="col-12">
          <SelectField
            form={form}
            name="treatmentPlanItemId"
            label={t('fields.planItem')}
            data-testid="lab-case-plan-item"
            options={[
              { value: '', label: t('noPlanItem') },
              ...(planItems.data?.data ?? []).map((item) => ({
                value: item.id,
                label: `${item.label} (${item.planTitle})`,
              })),
            ]}
          />
        </div>
        <div className="col-12">
          <TextField form={form} name="notes" label={t('fields.notes')} rows={2} maxLength={2000} />
        </div>
      </fieldset>
    </FormDialog>
  );
}

type StepDefaults = { [Step in LabCaseStep]: Record<string, unknown> };

/** The dialog of one step: its date (today by default), and what the step asks (due date, reason, appointment). */
export function LabCaseStepDialog({ row, step, onDone }: { row: LabCaseRow; step: LabCaseStep; onDone: () => void }) {
  const { t } = useTranslation(['labCases', 'common']);
  const today = useClinicToday();
  const caseName = useCaseName();
  const run = useLabCaseStep(row.id, step, onDone);
  const defaults: StepDefaults = {
    send: { sentOn: today, dueOn: row.dueOn && row.dueOn >= today ? row.dueOn : '' },
    receive: { receivedOn: today },
    check: { checkedOn: today, note: '' },
    return: { returnedOn: today, reason: '' },
    seat: { seatedOn: today, appointmentId: row.appointmentId ?? '' },
    cancel: { reason: '' },
  };
  const form = useZodForm(
    labCaseStepSchemas[step] as typeof labCaseStepSchemas.return,
    {
      ...defaults[step],
      version: row.version,
    } as never,
  );
  const appointmentOptions = useAppointmentOptions(row.patientId, row.appointmentId);
  const onSubmit = form.submit(async (body) => {
    try {
      await run.mutateAsync({ ...body, version: row.version } as never);
    } catch (error) {
      form.formErrors.place(error, form.setError);
    }
  });
  const busy = run.isPending;
  const dateName = {
    send: 'sentOn',
    receive: 'receivedOn',
    check: 'checkedOn',
    return: 'returnedOn',
    seat: 'seatedOn',
  }[step as Exclude<LabCaseStep, 'cancel'>];
  const anyForm = form as unknown as Parameters<typeof TextField>[0]['form'];
  return (
    <FormDialog
      ref={form.formErrors.ref}
      onHide={onDone}
      onSubmit={(event) => void onSubmit(event)}
      testId={`lab-case-${step}-form`}
      title={t(`steps.${step}.title`, { name: caseName(row), patient: row.patientName })}
      closeLabel={t('common:close')}
      cancelLabel={t('steps.cancelButton')}
      submit={{ label: t(`steps.${step}.submit`), busy, disabled: busy, testId: `lab-case-${step}-save` }}
    >
      <p className="text-body-secondary">
        {row.patientName} · {row.providerName}
      </p>
      <fieldset disabled={busy} className="row g-3">
        {dateName ? (
          <div className="col-sm-6">
            <DateField form={anyForm} name={dateName} label={t(`fields.${dateName}`)} required />
          </div>
        ) : null}
        {step === 'send' ? (
          <div className="col-sm-6">
            <DateField form={anyForm} name="dueOn" label={t('fields.dueOn')} required />
          </div>
        ) : null}
        {step === 'seat' ? (
          <div className="col-sm-6">
            <SelectField
              form={anyForm}
              name="appointmentId"
              label={t('fields.appointment')}
              data-testid="lab-case-seat-appointment"
              options={appointmentOptions}
            />
          </div>
        ) : null}
        {step === 'return' || step === 'cancel' ? (
          <div className="col-12">
            <TextField
              form={anyForm}
              name="reason"
              label={t('fields.reason')}
              required
              rows={2}
              maxLength={500}
              data-testid={`lab-case-${step}-reason`}
            />
          </div>
        ) : null}
        {step === 'check' ? (
          <div className="col-12">
            <TextField form={anyForm} name="note" label={t('fields.note')} rows={2} maxLength={500} />
          </div>
        ) : null}
      </fieldset>
    </FormDialog>
  );
}

/** The case's steps, oldest first: what, when, by whom, and the step's date and reason. */
export function LabCaseHistory({ id }: { id: string }) {
  const { t } = useTranslation('labCases');
  const detail = useLabCase(id);
  const when = useInstantFormat();
  const day = useCalendarDateFormat();
  const events = detail.data?.data.events ?? [];
  if (detail.isPending) return <p className="small text-body-secondary mb-0">{t('loading')}</p>;
  return (
    <ol className="small mb-0 ps-3" data-testid="lab-case-events">
      {events.map((event) => (
        <li key={event.id} className="mb-1">
          <span className="fw-semibold">{t(`events.${event.action}`)}</span>
          {event.onDate ? ` · ${day(event.onDate)}` : ''}
          {event.dueOn ? ` · ${t('fields.dueOn')}: ${day(event.dueOn)}` : ''}
          <span className="text-body-secondary">
            {' '}
            · {when(event.at)}
            {event.byName ? ` · ${event.byName}` : ''}
          </span>
          {event.reason ? <div>{event.reason}</div> : null}
        </li>
      ))}
    </ol>
  );
}
