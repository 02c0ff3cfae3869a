import '../../lib/zod-setup';
import { clinicToday } from '@odontia/shared/clinic-time';
import { type Language, languages, type Sex, sexes } from '@odontia/shared/enums';
import { type Patient, patientRequestSchemas } from '@odontia/shared/schemas/patients';
import { AlertTriangle, Contact, Home, NotebookPen, Save, UserRound } from 'lucide-react';
import { type ReactNode, useId, useMemo, useState } from 'react';
import { type Resolver, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { z } from 'zod';
import { BusyIcon } from '../../components/busy-icon';
import { DateInput } from '../../components/date-input';
import { describedField, FormField, inputClass } from '../../components/form-field';
import { IconCard } from '../../components/icon-card';
import { SwitchField } from '../../components/switch-field';
import { ValueOptions } from '../../components/value-options';
import { toastApiError, toastSuccess } from '../../lib/api-toast';
import { formResolver, useFormErrors } from '../../lib/form-errors';
import { isApiError } from '../../lib/http';
import { useClinicTimeZone } from '../../session/clinic-time';
import { useSessionUser } from '../../session/session';
import { type PatientAnswer, type PatientBody, patientPaths, useSavePatient } from './api';
import { ageFrom } from './format';

export interface PatientFormValues {
  firstName: string;
  lastName: string;
  sex: Sex | '';
  birthdate: string;
  ssn: string;
  medicalHistory: string;
  active: boolean;
  deceasedOn: string;
  email: string;
  phoneArea: string;
  phone: string;
  street: string;
  complement: string;
  zipCode: string;
  country: string;
  state: string;
  city: string;
  district: string;
  address: string;
  allergies: string;
  chronicConditions: string;
  currentMedication: string;
  obs: string;
  language: Language;
  version: number;
}

type TextField = Exclude<keyof PatientFormValues, 'sex' | 'active' | 'version' | 'language'>;

const fieldNames = [
  'firstName',
  'lastName',
  'sex',
  'birthdate',
  'ssn',
  'medicalHistory',
  'active',
  'deceasedOn',
  'email',
  'phoneArea',
  'phone',
  'street',
  'complement',
  'zipCode',
  'country',
  'state',
  'city',
  'district',
  'address',
  'allergies',
  'chronicConditions',
  'currentMedication',
  'obs',
  'language',
] as const satisfies readonly (keyof PatientFormValues)[];

const text = (value: string | null | undefined) => value ?? '';

/** The form's values: a saved patient's, or the defaults of a new one. */
export function formValuesOf(patient: Patient | null, clinicLanguage: Language = 'es'): PatientFormValues {
  return {
    firstName: text(patient?.firstName),
    lastName: text(patient?.lastName),
    sex: patient?.sex ?? '',
    birthdate: text(patient?.birthdate).slice(0, 10),
    ssn: text(patient?.ssn),
    medicalHistory: text(patient?.medicalHistory),
    active: patient?.active ?? true,
    deceasedOn: text(patient?.deceasedOn).slice(0, 10),
    email: text(patient?.email),
    phoneArea: text(patient?.phoneArea),
    phone: text(patient?.phone),
    street: text(patient?.street),
    complement: text(patient?.complement),
    zipCode: text(patient?.zipCode),
    country: text(patient?.country),
    state: text(patient?.state),
    city: text(patient?.city),
    district: text(patient?.district),
    address: text(patient?.address),
    allergies: text(patient?.allergies),
    chronicConditions: text(patient?.chronicConditions),
    currentMedication: text(patient?.currentMedication),
    obs: text(patient?.obs),
    language: patient?.language ?? clinicLanguage,
    version: patient?.version ?? 1,
  };
}

/** A sex not chosen yet is "missing" (the schema says 'required'), not an invalid value. */
const blankSexToUndefined = (value: unknown) => {
  if (!value || typeof value !== 'object') return value;
  const values = { ...(value as Record<string, unknown>) };
  if (values.sex === '') values.sex = undefined;
  return values;
};

function FormCard({
  title,
  icon,
  subtitle,
  order,
  children,
}: {
  /** The place on one column (phones, tablets): personal, contact, alerts, address, notes. */
  order: number;
  title: string;
  icon: ReactNode;
  subtitle?: ReactNode;
  children: ReactNode;
}) {
  return (
    <IconCard
      title={title}
      icon={icon}
      subtitle={subtitle}
      className={`patient-form-card mb-0 patient-form-order-${order}`}
      grid
    >
      {children}
    </IconCard>
  );
}

export interface DuplicateSsn {
  existingId: string;
  existingName: string;
}

/**
 * Create or edit a patient: every field of the contract in sections, validated with the shared
 * schema; server field errors, a duplicate ID number (with a link to the patient who has it) and
 * a stale save (`onConflict` gets the current patient) handled where they belong.
 */
export function PatientForm({
  patient,
  onConflict,
  actions,
}: {
  patient: Patient | null;
  /** A stale save: the patient as it is now (details.current of the 409). */
  onConflict?: (current: Patient | null) => void;
  /** Extra buttons at the start of the action bar (the delete button). */
  actions?: ReactNode;
}) {
  const { t } = useTranslation(['patients', 'common']);
  const id = useId();
  const navigate = useNavigate();
  const editing = patient !== null;
  const save = useSavePatient(patient?.id);
  const [duplicate, setDuplicate] = useState<DuplicateSsn | null>(null);
  const timeZone = useClinicTimeZone();
  const user = useSessionUser();
  const formErrors = useFormErrors();
  // "Born in the future" starts after the clinic's today, read when the form validates.
  const schemas = useMemo(() => patientRequestSchemas(() => clinicToday(timeZone)), [timeZone]);
  const {
    register,
    handleSubmit,
    setError,
    reset,
    control,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<PatientFormValues, unknown, PatientBody>({
    resolver: formResolver(
      z.preprocess(blankSexToUndefined, editing ? schemas.update : schemas.create),
    ) as unknown as Resolver<PatientFormValues, unknown, PatientBody>,
    // A new patient starts in the clinic's default language (system settings).
    defaultValues: formValuesOf(patient, user?.account.defaultLanguage ?? 'es'),
  });
  const birthdate = useWatch({ control, name: 'birthdate' });
  const age = ageFrom(birthdate ?? '', clinicToday(timeZone));

  const onSubmit = handleSubmit(
    async (values) => {
      setDuplicate(null);
      try {
        // `values` went through the schema's transforms: the request body as the contract wants it.
        const answer: PatientAnswer = await save.mutateAsync(values);
        if (answer.code) toastSuccess(answer.code);
        if (editing) reset(formValuesOf(answer.data));
        else void navigate(patientPaths.history(answer.data.id), { replace: true });
      } catch (error) {
        if (!isApiError(error)) {
          toastApiError(error);
          return;
        }
        if (error.code === 'version_conflict' && onConflict) {
          const current = (error.details as { current?: Patient } | undefined)?.current ?? null;
          onConflict(current);
          return;
        }
        if (error.code === 'duplicate_ssn') {
          const details = error.details as Partial<DuplicateSsn> | undefined;
          setError('ssn', { type: 'server', message: 'duplicate_ssn' });
          if (details?.existingId) {
            setDuplicate({ existingId: details.existingId, existingName: details.existingName ?? '' });
          }
          formErrors.reveal();
          return;
        }
        if (!formErrors.place(error, setError, { fields: fieldNames })) toastApiError(error);
      }
    },
    () => {
      // A new mistake replaces the last answer: no stale message beside it.
      setDuplicate(null);
      formErrors.onInvalid();
    },
  );

  const fieldId = (name: string) => `${id}-${name}`;
  const messageOf = (name: keyof PatientFormValues) => errors[name]?.message;
  const label = (name: keyof PatientFormValues, required = false) => (
    <>
      {t(`fields.${name}`)}
      {required ? (
        <span className="text-danger ms-1" aria-hidden="true">
          *
        </span>
      ) : null}
    </>
  );

  /** A text input in a grid column. */
  const input = (
    name: TextField,
    options: {
      col?: string;
      hint?: ReactNode;
      type?: 'text' | 'email' | 'tel' | 'date';
      inputMode?: 'text' | 'tel' | 'email' | 'numeric';
      autoComplete?: string;
      required?: boolean;
      after?: ReactNode;
    } = {},
  ) => {
    const message = messageOf(name);
    return (
      <div className={options.col ?? 'col-md-6'} key={name}>
        <FormField
          id={fieldId(name)}
          label={label(name, options.required)}
          error={message}
          hint={options.hint}
          className="mb-0"
        >
          {options.type === 'date' ? (
            <DateInput
              {...register(name)}
              {...describedField(fieldId(name), message, Boolean(options.hint))}
              className={inputClass(message)}
              max={clinicToday(timeZone)}
              aria-required={options.required || undefined}
            />
          ) : (
            <input
              {...register(name)}
              {...describedField(fieldId(name), message, Boolean(options.hint))}
              className={inputClass(message)}
              type={options.type ?? 'text'}
              inputMode={options.inputMode}
              autoComplete={options.autoComplete ?? 'off'}
              aria-required={options.required || undefined}
            />
          )}
        </FormField>
        {options.after}
      </div>
    );
  };

  const textarea = (name: TextField, options: { col?: string; hint?: ReactNode; rows?: number } = {}) => {
    const message = messageOf(name);
    return (
      <div className={options.col ?? 'col-12'} key={name}>
        <FormField id={fieldId(name)} label={label(name)} error={message} hint={options.hint} className="mb-0">
          <textarea
            {...register(name)}
            {...describedField(fieldId(name), message, Boolean(options.hint))}
            className={inputClass(message)}
            rows={options.rows ?? 2}
          />
        </FormField>
      </div>
    );
  };

  const sexMessage = messageOf('sex');
  const duplicateLink = duplicate ? (
    <Link
      to={patientPaths.history(duplicate.existingId)}
      className="small d-inline-block mt-1"
      data-testid="duplicate-link"
    >
      {t('form.openExisting', { name: duplicate.existingName })}
    </Link>
  ) : null;

  return (
    <form ref={formErrors.ref} noValidate onSubmit={(event) => void onSubmit(event)} data-testid="patient-form">
      <fieldset disabled={isSubmitting} className="patient-form">
        <div className="patient-form-layout">
          <div className="patient-form-column">
            <FormCard order={1} title={t('form.sections.personal')} icon={<UserRound size={18} aria-hidden="true" />}>
              {input('firstName', { required: true })}
              {input('lastName', { required: true })}
              <div className="col-md-6">
                <FormField id={fieldId('sex')} label={label('sex', true)} error={sexMessage} className="mb-0">
                  <select
                    {...register('sex')}
                    {...describedField(fieldId('sex'), sexMessage)}
                    className={`form-select${sexMessage ? ' is-invalid' : ''}`}
                    aria-required
                  >
                    <option value="">{t('form.choose')}</option>
                    <ValueOptions values={sexes} label={(sex) => t(`sexes.${sex}`)} />
                  </select>
                </FormField>
              </div>
              {input('birthdate', {
                type: 'date',
                required: true,
                hint: (
                  <span data-testid="live-age">
                    {age === null ? t('form.hints.age') : t('form.ageNow', { count: age })}
                  </span>
                ),
              })}
              {input('ssn', { hint: t('form.hints.ssn'), after: duplicateLink })}
              {input('medicalHistory', { hint: t('form.hints.medicalHistory') })}
              <div className="col-md-6">
                <FormField
                  id={fieldId('language')}
                  label={label('language')}
                  error={messageOf('language')}
                  hint={t('form.hints.language')}
                  className="mb-0"
                >
                  <select
                    {...register('language')}
                    {...describedField(fieldId('language'), messageOf('language'), true)}
                    className={`form-select${messageOf('language') ? ' is-invalid' : ''}`}
                    data-testid="patient-language"
                  >
                    <ValueOptions values={languages} label={(language) => t(`languages.${language}`)} />
                  </select>
                </FormField>
              </div>
              {input('deceasedOn', { type: 'date', hint: t('form.hints.deceasedOn') })}
              <div className="col-12">
                <SwitchField
                  id={fieldId('active')}
                  label={t('fields.active')}
                  hint={t('form.hints.active')}
                  className="mb-0"
                  input={register('active')}
                />
              </div>
            </FormCard>
            <FormCard order={4} title={t('form.sections.address')} icon={<Home size={18} aria-hidden="true" />}>
              {input('street', { col: 'col-sm-8' })}
              {input('complement', { col: 'col-sm-4', hint: t('form.hints.complement') })}
              {input('zipCode', { col: 'col-sm-4' })}
              {input('city', { col: 'col-sm-8' })}
              {input('state', { col: 'col-12' })}
              {input('country', { col: 'col-sm-6' })}
              {input('district', { col: 'col-sm-6' })}
              {input('address', { col: 'col-12', hint: t('form.hints.address') })}
            </FormCard>
          </div>
          <div className="patient-form-column">
            <FormCard order={2} title={t('form.sections.contact')} icon={<Contact size={18} aria-hidden="true" />}>
              {input('email', { col: 'col-12', type: 'email', inputMode: 'email' })}
              {input('phoneArea', { col: 'col-5 col-sm-3', inputMode: 'tel', hint: t('form.hints.phoneArea') })}
              {input('phone', { col: 'col-7 col-sm-9', type: 'tel', inputMode: 'tel' })}
            </FormCard>
            <FormCard
              order={3}
              title={t('form.sections.alerts')}
              icon={<AlertTriangle size={18} aria-hidden="true" />}
              subtitle={<span data-testid="alerts-hint">{t('form.hints.alerts')}</span>}
            >
              {textarea('allergies')}
              {textarea('chronicConditions')}
              {textarea('currentMedication')}
            </FormCard>
            <FormCard order={5} title={t('form.sections.notes')} icon={<NotebookPen size={18} aria-hidden="true" />}>
              {textarea('obs', { hint: t('form.hints.obs'), rows: 4 })}
            </FormCard>
          </div>
        </div>
      </fieldset>
      <div className="patient-form-actions">
        {actions ? <div className="me-auto">{actions}</div> : null}
        <Link to={editing ? patientPaths.history(patient.id) : patientPaths.list} className="btn btn-outline-secondary">
          {t('form.back')}
        </Link>
        <button
          type="submit"
          className="btn btn-primary"
          disabled={isSubmitting || (editing && !isDirty)}
          data-testid="patient-save"
        >
          <BusyIcon busy={isSubmitting} icon={Save} />
          {editing ? t('form.save') : t('form.create')}
        </button>
      </div>
    </form>
  );
}
