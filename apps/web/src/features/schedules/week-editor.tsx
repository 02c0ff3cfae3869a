import { type Weekday, weekdays } from '@odontia/shared/enums';
import { type Schedule, type ScheduleRange, saveScheduleRequestSchema } from '@odontia/shared/schemas/schedules';
import { CopyCheck, Plus, Save, Trash2 } from 'lucide-react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BusyIcon } from '../../components/busy-icon';
import { FieldFeedback } from '../../components/form-feedback';
import { fieldCodeText } from '../../components/form-field';
import { IconTextButton } from '../../components/icon-button';
import { fieldErrorsOf } from '../../lib/api-errors';
import { toastApiError, toastSuccess } from '../../lib/api-toast';
import { useFormErrors } from '../../lib/form-errors';
import { isApiError } from '../../lib/http';
import { useSaveWeek } from './api';

/*
 * One owner's week (the clinic's opening hours or a professional's attendance schedule): each
 * weekday, Monday first as a Spanish clinic reads it (stored Sunday … Saturday), with its ranges
 * of opening, closing and an optional recess. Saved whole with the version read; the shared
 * contract checks it first, and the server's field errors land on the same inputs.
 */

/** Monday first on screen. */
export const displayedWeekdays: Weekday[] = [...weekdays.slice(1), 'sunday'];
const workingDays: Weekday[] = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'];

type Row = { key: number; weekday: Weekday; opening: string; closing: string; recessStart: string; recessEnd: string };
let nextKey = 1;
const rowOf = (range: Omit<ScheduleRange, 'weekday'> & { weekday: Weekday }): Row => ({
  key: nextKey++,
  weekday: range.weekday,
  opening: range.opening,
  closing: range.closing,
  recessStart: range.recessStart ?? '',
  recessEnd: range.recessEnd ?? '',
});
export const rowsOf = (schedule: Pick<Schedule, 'ranges'>): Row[] =>
  schedule.ranges.map((range) => rowOf({ ...range, weekday: range.weekday as Weekday }));

/** Field errors by `<row key>.<field>`, from paths `ranges.<index>.<field>` of the rows sent. */
export function errorsByRow(rows: Row[], fields: { path: string; code: string }[]): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const field of fields) {
    const match = /^ranges\.(\d+)\.(\w+)$/.exec(field.path);
    const row = match ? rows[Number(match[1])] : undefined;
    if (row && match) errors[`${row.key}.${match[2]}`] ??= field.code;
  }
  return errors;
}

const fieldNames = ['opening', 'closing', 'recessStart', 'recessEnd'] as const;

export function WeekEditor({
  schedule,
  canEdit,
  testId,
  initialRows,
  emptyDay,
  onSaved,
}: {
  schedule: Schedule;
  canEdit: boolean;
  testId: string;
  /** Rows to start from instead of the saved ones (a professional's "copy the clinic's hours"). */
  initialRows?: Row[];
  /** What a day without ranges says (default "Cerrado"; a professional following the clinic's hours says so). */
  emptyDay?: string | undefined;
  onSaved?: () => void;
}) {
  const { t } = useTranslation('schedules');
  const id = useId();
  const [rows, setRows] = useState<Row[]>(() => initialRows ?? rowsOf(schedule));
  const [version, setVersion] = useState(schedule.version);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [conflict, setConflict] = useState(false);
  const formErrors = useFormErrors<HTMLDivElement>();
  const save = useSaveWeek(schedule.professionalId);

  const change = (key: number, field: (typeof fieldNames)[number], value: string) =>
    setRows((current) => current.map((row) => (row.key === key ? { ...row, [field]: value } : row)));
  const add = (weekday: Weekday) => {
    const last = rows.filter((row) => row.weekday === weekday).at(-1);
    setRows([
      ...rows,
      rowOf(
        last
          ? {
              weekday,
              opening: last.closing < '20:00' ? last.closing : '16:00',
              closing: '20:00',
              recessStart: null,
              recessEnd: null,
            }
          : { weekday, opening: '09:00', closing: '18:00', recessStart: null, recessEnd: null },
      ),
    ]);
  };
  const remove = (key: number) => setRows(rows.filter((row) => row.key !== key));
  const copyToWorkingDays = (weekday: Weekday) => {
    const source = rows.filter((row) => row.weekday === weekday);
    const others = rows.filter((row) => row.weekday === weekday || !workingDays.includes(row.weekday));
    const copies = workingDays
      .filter((day) => day !== weekday)
      .flatMap((day) => source.map((row) => ({ ...row, key: nextKey++, weekday: day })));
    setRows([...others, ...copies]);
  };

  const body = () => ({
    version,
    ranges: rows.map(({ weekday, opening, closing, recessStart, recessEnd }) => ({
      weekday,
      opening,
      closing,
      recessStart: recessStart || null,
      recessEnd: recessEnd || null,
    })),
  });

  const submit = async () => {
    const request = body();
    const checked = saveScheduleRequestSchema.safeParse(request);
    if (!checked.success) {
      setErrors(
        errorsByRow(
          rows,
          checked.error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), code: issue.message })),
        ),
      );
      formErrors.reveal();
      return;
    }
    setErrors({});
    try {
      const answer = await save.mutateAsync(request);
      setVersion(answer.data.version);
      setRows(rowsOf(answer.data));
      setConflict(false);
      toastSuccess(answer.code);
      onSaved?.();
    } catch (error) {
      if (isApiError(error) && error.code === 'version_conflict') {
        const current = error.details?.current as Schedule | undefined;
        if (current) {
          setRows(rowsOf(current));
          setVersion(current.version);
        }
        setConflict(true);
        return;
      }
      const fields = fieldErrorsOf(error);
      if (fields.length) {
        setErrors(errorsByRow(rows, fields));
        formErrors.reveal();
      } else toastApiError(error);
    }
  };

  return (
    <div ref={formErrors.ref} className="d-flex flex-column gap-2" data-testid={testId}>
      {conflict ? (
        <div className="alert alert-warning mb-0" role="alert" data-testid="week-conflict">
          {t('week.conflict')}
        </div>
      ) : null}
      <fieldset disabled={!canEdit || save.isPending} className="d-flex flex-column gap-2">
        <legend className="visually-hidden">{t('week.legend')}</legend>
        {displayedWeekdays.map((weekday) => {
          const dayRows = rows.filter((row) => row.weekday === weekday);
          return (
            <div key={weekday} className="week-day border rounded p-2" data-testid={`day-${weekday}`}>
              <div className="d-flex flex-wrap align-items-center gap-2">
                <h3 className="h6 mb-0 me-auto week-day-name">{t(`weekdays.${weekday}`)}</h3>
                {dayRows.length === 0 ? (
                  <span className="badge text-bg-secondary" data-testid="day-closed">
                    {emptyDay ?? t('week.closed')}
                  </span>
                ) : null}
                {canEdit ? (
                  <>
                    <IconTextButton
                      icon={Plus}
                      className="btn btn-sm btn-outline-primary"
                      onClick={() => add(weekday)}
                      testId="range-add"
                      small
                    >
                      {t('week.addRange')}
                    </IconTextButton>
                    {dayRows.length > 0 && workingDays.includes(weekday) ? (
                      <IconTextButton
                        icon={CopyCheck}
                        className="btn btn-sm btn-outline-secondary"
                        onClick={() => copyToWorkingDays(weekday)}
                        testId="copy-working-days"
                        small
                      >
                        {t('week.copyToWorkingDays')}
                      </IconTextButton>
                    ) : null}
                  </>
                ) : null}
              </div>
              {dayRows.map((row, index) => (
                <div key={row.key} className="week-range row g-2 align-items-start mt-1" data-testid="range">
                  {fieldNames.map((field) => {
                    const inputId = `${id}-${row.key}-${field}`;
                    const error = errors[`${row.key}.${field}`];
                    return (
                      <div key={field} className="col-6 col-md-3 col-lg">
                        <label htmlFor={inputId} className="form-label small mb-1">
                          {t(`week.${field}`)}
                          <span className="visually-hidden">
                            {' '}
                            {t(`weekdays.${weekday}`)} {index + 1}
                          </span>
                        </label>
                        <input
                          id={inputId}
                          type="time"
                          step={300}
                          className={`form-control form-control-sm${error ? ' is-invalid' : ''}`}
                          value={row[field]}
                          onChange={(event) => change(row.key, field, event.target.value)}
                          aria-invalid={error ? true : undefined}
                          aria-describedby={error ? `${inputId}-error` : undefined}
                          data-testid={`range-${field}`}
                        />
                        <FieldFeedback id={`${inputId}-error`} message={fieldCodeText(error)} />
                      </div>
                    );
                  })}
                  {canEdit ? (
                    <div className="col-12 col-lg-auto d-flex align-items-end justify-content-end week-range-remove">
                      <button
                        type="button"
                        className="btn btn-sm btn-outline-danger"
                        onClick={() => remove(row.key)}
                        aria-label={`${t('week.removeRange')}: ${t(`weekdays.${weekday}`)} ${row.opening}–${row.closing}`}
                        data-testid="range-remove"
                      >
                        <Trash2 size={14} aria-hidden="true" />
                      </button>
                    </div>
                  ) : null}
                </div>
              ))}
            </div>
          );
        })}
        {canEdit ? (
          <div className="d-flex justify-content-end">
            <button type="button" className="btn btn-primary" onClick={() => void submit()} data-testid="week-save">
              <BusyIcon busy={save.isPending} icon={Save} />
              {t('week.save')}
            </button>
          </div>
        ) : null}
      </fieldset>
    </div>
  );
}
