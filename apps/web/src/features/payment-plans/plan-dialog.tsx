import { clinicToday } from '@odontia/shared/clinic-time';
import { normalizeDecimal } from '@odontia/shared/decimal-input';
import type { Currency } from '@odontia/shared/enums';
import { type PaymentMethod, paymentMethods } from '@odontia/shared/enums';
import {
  addMonthsClamped,
  fitsInstalments,
  maxPlanAnnualRate,
  maxPlanInstalments,
  type PaymentPlanFrequency,
  paymentPlanFrequencies,
  planSchedule,
} from '@odontia/shared/payment-plans';
import Big from 'big.js';
import { CalendarRange, HandCoins, XCircle } from 'lucide-react';
import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DialogFrame } from '../../components/dialog-frame';
import { FieldFeedback } from '../../components/form-feedback';
import { fieldCodeText } from '../../components/form-field';
import { type FieldCodes, fieldCodesOf } from '../../lib/api-errors';
import { toastApiError, toastSuccess } from '../../lib/api-toast';
import { useClinicTimeZone } from '../../session/clinic-time';
import { RegisterField } from '../cash-registers/register-field';
import { useCurrencyFormat } from '../commercial/money-format';
import { type PaymentPlanRow, useCancelPaymentPlan, useCollectForPlan, useCreatePaymentPlan } from './api';
import { ScheduleTable } from './plan-parts';

/** What the plan dialog reads of the document it finances. */
export interface PlannedDocument {
  id: string;
  number: string | null;
  openAmount: string;
  currency: Currency;
  /** An accepted budget: what it still has to invoice is financed, interest-free (docs/decisions.md). */
  budget?: boolean;
}

/** A typed amount as a plain decimal, or null when it is not one. */
const decimalOf = (value: string) => normalizeDecimal(value.trim());

/**
 * "Plan de pago": the financed amount (default what the invoice still owes), instalments, first due
 * date, frequency and an optional annual rate, with the schedule computed live by the same shared
 * function the server stores it with.
 */
export function PlanDialog({ document, onClose }: { document: PlannedDocument; onClose: () => void }) {
  const { t } = useTranslation('paymentPlans');
  const id = useId();
  const timeZone = useClinicTimeZone();
  const money = useCurrencyFormat();
  const create = useCreatePaymentPlan();
  const [amount, setAmount] = useState('');
  const [count, setCount] = useState('6');
  const [firstDueOn, setFirstDueOn] = useState(() => addMonthsClamped(clinicToday(timeZone), 1));
  const [frequency, setFrequency] = useState<PaymentPlanFrequency>('monthly');
  const [rate, setRate] = useState('');
  const [errors, setErrors] = useState<FieldCodes>({});

  const preview = useMemo(() => {
    const financed = amount.trim() === '' ? document.openAmount : decimalOf(amount);
    const instalments = Number(count);
    const annualRate = document.budget || rate.trim() === '' ? null : decimalOf(rate);
    if (!financed || !/^\d+(\.\d{1,2})?$/.test(financed) || new Big(financed).lte(0)) return null;
    if (new Big(financed).gt(document.openAmount)) return null;
    if (!Number.isInteger(instalments) || instalments < 1 || instalments > maxPlanInstalments) return null;
    if (!document.budget && rate.trim() !== '' && (!annualRate || Number(annualRate) > maxPlanAnnualRate)) return null;
    if (!/^\d{4}-\d{2}-\d{2}$/.test(firstDueOn) || !fitsInstalments(financed, instalments)) return null;
    return planSchedule({ amount: financed, count: instalments, firstDueOn, frequency, annualRate });
  }, [amount, count, firstDueOn, frequency, rate, document.openAmount, document.budget]);

  const submit = async () => {
    setErrors({});
    try {
      const answer = await create.mutateAsync({
        documentId: document.id,
        ...(amount.trim() ? { amount } : {}),
        instalmentCount: count as unknown as number,
        firstDueOn,
        frequency,
        annualRate: document.budget || rate.trim() === '' ? null : rate,
      });
      if (answer.code) toastSuccess(answer.code);
      onClose();
    } catch (error) {
      const fields = fieldCodesOf(error);
      if (fields) setErrors(fields);
      else toastApiError(error);
    }
  };

  const field = (name: string) => ({
    className: `form-control${errors[name] ? ' is-invalid' : ''}`,
    'aria-describedby': errors[name] ? `${id}-${name}-error` : undefined,
  });

  return (
    <DialogFrame
      onHide={onClose}
      testId="plan-dialog"
      size="lg"
      title={t(document.budget ? 'create.budgetTitle' : 'create.title', { number: document.number ?? '' })}
      closeLabel={t('actions.close')}
      cancelLabel={t('actions.cancel')}
      confirm={{
        label: t('create.confirm'),
        onClick: () => void submit(),
        busy: create.isPending,
        disabled: create.isPending,
        icon: CalendarRange,
        testId: 'plan-confirm',
      }}
    >
      <p className="text-body-secondary">
        {t(document.budget ? 'create.budgetIntro' : 'create.intro', {
          pending: money(document.openAmount, document.currency),
        })}
      </p>
      <fieldset disabled={create.isPending} className="row g-3">
        <div className="col-sm-6">
          <label htmlFor={`${id}-amount`} className="form-label">
            {t('fields.financed')}
          </label>
          <input
            id={`${id}-amount`}
            inputMode="decimal"
            autoComplete="off"
            placeholder={money(document.openAmount, document.currency)}
            value={amount}
            onChange={(event) => setAmount(event.target.value)}
            data-testid="plan-amount"
            {...field('amount')}
          />
          <div className="form-text">{t('create.amountHint')}</div>
          <FieldFeedback id={`${id}-amount-error`} message={fieldCodeText(errors.amount)} />
        </div>
        <div className="col-sm-6">
          <label htmlFor={`${id}-count`} className="form-label">
            {t('fields.instalmentCount')}
          </label>
          <input
            id={`${id}-count`}
            type="number"
            min={1}
            max={maxPlanInstalments}
            value={count}
            onChange={(event) => setCount(event.target.value)}
            data-testid="plan-count"
            {...field('instalmentCount')}
          />
          <FieldFeedback id={`${id}-instalmentCount-error`} message={fieldCodeText(errors.instalmentCount)} />
        </div>
        <div className="col-sm-4">
          <label htmlFor={`${id}-first`} className="form-label">
            {t('fields.firstDueOn')}
          </label>
          <input
            id={`${id}-first`}
            type="date"
            value={firstDueOn}
            onChange={(event) => setFirstDueOn(event.target.value)}
            data-testid="plan-first-due"
            {...field('firstDueOn')}
          />
          <FieldFeedback id={`${id}-firstDueOn-error`} message={fieldCodeText(errors.firstDueOn)} />
        </div>
        <div className="col-sm-4">
          <label htmlFor={`${id}-frequency`} className="form-label">
            {t('fields.frequency')}
          </label>
          <select
            id={`${id}-frequency`}
            className="form-select"
            value={frequency}
            onChange={(event) => setFrequency(event.target.value as PaymentPlanFrequency)}
            data-testid="plan-frequency"
          >
            {paymentPlanFrequencies.map((value) => (
              <option key={value} value={value}>
                {t(`frequencies.${value}`)}
              </option>
            ))}
          </select>
        </div>
        {document.budget ? (
          <div className="col-sm-4">
            <p className="form-label mb-1">{t('fields.annualRate')}</p>
            <p className="small text-body-secondary mb-0" data-testid="plan-interest-free">
              {t('create.budgetInterestFree')}
            </p>
          </div>
        ) : (
          <div className="col-sm-4">
            <label htmlFor={`${id}-rate`} className="form-label">
              {t('fields.annualRate')}
            </label>
            <input
              id={`${id}-rate`}
              inputMode="decimal"
              autoComplete="off"
              placeholder={t('create.noInterest')}
              value={rate}
              onChange={(event) => setRate(event.target.value)}
              data-testid="plan-rate"
              {...field('annualRate')}
            />
            <FieldFeedback id={`${id}-annualRate-error`} message={fieldCodeText(errors.annualRate)} />
          </div>
        )}
      </fieldset>
      <section className="mt-4" aria-live="polite" data-testid="plan-preview">
        <h3 className="h6">{t('create.preview')}</h3>
        {preview ? (
          <>
            <ScheduleTable
              instalments={preview.instalments}
              currency={document.currency}
              caption={t('create.preview')}
              testId="plan-preview-table"
            />
            <p className="mt-2 mb-0 small" data-testid="plan-preview-total">
              {Number(preview.interest) > 0
                ? t('create.totalWithInterest', {
                    total: money(preview.total, document.currency),
                    interest: money(preview.interest, document.currency),
                  })
                : t('create.total', { total: money(preview.total, document.currency) })}
            </p>
            {Number(preview.interest) > 0 ? (
              <p className="small text-body-secondary mb-0">{t('create.interestNote')}</p>
            ) : null}
          </>
        ) : (
          <p className="text-body-secondary mb-0">{t('create.previewEmpty')}</p>
        )}
      </section>
    </DialogFrame>
  );
}

/** Cancelling a plan needs a reason; the invoice keeps its debt. */
export function CancelPlanDialog({ plan, onClose }: { plan: PaymentPlanRow; onClose: () => void }) {
  const { t } = useTranslation('paymentPlans');
  const id = useId();
  const cancel = useCancelPaymentPlan(plan.id);
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<FieldCodes>({});
  const submit = async () => {
    setErrors({});
    try {
      const answer = await cancel.mutateAsync({ version: plan.version, reason });
      if (answer.code) toastSuccess(answer.code);
      onClose();
    } catch (error) {
      const fields = fieldCodesOf(error);
      if (fields) setErrors(fields);
      else toastApiError(error);
    }
  };
  return (
    <DialogFrame
      onHide={onClose}
      testId="plan-cancel-dialog"
      title={t('cancel.title')}
      closeLabel={t('actions.close')}
      cancelLabel={t('actions.back')}
      confirm={{
        label: t('cancel.confirm'),
        onClick: () => void submit(),
        className: 'btn-danger',
        busy: cancel.isPending,
        disabled: cancel.isPending,
        icon: XCircle,
        testId: 'plan-cancel-confirm',
      }}
    >
      <p className="text-body-secondary">{t('cancel.intro')}</p>
      <label htmlFor={`${id}-reason`} className="form-label">
        {t('fields.reason')}
      </label>
      <textarea
        id={`${id}-reason`}
        className={`form-control${errors.reason ? ' is-invalid' : ''}`}
        value={reason}
        onChange={(event) => setReason(event.target.value)}
        maxLength={500}
        rows={2}
        aria-describedby={errors.reason ? `${id}-reason-error` : undefined}
        data-testid="plan-cancel-reason"
      />
      <FieldFeedback id={`${id}-reason-error`} message={fieldCodeText(errors.reason)} />
    </DialogFrame>
  );
}

/**
 * A collection against a budget's plan: money on account of the patient tagged to the plan (it pays
 * the instalments oldest first, and the budget's invoices once they are issued). Defaults to what is
 * left of the next instalment.
 */
export function CollectPlanDialog({ plan, onClose }: { plan: PaymentPlanRow; onClose: () => void }) {
  const { t } = useTranslation(['paymentPlans', 'payments']);
  const id = useId();
  const timeZone = useClinicTimeZone();
  const money = useCurrencyFormat();
  const collect = useCollectForPlan();
  const next = plan.instalments.find((instalment) => instalment.state !== 'paid');
  const [amount, setAmount] = useState(() =>
    next ? new Big(next.amount).minus(next.paid).toFixed(2) : new Big(plan.pending).toFixed(2),
  );
  const [method, setMethod] = useState<PaymentMethod>('cash_payment');
  // Money taken at the front desk goes into the drawer this desk works at (issue 40).
  const [registerId, setRegisterId] = useState<string | undefined>(undefined);
  const [errors, setErrors] = useState<FieldCodes>({});
  const submit = async () => {
    setErrors({});
    try {
      const answer = await collect.mutateAsync({
        customerId: plan.customerId,
        date: clinicToday(timeZone),
        amount: decimalOf(amount) ?? amount.trim(),
        currency: plan.currency,
        method,
        status: 'paid',
        allocations: [],
        paymentPlanId: plan.id,
        ...(registerId ? { registerId } : {}),
      });
      if (answer.code) toastSuccess(answer.code);
      onClose();
    } catch (error) {
      const fields = fieldCodesOf(error);
      if (fields) setErrors(fields);
      else toastApiError(error);
    }
  };
  return (
    <DialogFrame
      onHide={onClose}
      testId="plan-collect-dialog"
      title={t('collect.title')}
      closeLabel={t('actions.close')}
      cancelLabel={t('actions.cancel')}
      confirm={{
        label: t('collect.confirm'),
        onClick: () => void submit(),
        busy: collect.isPending,
        disabled: collect.isPending,
        icon: HandCoins,
        testId: 'plan-collect-confirm',
      }}
    >
      <p className="text-body-secondary">
        {t('collect.intro', { pending: money(plan.pending, plan.currency as Currency) })}
      </p>
      <fieldset disabled={collect.isPending} className="row g-3">
        <div className="col-sm-6">
          <label htmlFor={`${id}-amount`} className="form-label">
            {t('collect.amount')}
          </label>
          <input
            id={`${id}-amount`}
            inputMode="decimal"
            autoComplete="off"
            className={`form-control${errors.amount ? ' is-invalid' : ''}`}
            aria-describedby={errors.amount ? `${id}-amount-error` : undefined}
            value={amount}
            onChange={(event) => setAmount(event.target.value)}
            data-testid="plan-collect-amount"
          />
          <FieldFeedback id={`${id}-amount-error`} message={fieldCodeText(errors.amount)} />
        </div>
        <div className="col-sm-6">
          <label htmlFor={`${id}-method`} className="form-label">
            {t('collect.method')}
          </label>
          <select
            id={`${id}-method`}
            className="form-select"
            value={method}
            onChange={(event) => setMethod(event.target.value as PaymentMethod)}
            data-testid="plan-collect-method"
          >
            {paymentMethods.map((value) => (
              <option key={value} value={value}>
                {t(`payments:methods.${value}`)}
              </option>
            ))}
          </select>
        </div>
        <RegisterField
          id={`${id}-register`}
          value={registerId}
          onChange={setRegisterId}
          error={errors.registerId}
          className="col-12"
        />
      </fieldset>
    </DialogFrame>
  );
}
