import { clinicalRoutes } from '@odontia/shared/routes/clinical';
import { treatmentRecord } from '@odontia/shared/routes/treatments';
import type { PendingBudgetLine } from '@odontia/shared/schemas/attendances';
import type { Treatment } from '@odontia/shared/schemas/schedules';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { describedField, fieldCodeText, inputClass } from '../../components/form-field';
import { callApi } from '../../lib/api-client';
import { everyPage } from '../../lib/every-page';

/**
 * The price-list links of an attendance line (issue 18): the treatment it bills (picking one
 * fills the description and the price), the tooth (FDI) and the accepted budget's line it
 * carries out (picking one fills the treatment, the tooth and, when empty, the price).
 */

/** The active treatments of the price list, all of them. */
export function usePriceListOptions() {
  return useQuery({
    queryKey: ['treatments', 'options'],
    queryFn: () =>
      everyPage((page) => callApi(treatmentRecord.routes.list, { query: { ...page, active: 'true', sort: 'group' } })),
    staleTime: 60_000,
  });
}

/** The patient's pending budget lines (and those this attendance links, when editing). */
export function useBudgetLines(patientId: string, attendanceId: string | null) {
  return useQuery({
    queryKey: ['budget-lines', patientId, attendanceId],
    queryFn: () =>
      callApi(clinicalRoutes.budgetLines, {
        params: { patientId },
        query: attendanceId ? { attendanceId } : {},
      }),
  });
}

export interface LineLinkValues {
  treatmentId: string;
  tooth: string;
  budgetLineId: string;
}

export function AttendanceLineLinks({
  idPrefix,
  values,
  errors,
  treatments,
  budgetLines,
  locked,
  onChange,
}: {
  idPrefix: string;
  values: LineLinkValues;
  errors: Partial<Record<keyof LineLinkValues, string | undefined>>;
  treatments: Treatment[];
  budgetLines: PendingBudgetLine[];
  locked: boolean;
  onChange: (
    next: Partial<LineLinkValues>,
    fill?: { description?: string; price?: string; onlyEmptyPrice?: boolean },
  ) => void;
}) {
  const { t } = useTranslation('priceList');
  const groups = new Map<string, Treatment[]>();
  for (const treatment of treatments) {
    const group = treatment.groupName ?? t('attendanceLines.noGroup');
    groups.set(group, [...(groups.get(group) ?? []), treatment]);
  }
  // A line linking a treatment now inactive still shows it.
  const known = new Set(treatments.map((treatment) => treatment.id));
  const label = (line: PendingBudgetLine) =>
    t('attendanceLines.budgetOption', {
      number: line.budgetNumber ?? '—',
      description: line.description,
      tooth: line.tooth ? t('attendanceLines.toothShort', { tooth: line.tooth }) : '',
      done: Number(line.done),
      quantity: Number(line.quantity),
    });
  const field = (name: keyof LineLinkValues) => `${idPrefix}-${name}`;
  return (
    <div className="billing-links" data-testid="line-links">
      <div className="billing-link billing-link-treatment">
        <label htmlFor={field('treatmentId')} className="small text-body-secondary">
          {t('attendanceLines.treatment')}
        </label>
        <select
          {...describedField(field('treatmentId'), errors.treatmentId)}
          className={`form-select form-select-sm${errors.treatmentId ? ' is-invalid' : ''}`}
          value={values.treatmentId}
          disabled={locked}
          onChange={(event) => {
            const picked = treatments.find((treatment) => treatment.id === event.target.value);
            onChange(
              { treatmentId: event.target.value },
              picked ? { description: picked.name, price: picked.price } : undefined,
            );
          }}
          data-testid="line-treatment"
        >
          <option value="">{t('attendanceLines.noTreatment')}</option>
          {values.treatmentId && !known.has(values.treatmentId) ? (
            <option value={values.treatmentId}>{t('attendanceLines.otherTreatment')}</option>
          ) : null}
          {[...groups].map(([group, rows]) => (
            <optgroup key={group} label={group}>
              {rows.map((treatment) => (
                <option key={treatment.id} value={treatment.id}>
                  {treatment.code ? `${treatment.code} · ${treatment.name}` : treatment.name}
                </option>
              ))}
            </optgroup>
          ))}
        </select>
        {errors.treatmentId ? (
          <div id={`${field('treatmentId')}-error`} className="invalid-feedback d-block">
            {fieldCodeText(errors.treatmentId)}
          </div>
        ) : null}
      </div>
      <div className="billing-link billing-link-tooth">
        <label htmlFor={field('tooth')} className="small text-body-secondary">
          {t('attendanceLines.tooth')}
        </label>
        <input
          {...describedField(field('tooth'), errors.tooth)}
          className={`${inputClass(errors.tooth)} form-control-sm`}
          value={values.tooth}
          readOnly={locked}
          inputMode="numeric"
          maxLength={2}
          autoComplete="off"
          placeholder="16"
          onChange={(event) => onChange({ tooth: event.target.value })}
          data-testid="line-tooth"
        />
        {errors.tooth ? (
          <div id={`${field('tooth')}-error`} className="invalid-feedback d-block">
            {fieldCodeText(errors.tooth)}
          </div>
        ) : null}
      </div>
      <div className="billing-link billing-link-budget">
        <label htmlFor={field('budgetLineId')} className="small text-body-secondary">
          {t('attendanceLines.budgetLine')}
        </label>
        <select
          {...describedField(field('budgetLineId'), errors.budgetLineId)}
          className={`form-select form-select-sm${errors.budgetLineId ? ' is-invalid' : ''}`}
          value={values.budgetLineId}
          disabled={locked || (budgetLines.length === 0 && !values.budgetLineId)}
          onChange={(event) => {
            const picked = budgetLines.find((line) => line.id === event.target.value);
            onChange(
              {
                budgetLineId: event.target.value,
                ...(picked
                  ? { treatmentId: picked.treatmentId ?? values.treatmentId, tooth: picked.tooth ?? values.tooth }
                  : {}),
              },
              picked ? { description: picked.description, price: picked.unitPrice, onlyEmptyPrice: true } : undefined,
            );
          }}
          data-testid="line-budget"
        >
          <option value="">
            {budgetLines.length === 0 ? t('attendanceLines.noPendingBudget') : t('attendanceLines.noBudgetLine')}
          </option>
          {budgetLines.map((line) => (
            <option key={line.id} value={line.id}>
              {label(line)}
            </option>
          ))}
        </select>
        {errors.budgetLineId ? (
          <div id={`${field('budgetLineId')}-error`} className="invalid-feedback d-block">
            {fieldCodeText(errors.budgetLineId)}
          </div>
        ) : null}
      </div>
    </div>
  );
}
