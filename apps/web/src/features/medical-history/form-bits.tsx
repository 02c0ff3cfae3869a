import { Pencil, Save, Trash2 } from 'lucide-react';
import { type FormEvent, type ReactNode, type RefObject, useId, useState } from 'react';
import type { FieldValues, Path, UseFormRegisterReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { type BoundForm, fieldError } from '../../components/bound-fields';
import { BusyIcon } from '../../components/busy-icon';
import { ConfirmDelete } from '../../components/confirm-delete';
import { DateField } from '../../components/date-input';
import { IconTextButton } from '../../components/icon-button';
import { IconLink } from '../../components/icon-link';
import { RecordForm } from '../../components/record-form';
import { errorMessage } from '../../lib/api-errors';
import { toastApiError, toastSuccess } from '../../lib/api-toast';
import { isApiError } from '../../lib/http';
import { useDateTimeFormat } from '../../session/clinic-time';
import { useSessionUser } from '../../session/session';
import { useProfessionals } from '../users/professionals';
import { forgetRecord, historyPath, type RecordKind, recordPaths, useDeleteRecord } from './api';
import { recordKinds } from './records';

/**
 * The professional a record starts with: its own when it is edited, else the signed-in user
 * (who may pick another one of the clinic's professionals).
 */
export function useProfessional(record: { professionalId: string; professionalName: string } | null) {
  const user = useSessionUser();
  if (record) return { id: record.professionalId, name: record.professionalName };
  return { id: user?.id ?? '', name: user?.completeName ?? '' };
}

/**
 * The record's professional, chosen among the clinic's (GET /api/professionals). The record's
 * own professional stays offered even if they have since been deactivated.
 */
export function ProfessionalSelect({
  id,
  initial,
  registration,
  error,
}: {
  id: string;
  /** The professional the form started with (the record's, or the signed-in user). */
  initial: { id: string; name: string };
  registration: UseFormRegisterReturn;
  error?: string | undefined;
}) {
  const { t } = useTranslation('clinical');
  const professionals = useProfessionals();
  const options = (professionals.data ?? []).map((professional) => ({
    id: professional.id,
    label: professional.specialty
      ? `${professional.completeName} · ${professional.specialty}`
      : professional.completeName,
  }));
  if (initial.id && !options.some((option) => option.id === initial.id)) {
    options.unshift({ id: initial.id, label: initial.name });
  }
  return (
    <div>
      <label htmlFor={id} className="form-label">
        {t('fields.professional')}
      </label>
      <select
        id={id}
        {...registration}
        className={`form-select${error ? ' is-invalid' : ''}`}
        aria-describedby={`${id}-hint`}
        aria-invalid={error ? true : undefined}
        data-testid="professional"
      >
        {options.map((option) => (
          <option key={option.id} value={option.id}>
            {option.label}
          </option>
        ))}
      </select>
      <div id={`${id}-hint`} className="form-text">
        {t('common.professionalHint')}
      </div>
    </div>
  );
}

/**
 * The professional of a record form, bound to its `professionalId`:
 * `<ProfessionalField form={form} initial={useProfessional(record)} />`.
 */
export function ProfessionalField<T extends FieldValues & { professionalId: string }>({
  form,
  initial,
}: {
  form: BoundForm<T>;
  initial: { id: string; name: string };
}) {
  const id = useId();
  const name = 'professionalId' as Path<T>;
  return (
    <ProfessionalSelect
      id={`${id}-professional`}
      initial={initial}
      registration={form.register(name)}
      error={fieldError(form, name)}
    />
  );
}

/**
 * The date and the professional that open a clinical record's form, each in its grid column
 * (the date's is the same everywhere; the professional's is `professionalColumn`).
 */
export function RecordDateAndProfessional<T extends FieldValues & { professionalId: string }>({
  form,
  dateName = 'date',
  professional,
  professionalColumn,
}: {
  form: BoundForm<T>;
  /** The form's date field; its label is the clinical `fields.<dateName>`. */
  dateName?: 'date' | 'orderDate';
  professional: { id: string; name: string };
  professionalColumn: string;
}) {
  const { t } = useTranslation('clinical');
  return (
    <>
      <div className="col-sm-6 col-lg-3">
        <DateField form={form} name={dateName as Path<T>} label={t(`fields.${dateName}`)} required />
      </div>
      <div className={professionalColumn}>
        <ProfessionalField form={form} initial={professional} />
      </div>
    </>
  );
}

/** A save's failure that is not a field's: a toast, except a 409 stale version (the caller's). */
export function isVersionConflict(error: unknown): error is { details?: { current?: unknown } } & Error {
  return isApiError(error) && error.code === 'version_conflict';
}

export function toastSaveError(error: unknown) {
  toastApiError(error);
}

/** Someone else saved the record first: the form now shows their values. */
export function ConflictAlert({ current }: { current: { updatedByName: string | null; updatedAt: string } | null }) {
  const { t } = useTranslation('clinical');
  const dateTime = useDateTimeFormat();
  const when = current ? dateTime(current.updatedAt) : '';
  return (
    <div className="alert alert-warning mb-0" role="alert" data-testid="version-conflict">
      <div className="fw-semibold">{t('common.conflictTitle')}</div>
      {current
        ? t('common.conflictBy', { who: current.updatedByName ?? t('common.system'), when })
        : t('common.conflictText')}
    </div>
  );
}

/** Back and save, at the end of a record form. */
export function FormActions({
  backTo,
  editing,
  submitting,
  disabled,
  start,
}: {
  backTo: string;
  editing: boolean;
  submitting: boolean;
  disabled: boolean;
  start?: ReactNode;
}) {
  const { t } = useTranslation('clinical');
  return (
    <div className="clinical-form-actions">
      {start ? <div className="me-auto">{start}</div> : null}
      <Link to={backTo} className="btn btn-outline-secondary">
        {t('common.back')}
      </Link>
      <button type="submit" className="btn btn-primary" disabled={disabled} data-testid="record-save">
        <BusyIcon busy={submitting} icon={Save} />
        {editing ? t('common.save') : t('common.create')}
      </button>
    </div>
  );
}

/**
 * A clinical record's form: its fields in one card (a `row g-3` grid, disabled while saving),
 * what `after` adds (more cards), then Back and save. A new record can be saved at once; a record being edited once it changed.
 */
export function RecordFormCard({
  ref,
  onSubmit,
  testId,
  backTo,
  editing,
  isSubmitting,
  isDirty,
  after,
  children,
}: {
  ref: RefObject<HTMLFormElement | null>;
  onSubmit: (event: FormEvent<HTMLFormElement>) => Promise<void>;
  testId: string;
  backTo: string;
  editing: boolean;
  isSubmitting: boolean;
  isDirty: boolean;
  after?: ReactNode;
  children: ReactNode;
}) {
  return (
    <RecordForm ref={ref} onSubmit={onSubmit} testId={testId}>
      <fieldset disabled={isSubmitting} className="card mb-0">
        <div className="card-body">
          <div className="row g-3">{children}</div>
        </div>
      </fieldset>
      {after}
      <FormActions
        backTo={backTo}
        editing={editing}
        submitting={isSubmitting}
        disabled={isSubmitting || (editing && !isDirty)}
      />
    </RecordForm>
  );
}

export function EditLink({ kind, patientId, id }: { kind: RecordKind; patientId: string; id: string }) {
  const { t } = useTranslation('clinical');
  return (
    <IconLink
      to={recordPaths.edit(kind, patientId, id)}
      className="btn btn-outline-primary"
      icon={Pencil}
      testId="record-edit"
    >
      {t('common.edit')}
    </IconLink>
  );
}

/** The delete button and its confirmation (deletion is permanent), then back to the history. */
export function DeleteRecordButton({
  kind,
  patientId,
  id,
  description,
  extra,
  title,
}: {
  kind: RecordKind;
  patientId: string;
  id: string;
  description: string;
  extra?: string;
  /** The dialog's title, when not clinical:delete.title.<kind>. */
  title?: string;
}) {
  const { t } = useTranslation('clinical');
  const navigate = useNavigate();
  const remove = useDeleteRecord(kind, patientId, id);
  const [show, setShow] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const close = () => {
    setProblem(null);
    remove.reset();
    setShow(false);
  };
  const confirm = async () => {
    setProblem(null);
    try {
      const answer = await remove.mutateAsync();
      toastSuccess(answer.code);
      await navigate(historyPath(patientId, recordKinds[kind].tab), { replace: true });
      forgetRecord(kind, patientId, id);
    } catch (error) {
      setProblem(errorMessage(error));
    }
  };
  return (
    <>
      <IconTextButton
        icon={Trash2}
        className="btn btn-outline-danger"
        onClick={() => setShow(true)}
        testId="record-delete"
      >
        {t('common.delete')}
      </IconTextButton>
      <ConfirmDelete
        show={show}
        title={title ?? t(`delete.title.${kind}`)}
        onCancel={close}
        onConfirm={() => void confirm()}
        pending={remove.isPending}
        problem={problem}
        testId="delete-record"
      >
        <p>{t('delete.text', { name: description })}</p>
        {extra ? <p>{extra}</p> : null}
        <p className="mb-0 fw-semibold text-danger-emphasis">{t('delete.permanent')}</p>
      </ConfirmDelete>
    </>
  );
}

/** A label and its value in a record's read view. */
export function Fact({
  label,
  children,
  wide = false,
  testId,
}: {
  label: string;
  children: ReactNode;
  wide?: boolean;
  testId?: string;
}) {
  const empty = children === null || children === undefined || children === '';
  return (
    <div className={`clinical-fact${wide ? ' clinical-fact-wide' : ''}`}>
      <dt>{label}</dt>
      <dd data-testid={testId}>{empty ? <span className="text-body-secondary">—</span> : children}</dd>
    </div>
  );
}

/** A wide fact of free text (notes, a result…): its line breaks kept, a dash when there is none. */
export function TextFact({ label, text, testId }: { label: string; text: string | null | undefined; testId?: string }) {
  return (
    <Fact label={label} wide {...(testId ? { testId } : {})}>
      {text ? <span className="text-prewrap">{text}</span> : null}
    </Fact>
  );
}

/** A calendar date 'YYYY-MM-DD' in the interface language (no time zone shift). */
export { useCalendarDateFormat as useCalendarDate } from '../../session/clinic-time';
