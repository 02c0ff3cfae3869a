import { Plus, Receipt, Trash2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { type UseFieldArrayReturn, type UseFormReturn, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { describedField, FormField, fieldCodeText, inputClass } from '../../components/form-field';
import { IconButton } from '../../components/icon-button';
import { IconCard } from '../../components/icon-card';
import { useMoneyFormat } from '../inventory/format';
import { AttendanceLineLinks, type LineLinkValues, useBudgetLines, usePriceListOptions } from './attendance-line-links';
import { type AttendanceValues, amountInput, billingTotals, type LineValues, newLine } from './attendance-values';

export function Section(props: { title: string; icon: ReactNode; children: ReactNode; testId?: string }) {
  return (
    <IconCard
      {...props}
      className="mb-0 clinical-form-card"
      titleClassName="card-title h6 mb-0 d-flex align-items-center gap-2"
    />
  );
}

type BudgetLineOption = NonNullable<ReturnType<typeof useBudgetLines>['data']>['data'][number];
type TreatmentOption = NonNullable<ReturnType<typeof usePriceListOptions>['data']>['data'][number];

/** One billed line of an attendance: description, quantity, price, its total, its links. */
function BillingLine({
  form,
  index,
  current,
  lineTotal,
  fieldId,
  feeInvoiced,
  treatments,
  budgetLines,
  onRemove,
}: {
  form: UseFormReturn<AttendanceValues>;
  index: number;
  current: LineValues;
  lineTotal: string;
  fieldId: (name: string) => string;
  feeInvoiced: boolean;
  treatments: TreatmentOption[];
  budgetLines: BudgetLineOption[];
  onRemove: () => void;
}) {
  const { t } = useTranslation('clinical');
  const { t: tPrice } = useTranslation('priceList');
  const {
    register,
    formState: { errors },
  } = form;
  const lineErrors = errors.lines?.[index];
  const number = index + 1;
  const locked = current.invoiced || feeInvoiced;
  const cell = (name: 'description' | 'quantity' | 'price', inputMode?: 'numeric' | 'decimal') => {
    const message = lineErrors?.[name]?.message;
    const cellId = `${fieldId('line')}-${index}-${name}`;
    return (
      <div className={`billing-cell billing-${name}`}>
        <label htmlFor={cellId} className="billing-cell-label small text-body-secondary">
          {t(`fields.${name}`)}
        </label>
        <input
          {...register(`lines.${index}.${name}` as const)}
          {...describedField(cellId, message)}
          className={`${inputClass(message)}${name === 'description' ? '' : ' text-end'}`}
          inputMode={inputMode}
          autoComplete="off"
          readOnly={locked}
        />
        {message ? (
          <div id={`${cellId}-error`} className="invalid-feedback d-block">
            {fieldCodeText(message)}
          </div>
        ) : null}
      </div>
    );
  };
  return (
    <div className="billing-line" data-testid="billing-line">
      {cell('description')}
      {cell('quantity', 'numeric')}
      {cell('price', 'decimal')}
      <div className="billing-cell billing-total text-end">
        <span className="billing-cell-label small text-body-secondary">{t('attendance.lineTotal')}</span>
        <output className="fw-semibold" data-testid="line-total">
          {lineTotal}
        </output>
      </div>
      <div className="billing-cell billing-remove">
        <IconButton
          icon={Trash2}
          label={t('attendance.removeLine', { number })}
          onClick={onRemove}
          className="btn btn-sm btn-outline-danger"
          size={14}
          disabled={locked}
        />
      </div>
      <AttendanceLineLinks
        idPrefix={`${fieldId('line')}-${index}`}
        values={{
          treatmentId: current.treatmentId ?? '',
          tooth: current.tooth ?? '',
          budgetLineId: current.budgetLineId ?? '',
        }}
        errors={{
          treatmentId: lineErrors?.treatmentId?.message,
          tooth: lineErrors?.tooth?.message,
          budgetLineId: lineErrors?.budgetLineId?.message,
        }}
        treatments={treatments}
        budgetLines={budgetLines}
        locked={locked}
        onChange={(next, fill) => {
          const set = (name: keyof LineValues, value: string) => {
            form.setValue(`lines.${index}.${name}` as const, value, { shouldDirty: true });
            form.clearErrors(`lines.${index}.${name}` as const);
          };
          for (const [name, value] of Object.entries(next)) set(name as keyof LineLinkValues, value);
          if (fill?.description) set('description', fill.description);
          if (fill?.price && !(fill.onlyEmptyPrice && current.price)) set('price', amountInput(fill.price));
        }}
      />
      {current.invoiced ? (
        <span className="badge text-bg-secondary billing-invoiced" data-testid="line-invoiced">
          {tPrice('attendanceLines.invoiced')}
        </span>
      ) : null}
    </div>
  );
}

/** The billing of an attendance: billable, its fee, its lines with live totals, the total. */
export function AttendanceBilling({
  form,
  lines,
  fieldId,
  feeInvoiced,
  patientId,
  recordId,
}: {
  form: UseFormReturn<AttendanceValues>;
  lines: UseFieldArrayReturn<AttendanceValues, 'lines'>;
  fieldId: (name: string) => string;
  feeInvoiced: boolean;
  patientId: string;
  recordId: string | null;
}) {
  const { t } = useTranslation('clinical');
  const { t: tPrice } = useTranslation('priceList');
  const money = useMoneyFormat();
  const {
    register,
    control,
    formState: { errors },
  } = form;
  const watchedLines = useWatch({ control, name: 'lines' }) ?? [];
  const fee = useWatch({ control, name: 'attendanceFee' });
  const billable = useWatch({ control, name: 'billable' });
  const totals = billingTotals(fee, watchedLines);
  const priceList = usePriceListOptions();
  const budgetLines = useBudgetLines(patientId, recordId);
  const feeMessage = errors.attendanceFee?.message;
  return (
    <Section title={t('attendance.sections.billing')} icon={<Receipt size={18} aria-hidden="true" />} testId="billing">
      <div className="row g-3 align-items-end">
        <div className="col-sm-6">
          <div className="form-check form-switch mb-2">
            <input
              {...register('billable')}
              id={fieldId('billable')}
              type="checkbox"
              className="form-check-input"
              disabled={feeInvoiced}
            />
            <label htmlFor={fieldId('billable')} className="form-check-label">
              {t('fields.billable')}
              <span className="d-block small text-body-secondary">{t('attendance.billableHint')}</span>
            </label>
          </div>
        </div>
        <div className="col-sm-6">
          <FormField
            id={fieldId('attendanceFee')}
            label={t('fields.attendanceFee')}
            error={feeMessage}
            className="mb-0"
          >
            <input
              {...register('attendanceFee')}
              {...describedField(fieldId('attendanceFee'), feeMessage)}
              className={`${inputClass(feeMessage)} text-end`}
              inputMode="decimal"
              autoComplete="off"
              readOnly={feeInvoiced}
            />
          </FormField>
        </div>
      </div>
      {feeInvoiced ? (
        <p className="small text-body-secondary mt-2 mb-0" data-testid="fee-invoiced">
          {tPrice('attendanceLines.feeInvoiced')}
        </p>
      ) : null}
      <div className="billing-lines mt-3">
        {lines.fields.length === 0 ? (
          <p className="small text-body-secondary mb-2">{t('attendance.noLines')}</p>
        ) : (
          <div className="billing-lines-head small text-body-secondary" aria-hidden="true">
            <span>{t('fields.description')}</span>
            <span>{t('fields.quantity')}</span>
            <span>{t('fields.price')}</span>
            <span className="text-end">{t('fields.total')}</span>
            <span />
          </div>
        )}
        {lines.fields.map((line, index) => (
          <BillingLine
            key={line.id}
            form={form}
            index={index}
            current={watchedLines[index] ?? line}
            lineTotal={money(totals.lineTotals[index])}
            fieldId={fieldId}
            feeInvoiced={feeInvoiced}
            treatments={priceList.data?.data ?? []}
            budgetLines={budgetLines.data?.data ?? []}
            onRemove={() => lines.remove(index)}
          />
        ))}
        <button
          type="button"
          className="btn btn-sm btn-outline-primary"
          onClick={() => lines.append(newLine())}
          data-testid="line-add"
          disabled={feeInvoiced}
        >
          <Plus size={14} aria-hidden="true" className="me-1" />
          {t('attendance.addLine')}
        </button>
      </div>
      <div className={`billing-total-row${billable ? '' : ' text-body-secondary'}`}>
        <span>{t('fields.totalBillable')}</span>
        <output className="fs-5 fw-semibold" data-testid="total-billable">
          {money(totals.total)}
        </output>
      </div>
    </Section>
  );
}
