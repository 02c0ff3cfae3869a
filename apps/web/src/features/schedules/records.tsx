import { addDays, clinicWallTime, instantOfClinicWallTime } from '@odontia/shared/clinic-time';
import { type ScheduleExceptionKind, scheduleExceptionKinds } from '@odontia/shared/enums';
import '../../lib/zod-setup';
import { type Chair, chairContracts, type ScheduleException, type Treatment } from '@odontia/shared/schemas/schedules';
import { Pencil, Plus, Tags } from 'lucide-react';
import { type ReactNode, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { DeleteRowButton } from '../../components/confirm-delete';
import { type Column, DataTable } from '../../components/data-table';
import { FormDialog } from '../../components/dialog-frame';
import { FieldFeedback, FormAlert } from '../../components/form-feedback';
import { fieldCodeText } from '../../components/form-field';
import { IconLink } from '../../components/icon-link';
import { SwitchField } from '../../components/switch-field';
import { ValueOptions } from '../../components/value-options';
import { toastApiError, toastSuccess } from '../../lib/api-toast';
import { useFormErrors } from '../../lib/form-errors';
import { isApiError } from '../../lib/http';
import { placeStateErrors } from '../../lib/state-form-errors';
import { useClinicTimeZone, useClinicToday, useInstantFormat } from '../../session/clinic-time';
import {
  type RecordCollection,
  type RecordCreateBody,
  useChairs,
  useDeleteRecord,
  useSaveRecord,
  useScheduleExceptions,
  useTreatments,
} from './api';
import { ScheduleSection } from './schedule-section';

/*
 * The agenda's records on /schedules: exceptions (holidays, vacations, blocks), chairs and
 * treatments. Each is created and edited in a dialog and deleted after a confirmation.
 */

/** The shared contract's verdict on a dialog's values: the body to send, or each field's first code. */
function checkedBy<TSchema extends z.ZodType>(
  schema: TSchema,
  values: unknown,
): { body: z.output<TSchema> } | { errors: Record<string, string> } {
  const result = schema.safeParse(values);
  if (result.success) return { body: result.data };
  const errors: Record<string, string> = {};
  for (const issue of result.error.issues) errors[String(issue.path[0])] ??= issue.message;
  return { errors };
}

/** A labelled input with its field message. */
function Field({
  id,
  label,
  error,
  required = false,
  children,
}: {
  id: string;
  label: ReactNode;
  error?: string | undefined;
  required?: boolean;
  children: ReactNode;
}) {
  return (
    <div>
      <label htmlFor={id} className="form-label">
        {label}
        {required ? (
          <span className="text-danger ms-1" aria-hidden="true">
            *
          </span>
        ) : null}
      </label>
      {children}
      <FieldFeedback id={`${id}-error`} message={fieldCodeText(error)} />
    </div>
  );
}
const control = (id: string, error: string | undefined, className = 'form-control') => ({
  id,
  className: `${className}${error ? ' is-invalid' : ''}`,
  'aria-invalid': error ? true : undefined,
  'aria-describedby': error ? `${id}-error` : undefined,
});

/** A record's dialog: its fields, the save (create or edit with the version), a stale version's warning. */
function RecordDialog<TRecord, C extends RecordCollection>({
  collection,
  record,
  title,
  testId,
  body,
  onDone,
  onConflict,
  children,
}: {
  collection: C;
  record: (TRecord & { id: string; version: number }) | null;
  title: string;
  testId: string;
  /** The body to send, or field errors found before sending. */
  body: () => { body: RecordCreateBody<C> } | { errors: Record<string, string> };
  onDone: () => void;
  onConflict: (current: TRecord) => void;
  children: (errors: Record<string, string>) => ReactNode;
}) {
  const { t } = useTranslation('schedules');
  const save = useSaveRecord(collection, record?.id);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [conflict, setConflict] = useState(false);
  const [version, setVersion] = useState(record?.version);
  const formErrors = useFormErrors<HTMLFormElement>();
  const submit = async () => {
    const built = body();
    if ('errors' in built) {
      setErrors(built.errors);
      formErrors.reveal();
      return;
    }
    setErrors({});
    try {
      const answer = await save.mutateAsync(
        record ? { ...built.body, version: version ?? record.version } : built.body,
      );
      if (answer.code) toastSuccess(answer.code);
      onDone();
    } catch (error) {
      if (isApiError(error) && error.code === 'version_conflict') {
        const current = error.details?.current as (TRecord & { version: number }) | undefined;
        if (current) {
          onConflict(current);
          setVersion(current.version);
        }
        setConflict(true);
        return;
      }
      if (!placeStateErrors(error, setErrors, formErrors.reveal)) toastApiError(error);
    }
  };
  return (
    <FormDialog
      ref={formErrors.ref}
      onHide={onDone}
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
      testId={testId}
      title={title}
      closeLabel={t('actions.close')}
      cancelLabel={t('actions.cancel')}
      submit={{
        label: record ? t('actions.save') : t('actions.create'),
        busy: save.isPending,
        disabled: save.isPending,
        testId: 'record-save',
      }}
    >
      {conflict ? (
        <div className="alert alert-warning" role="alert">
          {t('record.conflict')}
        </div>
      ) : null}
      <fieldset disabled={save.isPending} className="d-flex flex-column gap-3">
        {children(errors)}
      </fieldset>
    </FormDialog>
  );
}

function DeleteButton({ collection, id, name }: { collection: RecordCollection; id: string; name: string }) {
  const { t } = useTranslation('schedules');
  const remove = useDeleteRecord(collection, id);
  return (
    <DeleteRowButton
      remove={remove}
      label={`${t('actions.delete')}: ${name}`}
      title={t('record.deleteTitle')}
      testId="record-delete"
    >
      <p className="mb-0">{t('record.deleteText', { name })}</p>
    </DeleteRowButton>
  );
}

function EditButton({ name, onClick }: { name: string; onClick: () => void }) {
  const { t } = useTranslation('schedules');
  return (
    <button
      type="button"
      className="btn btn-sm btn-outline-primary"
      onClick={onClick}
      aria-label={`${t('actions.edit')}: ${name}`}
      data-testid="record-edit"
    >
      <Pencil size={14} aria-hidden="true" />
    </button>
  );
}

function NewButton({ label, onClick, testId }: { label: string; onClick: () => void; testId: string }) {
  return (
    <button type="button" className="btn btn-primary btn-sm" onClick={onClick} data-testid={testId}>
      <Plus size={16} aria-hidden="true" className="me-1" />
      {label}
    </button>
  );
}

/* ---------------------------------------------------------------- exceptions */

interface ExceptionValues {
  kind: ScheduleExceptionKind;
  professionalId: string;
  allDay: boolean;
  startDay: string;
  endDay: string;
  start: string;
  end: string;
  reason: string;
}

function exceptionValues(exception: ScheduleException | null, timeZone: string, today: string): ExceptionValues {
  if (!exception)
    return {
      kind: 'holiday',
      professionalId: '',
      allDay: true,
      startDay: today,
      endDay: today,
      start: `${today}T09:00`,
      end: `${today}T10:00`,
      reason: '',
    };
  const start = clinicWallTime(exception.startsAt, timeZone);
  const end = clinicWallTime(exception.endsAt, timeZone);
  return {
    kind: exception.kind,
    professionalId: exception.professionalId ?? '',
    allDay: exception.allDay,
    startDay: start.slice(0, 10),
    // An all-day exception ends at the start of the day after its last day.
    endDay: exception.allDay ? addDays(end.slice(0, 10), -1) : end.slice(0, 10),
    start,
    end,
    reason: exception.reason ?? '',
  };
}

function ExceptionDialog({
  exception,
  professionals,
  onDone,
}: {
  exception: ScheduleException | null;
  professionals: { id: string; name: string }[];
  onDone: () => void;
}) {
  const { t } = useTranslation('schedules');
  const id = useId();
  const timeZone = useClinicTimeZone();
  const today = useClinicToday();
  const [values, setValues] = useState(() => exceptionValues(exception, timeZone, today));
  const set = (change: Partial<ExceptionValues>) => setValues((current) => ({ ...current, ...change }));
  const body = () => {
    const errors: Record<string, string> = {};
    const instant = (wall: string, field: string) => {
      const found = instantOfClinicWallTime(wall, timeZone);
      if (!found) errors[field] = 'required';
      return found?.toISOString();
    };
    const startsAt = values.allDay
      ? instant(`${values.startDay}T00:00`, 'startsAt')
      : instant(values.start, 'startsAt');
    const endsAt = values.allDay
      ? values.endDay
        ? instant(`${addDays(values.endDay, 1)}T00:00`, 'endsAt')
        : instant('', 'endsAt')
      : instant(values.end, 'endsAt');
    if (startsAt && endsAt && endsAt <= startsAt) errors.endsAt = 'end_before_start';
    // A missing instant has its error already.
    if (!startsAt || !endsAt || Object.keys(errors).length) return { errors };
    return {
      body: {
        kind: values.kind,
        professionalId: values.professionalId || null,
        allDay: values.allDay,
        startsAt,
        endsAt,
        reason: values.reason,
      },
    };
  };
  return (
    <RecordDialog<ScheduleException, 'schedule-exceptions'>
      collection="schedule-exceptions"
      record={exception}
      title={exception ? t('exceptions.edit') : t('exceptions.new')}
      testId="exception-form"
      body={body}
      onDone={onDone}
      onConflict={(current) => setValues(exceptionValues(current, timeZone, today))}
    >
      {(errors) => (
        <>
          <div className="row g-3">
            <div className="col-sm-6">
              <Field id={`${id}-kind`} label={t('exceptions.kind')} error={errors.kind} required>
                <select
                  {...control(`${id}-kind`, errors.kind, 'form-select')}
                  value={values.kind}
                  onChange={(event) => set({ kind: event.target.value as ScheduleExceptionKind })}
                  data-testid="exception-kind"
                >
                  <ValueOptions values={scheduleExceptionKinds} label={(kind) => t(`exceptions.kinds.${kind}`)} />
                </select>
              </Field>
            </div>
            <div className="col-sm-6">
              <Field id={`${id}-professional`} label={t('exceptions.who')} error={errors.professionalId}>
                <select
                  {...control(`${id}-professional`, errors.professionalId, 'form-select')}
                  value={values.professionalId}
                  onChange={(event) => set({ professionalId: event.target.value })}
                  data-testid="exception-professional"
                >
                  <option value="">{t('exceptions.wholeClinic')}</option>
                  {professionals.map((professional) => (
                    <option key={professional.id} value={professional.id}>
                      {professional.name}
                    </option>
                  ))}
                </select>
              </Field>
            </div>
          </div>
          <div className="form-check">
            <input
              id={`${id}-allday`}
              type="checkbox"
              className="form-check-input"
              checked={values.allDay}
              onChange={(event) => set({ allDay: event.target.checked })}
              data-testid="exception-allday"
            />
            <label htmlFor={`${id}-allday`} className="form-check-label">
              {t('exceptions.allDay')}
            </label>
          </div>
          <div className="row g-3">
            <div className="col-sm-6">
              <Field id={`${id}-start`} label={t('exceptions.from')} error={errors.startsAt} required>
                {values.allDay ? (
                  <input
                    type="date"
                    {...control(`${id}-start`, errors.startsAt)}
                    value={values.startDay}
                    onChange={(event) =>
                      set({
                        startDay: event.target.value,
                        endDay: values.endDay < event.target.value ? event.target.value : values.endDay,
                      })
                    }
                    data-testid="exception-start"
                  />
                ) : (
                  <input
                    type="datetime-local"
                    {...control(`${id}-start`, errors.startsAt)}
                    value={values.start}
                    onChange={(event) => set({ start: event.target.value })}
                    data-testid="exception-start"
                  />
                )}
              </Field>
            </div>
            <div className="col-sm-6">
              <Field
                id={`${id}-end`}
                label={t(values.allDay ? 'exceptions.toDay' : 'exceptions.to')}
                error={errors.endsAt}
                required
              >
                {values.allDay ? (
                  <input
                    type="date"
                    {...control(`${id}-end`, errors.endsAt)}
                    value={values.endDay}
                    onChange={(event) => set({ endDay: event.target.value })}
                    data-testid="exception-end"
                  />
                ) : (
                  <input
                    type="datetime-local"
                    {...control(`${id}-end`, errors.endsAt)}
                    value={values.end}
                    onChange={(event) => set({ end: event.target.value })}
                    data-testid="exception-end"
                  />
                )}
              </Field>
            </div>
          </div>
          <Field id={`${id}-reason`} label={t('exceptions.reason')} error={errors.reason}>
            <input
              {...control(`${id}-reason`, errors.reason)}
              value={values.reason}
              maxLength={200}
              onChange={(event) => set({ reason: event.target.value })}
              data-testid="exception-reason"
            />
          </Field>
        </>
      )}
    </RecordDialog>
  );
}

export function ExceptionsSection({
  canWrite,
  professionals,
}: {
  canWrite: boolean;
  professionals: { id: string; name: string }[];
}) {
  const { t } = useTranslation('schedules');
  const [page, setPage] = useState(1);
  const [showPast, setShowPast] = useState(false);
  const timeZone = useClinicTimeZone();
  const today = useClinicToday();
  const from = showPast ? undefined : instantOfClinicWallTime(`${today}T00:00`, timeZone)?.toISOString();
  const query = useScheduleExceptions({ page, ...(from ? { from } : {}) });
  const dateTime = useInstantFormat('dateTime');
  const date = useInstantFormat('date');
  const [editing, setEditing] = useState<ScheduleException | 'new' | null>(null);
  const when = (row: ScheduleException) =>
    row.allDay
      ? `${date(row.startsAt)} – ${date(new Date(Date.parse(row.endsAt) - 3_600_000).toISOString())}`
      : `${dateTime(row.startsAt)} – ${dateTime(row.endsAt)}`;
  const columns: Column<ScheduleException>[] = [
    { key: 'when', header: t('exceptions.when'), cell: when, primary: true },
    { key: 'kind', header: t('exceptions.kind'), cell: (row) => t(`exceptions.kinds.${row.kind}`) },
    {
      key: 'who',
      header: t('exceptions.who'),
      cell: (row) => row.professionalName ?? t('exceptions.wholeClinic'),
    },
    { key: 'reason', header: t('exceptions.reason'), cell: (row) => row.reason ?? '' },
    ...(canWrite
      ? [
          {
            key: 'actions',
            header: <span className="visually-hidden">{t('actions.title')}</span>,
            className: 'text-end text-nowrap',
            cell: (row: ScheduleException) => (
              <div className="d-inline-flex gap-1">
                <EditButton name={when(row)} onClick={() => setEditing(row)} />
                <DeleteButton collection="schedule-exceptions" id={row.id} name={when(row)} />
              </div>
            ),
          },
        ]
      : []),
  ];
  return (
    <ScheduleSection
      title={t('exceptions.title')}
      intro={t('exceptions.intro')}
      testId="exceptions-section"
      aside={
        <>
          <div className="form-check form-switch mb-0">
            <input
              id="exceptions-past"
              type="checkbox"
              className="form-check-input"
              checked={showPast}
              onChange={(event) => {
                setShowPast(event.target.checked);
                setPage(1);
              }}
            />
            <label htmlFor="exceptions-past" className="form-check-label small">
              {t('exceptions.showPast')}
            </label>
          </div>
          {canWrite ? (
            <NewButton label={t('exceptions.new')} onClick={() => setEditing('new')} testId="exception-new" />
          ) : null}
        </>
      }
      after={
        editing ? (
          <ExceptionDialog
            exception={editing === 'new' ? null : editing}
            professionals={professionals}
            onDone={() => setEditing(null)}
          />
        ) : null
      }
    >
      <DataTable
        columns={columns}
        query={query}
        rowKey={(row) => row.id}
        label={t('exceptions.title')}
        emptyText={t('exceptions.empty')}
        rowProps={() => ({ 'data-testid': 'exception-row' })}
        pagination={{ page, pageSize: 20, onPage: setPage, onlyWhenNeeded: true }}
        compact
      />
    </ScheduleSection>
  );
}

/* ---------------------------------------------------------------- treatments */

export function TreatmentsSection({ canWrite }: { canWrite: boolean }) {
  const { t } = useTranslation('schedules');
  const treatments = useTreatments();
  // The price list is the one editor of a treatment (issue 18): price, VAT, duration and colour.
  return (
    <CompactList
      title={t('treatments.title')}
      intro={t('treatments.intro')}
      testId="treatments-section"
      newButton={
        canWrite ? (
          <IconLink
            to="/price-list"
            className="btn btn-sm btn-outline-primary"
            icon={Tags}
            small
            testId="treatments-price-list"
          >
            {t('treatments.editInPriceList')}
          </IconLink>
        ) : null
      }
      query={treatments}
      empty={t('treatments.empty')}
      row={(treatment: Treatment) => (
        <li key={treatment.id} className="list-group-item d-flex align-items-center gap-2" data-testid="treatment-row">
          <span
            className="schedules-swatch flex-shrink-0"
            style={{ backgroundColor: treatment.color ?? 'transparent' }}
            aria-hidden="true"
          />
          <div className="me-auto min-w-0">
            <div className="fw-semibold text-truncate">{treatment.name}</div>
            <div className="small text-body-secondary">
              {t('treatments.minutes', { count: treatment.durationMinutes })}
              {treatment.code ? ` · ${treatment.code}` : ''}
              {treatment.active ? '' : ` · ${t('record.inactive')}`}
            </div>
          </div>
        </li>
      )}
    >
      {null}
    </CompactList>
  );
}

/* ---------------------------------------------------------------- chairs */

function ChairDialog({ chair, next, onDone }: { chair: Chair | null; next: number; onDone: () => void }) {
  const { t } = useTranslation('schedules');
  const id = useId();
  const valuesOf = (record: Chair | null) => ({
    name: record?.name ?? '',
    sortOrder: String(record?.sortOrder ?? next),
    active: record?.active ?? true,
  });
  const [values, setValues] = useState(() => valuesOf(chair));
  const set = (change: Partial<typeof values>) => setValues((current) => ({ ...current, ...change }));
  const body = () => checkedBy(chairContracts.create, { ...values, sortOrder: values.sortOrder || 0 });
  return (
    <RecordDialog<Chair, 'chairs'>
      collection="chairs"
      record={chair}
      title={chair ? t('chairs.edit') : t('chairs.new')}
      testId="chair-form"
      body={body}
      onDone={onDone}
      onConflict={(current) => setValues(valuesOf(current))}
    >
      {(errors) => (
        <>
          <Field id={`${id}-name`} label={t('chairs.name')} error={errors.name} required>
            <input
              {...control(`${id}-name`, errors.name)}
              value={values.name}
              maxLength={60}
              onChange={(event) => set({ name: event.target.value })}
              data-testid="chair-name"
            />
          </Field>
          <Field id={`${id}-order`} label={t('chairs.order')} error={errors.sortOrder}>
            <input
              type="number"
              min={0}
              max={999}
              {...control(`${id}-order`, errors.sortOrder)}
              value={values.sortOrder}
              onChange={(event) => set({ sortOrder: event.target.value })}
            />
          </Field>
          <SwitchField
            id={`${id}-active`}
            label={t('record.active')}
            input={{ checked: values.active, onChange: (event) => set({ active: event.target.checked }) }}
          />
        </>
      )}
    </RecordDialog>
  );
}

export function ChairsSection({ canWrite }: { canWrite: boolean }) {
  const { t } = useTranslation('schedules');
  const chairs = useChairs();
  const [editing, setEditing] = useState<Chair | 'new' | null>(null);
  const next = Math.max(0, ...(chairs.data?.data.map((chair) => chair.sortOrder) ?? [])) + 1;
  return (
    <CompactList
      title={t('chairs.title')}
      intro={t('chairs.intro')}
      testId="chairs-section"
      newButton={
        canWrite ? <NewButton label={t('chairs.new')} onClick={() => setEditing('new')} testId="chair-new" /> : null
      }
      query={chairs}
      empty={t('chairs.empty')}
      row={(chair: Chair) => (
        <li key={chair.id} className="list-group-item d-flex align-items-center gap-2" data-testid="chair-row">
          <div className="me-auto min-w-0">
            <div className="fw-semibold text-truncate">{chair.name}</div>
            {chair.active ? null : <div className="small text-body-secondary">{t('record.inactive')}</div>}
          </div>
          {canWrite ? (
            <>
              <EditButton name={chair.name} onClick={() => setEditing(chair)} />
              <DeleteButton collection="chairs" id={chair.id} name={chair.name} />
            </>
          ) : null}
        </li>
      )}
    >
      {editing ? (
        <ChairDialog chair={editing === 'new' ? null : editing} next={next} onDone={() => setEditing(null)} />
      ) : null}
    </CompactList>
  );
}

function CompactList<Row>({
  title,
  intro,
  testId,
  newButton,
  query,
  empty,
  row,
  children,
}: {
  title: string;
  intro: string;
  testId: string;
  newButton: ReactNode;
  query: { data?: { data: Row[] } | undefined; isPending: boolean; isError: boolean };
  empty: string;
  row: (row: Row) => ReactNode;
  children: ReactNode;
}) {
  const { t } = useTranslation('schedules');
  return (
    <ScheduleSection
      title={title}
      intro={intro}
      testId={testId}
      aside={newButton}
      className="card mb-0 h-100"
      after={children}
    >
      {query.isPending ? (
        <p className="text-body-secondary mb-0">{t('loading')}</p>
      ) : query.isError || !query.data ? (
        <FormAlert>{t('loadError')}</FormAlert>
      ) : query.data.data.length === 0 ? (
        <p className="text-body-secondary mb-0">{empty}</p>
      ) : (
        <ul className="list-group">{query.data.data.map(row)}</ul>
      )}
    </ScheduleSection>
  );
}
