import { sexes } from '@odontia/shared/enums';
import { createPatientRequestSchema } from '@odontia/shared/schemas/patients';
import { CalendarPlus } from 'lucide-react';
import { type ReactNode, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BusyIcon } from '../../components/busy-icon';
import { Combobox, ComboboxOptionText } from '../../components/combobox';
import { FieldFeedback } from '../../components/form-feedback';
import { ValueOptions } from '../../components/value-options';
import { toastApiError, toastSuccess } from '../../lib/api-toast';
import { fieldErrorsOf, fieldMessageKey, parseFieldMessage } from '../../lib/field-message';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { createPatient, type PatientHit, patientById, usePatientSearch } from './api';

export function PatientPicker({
  picked,
  onPick,
  error,
  inputId,
}: {
  picked: { id: string; name: string } | null;
  onPick: (patient: { id: string; name: string } | null) => void;
  error?: string;
  inputId: string;
}) {
  const { t } = useTranslation('agenda');
  const [q, setQ] = useState('');
  const [open, setOpen] = useState(false);
  const debounced = useDebouncedValue(q, 250);
  const search = usePatientSearch(debounced.trim(), open && debounced.trim().length >= 2);
  if (picked)
    return (
      <div className="d-flex align-items-center gap-2" data-testid="picked-patient">
        <strong>{picked.name}</strong>
        <button type="button" className="btn btn-link btn-sm" onClick={() => onPick(null)}>
          {t('booking.changePatient')}
        </button>
      </div>
    );
  return (
    <>
      <Combobox<PatientHit>
        id={inputId}
        type="search"
        value={q}
        onInputChange={setQ}
        open={open}
        onOpenChange={setOpen}
        minLength={2}
        items={search.data ?? []}
        itemKey={(p) => p.id}
        itemName={(p) => `${p.firstName} ${p.lastName}`}
        renderItem={(p) => (
          <ComboboxOptionText
            name={`${p.firstName} ${p.lastName}`}
            detail={[p.ssn, p.phone].filter(Boolean).join(' · ')}
          />
        )}
        onPick={(p) => {
          onPick({ id: p.id, name: `${p.firstName} ${p.lastName}` });
          setQ('');
        }}
        listLabel={t('booking.patientResults')}
        pending={search.isPending}
        busy={search.isFetching}
        pendingText={t('booking.searching')}
        emptyText={t('booking.noPatients')}
        invalid={Boolean(error)}
        describedBy={error ? `${inputId}-error` : undefined}
        placeholder={t('booking.searchPatient')}
      />
      <FieldFeedback id={`${inputId}-error`} message={error} />
    </>
  );
}

export function NewPatient({ onCreated }: { onCreated: (patient: { id: string; name: string }) => void }) {
  const { t } = useTranslation(['agenda', 'validation']);
  const id = useId();
  const [values, setValues] = useState({ firstName: '', lastName: '', phone: '', ssn: '', sex: '', birthdate: '' });
  const [errors, setErrors] = useState<Errors>({});
  const [pending, setPending] = useState(false);
  const message = (code: string) => {
    const { key, values: v } = fieldMessageKey(parseFieldMessage(code));
    return t(`validation:${key}`, v);
  };
  const save = async () => {
    const body = { ...values, sex: values.sex || undefined, language: 'es' as const };
    const parsed = createPatientRequestSchema.safeParse(body);
    if (!parsed.success) {
      setErrors(
        Object.fromEntries(parsed.error.issues.map((issue) => [String(issue.path[0]), message(issue.message)])),
      );
      return;
    }
    setErrors({});
    setPending(true);
    try {
      // The values as typed, with the sex the contract has just checked.
      const answer = await createPatient({ ...body, sex: parsed.data.sex });
      toastSuccess('patient_created');
      onCreated({ id: answer.data.id, name: `${answer.data.firstName} ${answer.data.lastName}` });
    } catch (error) {
      const fields = fieldErrorsOf(error);
      if (fields.length) setErrors(Object.fromEntries(fields.map((f) => [f.path, message(f.code)])));
      else toastApiError(error);
    } finally {
      setPending(false);
    }
  };
  const input = (name: keyof typeof values, type = 'text') => (
    <Field id={`${id}-${name}`} label={t(`agenda:newPatient.${name}`)} error={errors[name]} className="col-sm-6">
      <input
        id={`${id}-${name}`}
        type={type}
        className={`form-control ${errors[name] ? 'is-invalid' : ''}`}
        value={values[name]}
        aria-describedby={errors[name] ? `${id}-${name}-error` : undefined}
        onChange={(event) => setValues({ ...values, [name]: event.target.value })}
      />
    </Field>
  );
  return (
    <fieldset className="agenda-new-patient row g-2 mt-1" data-testid="new-patient">
      <legend className="h6 mb-1">{t('agenda:newPatient.title')}</legend>
      {input('firstName')}
      {input('lastName')}
      {input('phone', 'tel')}
      {input('ssn')}
      <Field id={`${id}-sex`} label={t('agenda:newPatient.sex')} error={errors.sex} className="col-sm-6">
        <select
          id={`${id}-sex`}
          className={`form-select ${errors.sex ? 'is-invalid' : ''}`}
          value={values.sex}
          onChange={(event) => setValues({ ...values, sex: event.target.value })}
        >
          <option value="">{t('agenda:choose')}</option>
          <ValueOptions values={sexes} label={(sex) => t(`agenda:newPatient.sexes.${sex}`)} />
        </select>
      </Field>
      {input('birthdate', 'date')}
      <div className="col-12">
        <button
          type="button"
          className="btn btn-outline-primary btn-sm"
          onClick={() => void save()}
          disabled={pending}
          data-testid="new-patient-save"
        >
          <BusyIcon busy={pending} icon={CalendarPlus} />
          {t('agenda:newPatient.save')}
        </button>
      </div>
    </fieldset>
  );
}

/** The patient of a deep link (?patientId=): their name for the picker. */
export function usePatientById(patientId: string | null, onLoaded: (patient: { id: string; name: string }) => void) {
  const [loaded, setLoaded] = useState<string | null>(null);
  if (patientId && loaded !== patientId) {
    setLoaded(patientId);
    void patientById(patientId)
      .then((answer) => onLoaded({ id: answer.data.id, name: `${answer.data.firstName} ${answer.data.lastName}` }))
      .catch(() => undefined);
  }
  return loaded;
}

export type Errors = Record<string, string>;

export function Field({
  id,
  label,
  error,
  children,
  className = 'col-12',
}: {
  id: string;
  label: ReactNode;
  error?: string;
  children: ReactNode;
  className?: string;
}) {
  return (
    <div className={className}>
      <label htmlFor={id} className="form-label">
        {label}
      </label>
      {children}
      <FieldFeedback id={`${id}-error`} message={error} />
    </div>
  );
}
