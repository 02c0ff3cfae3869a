import '../../lib/zod-setup';
import { normalizeDecimal } from '@odontia/shared/decimal-input';
import { paymentMethods, paymentStatuses } from '@odontia/shared/enums';
import type { OpenDocument } from '@odontia/shared/schemas/payments';
import { Wand2, X } from 'lucide-react';
import { type Dispatch, type ReactNode, type SetStateAction, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { ZodType } from 'zod';
import { DateInput } from '../../components/date-input';
import { describedField, FormField, inputClass } from '../../components/form-field';
import { toastApiError, toastErrorText, toastSuccess } from '../../lib/api-toast';
import { fieldErrorsOf } from '../../lib/field-message';
import { isApiError } from '../../lib/http';
import { useSessionUser } from '../../session/session';
import { fromCents, toCents, useCurrencyFormat } from '../payments/format';
import { offeredCurrencies } from './document-form-parts';

/**
 * What the form of a payment to a provider and of a collection from a customer keep alike: the
 * draft in sessionStorage with its Idempotency-Key, the amount and its allocation to open documents.
 */
export interface MovementDraft {
  /** The Idempotency-Key: made once per form, kept with the values it went out with. */
  key: string;
  date: string;
  amount: string;
  currency: string;
  method: string;
  transactionNumber: string;
  status: string;
  notes: string;
  allocations: Record<string, string>;
}

/** Where a kind of movement's form reads its texts and names its test ids. */
export interface MovementFormTexts {
  /** Its own namespace first (`form.*`, `fields.*`); methods and currencies come from `payments`. */
  namespaces: string[];
  /** `payment`, `collection`: `payment-amount`, `collection-save`. */
  testIdPrefix: string;
}

/** The draft, saved to sessionStorage on every change, and a setter of one of its fields. */
export function useStoredDraft<D extends MovementDraft>(storageKey: string, load: () => D) {
  const [draft, setDraft] = useState<D>(load);
  useEffect(() => {
    sessionStorage.setItem(storageKey, JSON.stringify(draft));
  }, [storageKey, draft]);
  const set = <K extends keyof D>(name: K, value: D[K]) => setDraft((current) => ({ ...current, [name]: value }));
  return { draft, setDraft, set };
}

/** The stored draft when there is one (for this party, when a party is asked for), else null. */
export function storedDraft<D extends MovementDraft>(storageKey: string, matches: (stored: D) => boolean): D | null {
  try {
    const stored = JSON.parse(sessionStorage.getItem(storageKey) ?? 'null') as D | null;
    if (stored?.key && matches(stored)) return stored;
  } catch {
    // A broken value: start again.
  }
  return null;
}

/** Cents allocated, and what is left of the amount (negative: allocated more than the amount). */
export function useAllocationSums(draft: MovementDraft) {
  const allocatedCents = useMemo(
    () =>
      Object.values(draft.allocations).reduce((total, value) => {
        const cents = toCents(value || '0');
        return total + (Number.isNaN(cents) ? 0 : cents);
      }, 0),
    [draft.allocations],
  );
  const amountCents = toCents(draft.amount || '0');
  return {
    allocatedCents,
    amountCents,
    remainderCents: (Number.isNaN(amountCents) ? 0 : amountCents) - allocatedCents,
  };
}

/** `cents` spread over the documents in `currency`, oldest due first (the order they come in). */
export function proposeAllocations(documents: OpenDocument[], currency: string, cents: number): Record<string, string> {
  let left = cents;
  const allocations: Record<string, string> = {};
  for (const document of documents) {
    if (left <= 0) break;
    if (document.currency !== currency) continue;
    const take = Math.min(left, toCents(document.openAmount));
    if (take > 0) allocations[document.id] = fromCents(take);
    left -= take;
  }
  return allocations;
}

/** The fields every movement sends, amounts as plain decimals ("12.500,50" → "12500.50"); allocations of zero left out. */
export const movementBody = (draft: MovementDraft) => ({
  date: draft.date,
  amount: normalizeDecimal(draft.amount) ?? draft.amount.trim(),
  currency: draft.currency,
  method: draft.method,
  transactionNumber: draft.transactionNumber.trim() || undefined,
  notes: draft.notes.trim() || undefined,
  status: draft.status,
  allocations: Object.entries(draft.allocations)
    .filter(([, value]) => value.trim() && toCents(value) !== 0)
    .map(([documentId, value]) => ({ documentId, amount: normalizeDecimal(value) ?? value.trim() })),
});

/** The body's issues by top-level field (an allocation's are the allocations'), and over-allocation. */
export function movementIssues(schema: ZodType, body: unknown, remainderCents: number): Record<string, string> {
  const parsed = schema.safeParse(body);
  const found: Record<string, string> = {};
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const path = issue.path[0] === 'allocations' ? 'allocations' : String(issue.path[0] ?? '');
      found[path] ??= issue.message;
    }
  }
  if (remainderCents < 0) found.allocations = 'payment_over_allocation';
  return found;
}

/**
 * Creates the movement with the draft's key. Done: the draft is forgotten and the view opens. A
 * key already used with other values (their answer never came): a new key for these values.
 */
export async function createMovement({
  create,
  storageKey,
  successCode,
  invalidate,
  onCreated,
  setErrors,
  renewKey,
  keyReusedText,
}: {
  create: () => Promise<{ data: { id: string } }>;
  storageKey: string;
  successCode: string;
  invalidate: () => Promise<void>;
  onCreated: (id: string) => void;
  setErrors: (errors: Record<string, string>) => void;
  renewKey: () => void;
  keyReusedText: string;
}) {
  try {
    const answer = await create();
    sessionStorage.removeItem(storageKey);
    toastSuccess(successCode);
    await invalidate();
    onCreated(answer.data.id);
  } catch (error) {
    const fields = fieldErrorsOf(error);
    if (fields.length > 0) setErrors(Object.fromEntries(fields.map((field) => [field.path.split('.')[0], field.code])));
    if (isApiError(error) && error.code === 'idempotency_key_reused') {
      renewKey();
      toastErrorText(keyReusedText);
    } else toastApiError(error);
  }
}

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

/**
 * The open documents' card: propose and clear (when there are documents), what the form shows of
 * them (`children`), what is allocated and what is left on account.
 */
export function OpenDocumentsSection({
  texts,
  canPropose,
  onPropose,
  onClear,
  allocatedCents,
  remainderCents,
  currency,
  overAllocated,
  summaryClassName = '',
  children,
}: {
  texts: MovementFormTexts;
  canPropose: boolean;
  onPropose: () => void;
  onClear: () => void;
  allocatedCents: number;
  remainderCents: number;
  currency: string;
  overAllocated: boolean;
  summaryClassName?: string;
  children: ReactNode;
}) {
  const { t } = useTranslation(texts.namespaces);
  const money = useCurrencyFormat();
  const prefix = texts.testIdPrefix;
  return (
    <div className="card-body border-top" data-testid={`${prefix}-open-documents`}>
      <div className="d-flex flex-wrap gap-2 align-items-center justify-content-between mb-2">
        <h2 className="h5 mb-0">{t('form.openDocuments')}</h2>
        {canPropose ? (
          <div className="d-flex gap-2">
            <button
              type="button"
              className="btn btn-outline-primary btn-sm"
              onClick={onPropose}
              data-testid={`${prefix}-propose`}
            >
              <Wand2 size={16} aria-hidden="true" className="me-2" />
              {t('form.propose')}
            </button>
            <button type="button" className="btn btn-outline-secondary btn-sm" onClick={onClear}>
              <X size={16} aria-hidden="true" className="me-2" />
              {t('form.clear')}
            </button>
          </div>
        ) : null}
      </div>
      {children}
      <dl
        className={`row mt-3 mb-0${summaryClassName ? ` ${summaryClassName}` : ''}`}
        data-testid={`${prefix}-summary`}
      >
        <dt className="col-7 col-md-9 text-md-end">{t('form.allocatedTotal')}</dt>
        <dd className="col-5 col-md-3 text-end mb-1" data-testid={`${prefix}-allocated`}>
          {money(fromCents(allocatedCents), currency)}
        </dd>
        <dt className="col-7 col-md-9 text-md-end">{t('form.remainder')}</dt>
        <dd
          className={`col-5 col-md-3 text-end mb-0 fw-semibold${remainderCents < 0 ? ' text-danger-emphasis' : ''}`}
          data-testid={`${prefix}-remainder`}
        >
          {money(fromCents(remainderCents), currency)}
        </dd>
      </dl>
      {overAllocated ? (
        <div className="text-danger-emphasis small mt-1" role="alert">
          {t('form.overAllocated')}
        </div>
      ) : null}
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
