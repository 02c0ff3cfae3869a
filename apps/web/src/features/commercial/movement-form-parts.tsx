import '../../lib/zod-setup';
import { paymentMethods, paymentStatuses } from '@odontia/shared/enums';
import type { Dispatch, ReactNode, SetStateAction } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DateInput } from '../../components/date-input';
import { describedField, FormField, inputClass } from '../../components/form-field';
import { useSessionUser } from '../../session/session';
import { offeredCurrencies } from './document-form-parts';
import type { MovementDraft, MovementFormTexts } from './movement-draft';

/** Date, amount, currency, method, transaction number, status and notes, after the party (`party`). */
export function MovementFields<D extends MovementDraft>({
  texts,
  id,
  draft,
  setDraft,
  errors,
  party,
  methods,
}: {
  texts: MovementFormTexts;
  id: string;
  draft: D;
  setDraft: Dispatch<SetStateAction<D>>;
  errors: Record<string, string>;
  party: ReactNode;
  /** In place of the method and its operation number (a collection split across methods). */
  methods?: ReactNode;
}) {
  const { t } = useTranslation(texts.namespaces);
  const clinicCurrency = useSessionUser()?.account.currency;
  const prefix = texts.testIdPrefix;
  const field = (name: string) => describedField(`${id}-${name}`, errors[name]);
  const set = (name: keyof MovementDraft, value: string) => setDraft((current) => ({ ...current, [name]: value }));
  return (
    <div className="row g-3">
      {party}
      <FormField id={`${id}-date`} label={t('fields.date')} error={errors.date} className="col-6 col-md-3">
        <DateInput
          {...field('date')}
          name="date"
          className={inputClass(errors.date)}
          value={draft.date}
          onChange={(event) => set('date', event.target.value)}
        />
      </FormField>
      <FormField id={`${id}-amount`} label={t('fields.amount')} error={errors.amount} className="col-6 col-md-3">
        <input
          {...field('amount')}
          className={`${inputClass(errors.amount)} text-end`}
          inputMode="decimal"
          autoComplete="off"
          value={draft.amount}
          data-testid={`${prefix}-amount`}
          onChange={(event) => set('amount', event.target.value)}
        />
      </FormField>
      <FormField id={`${id}-currency`} label={t('fields.currency')} error={errors.currency} className="col-6 col-md-3">
        <select
          {...field('currency')}
          className="form-select"
          value={draft.currency}
          onChange={(event) => setDraft((current) => ({ ...current, currency: event.target.value, allocations: {} }))}
        >
          {offeredCurrencies(clinicCurrency, draft.currency).map((currency) => (
            <option key={currency} value={currency}>
              {t(`payments:currencies.${currency}`)}
            </option>
          ))}
        </select>
      </FormField>
      {methods ?? (
        <>
          <FormField id={`${id}-method`} label={t('fields.method')} error={errors.method} className="col-6 col-md-3">
            <select
              {...field('method')}
              className="form-select"
              value={draft.method}
              data-testid={`${prefix}-method`}
              onChange={(event) => set('method', event.target.value)}
            >
              {paymentMethods.map((method) => (
                <option key={method} value={method}>
                  {t(`payments:methods.${method}`)}
                </option>
              ))}
            </select>
          </FormField>
          <FormField
            id={`${id}-transactionNumber`}
            label={t('fields.transactionNumber')}
            error={errors.transactionNumber}
            className="col-6 col-md-3"
          >
            <input
              {...field('transactionNumber')}
              className={inputClass(errors.transactionNumber)}
              autoComplete="off"
              maxLength={60}
              value={draft.transactionNumber}
              data-testid={`${prefix}-transaction`}
              onChange={(event) => set('transactionNumber', event.target.value)}
            />
          </FormField>
        </>
      )}
      <FormField id={`${id}-status`} label={t('fields.status')} error={errors.status} className="col-6 col-md-3">
        <select
          {...field('status')}
          className="form-select"
          value={draft.status}
          data-testid={`${prefix}-status-select`}
          onChange={(event) => set('status', event.target.value)}
        >
          {paymentStatuses.map((status) => (
            <option key={status} value={status}>
              {t(`statuses.${status}`)}
            </option>
          ))}
        </select>
      </FormField>
      <FormField id={`${id}-notes`} label={t('fields.notes')} error={errors.notes} className="col-12">
        <textarea
          {...field('notes')}
          className={inputClass(errors.notes)}
          rows={2}
          maxLength={2000}
          value={draft.notes}
          onChange={(event) => set('notes', event.target.value)}
        />
      </FormField>
    </div>
  );
}

/** Back to the list, or save (a spinner while it saves). */
export function MovementFormFooter({
  texts,
  listPath,
  saving,
}: {
  texts: MovementFormTexts;
  listPath: string;
  saving: boolean;
}) {
  const { t } = useTranslation(texts.namespaces);
  return (
    <div className="card-footer d-flex gap-2 justify-content-end">
      <Link to={listPath} className="btn btn-outline-secondary">
        {t('form.cancel')}
      </Link>
      <button type="submit" className="btn btn-primary" disabled={saving} data-testid={`${texts.testIdPrefix}-save`}>
        {saving ? <span className="spinner-border spinner-border-sm me-2" aria-hidden="true" /> : null}
        {saving ? t('form.saving') : t('form.save')}
      </button>
    </div>
  );
}
