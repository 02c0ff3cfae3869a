import '../auth/zod-setup';
import { currencies, paymentMethods, paymentStatuses } from '@odontia/shared/enums';
import { createPaymentSchema, type OpenDocument } from '@odontia/shared/schemas/payments';
import { Wand2, X } from 'lucide-react';
import { type FormEvent, useEffect, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Combobox, ComboboxOptionText } from '../../components/combobox';
import { describedField, FormField, inputClass } from '../../components/form-field';
import { toastApiError, toastErrorText, toastSuccess } from '../../lib/api-toast';
import { fieldErrorsOf } from '../../lib/field-message';
import { isApiError } from '../../lib/http';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { useCalendarDateFormat, useClinicToday } from '../auth/clinic-time';
import { AllocationTable } from '../commercial/allocation-table';
import { DateInput } from '../profile/date-input';
import { invalidateMoney, type ProviderHit, paymentsApi, useOpenDocuments, useProviderSearch } from './api';
import { useDocumentName } from './badges';
import { fromCents, toCents, useCurrencyFormat } from './format';

/**
 * `/payments/create`: a payment to a provider and its allocation to the provider's open documents
 * ("Proponer imputación" fills them oldest due first; every amount stays editable; what is left
 * stays on account). The Idempotency-Key is made once per form and kept in sessionStorage with
 * the form's values, so a double click, a retry after a lost answer or a reload sends the same
 * key and the same body: the server answers the first payment instead of recording a second.
 */

const storageKey = 'odontia.paymentCreate';

interface Draft {
  key: string;
  providerId: string;
  providerName: string;
  date: string;
  amount: string;
  currency: string;
  method: string;
  transactionNumber: string;
  status: string;
  paidOn: string;
  notes: string;
  allocations: Record<string, string>;
}

function newKey(): string {
  return `payment-${crypto.randomUUID()}`;
}

function loadDraft(today: string, providerId: string | null): Draft {
  try {
    const stored = JSON.parse(sessionStorage.getItem(storageKey) ?? 'null') as Draft | null;
    if (stored?.key && (!providerId || stored.providerId === providerId)) return stored;
  } catch {
    // A broken value: start again.
  }
  return {
    key: newKey(),
    providerId: providerId ?? '',
    providerName: '',
    date: today,
    amount: '',
    currency: 'argentine_peso',
    method: 'bank_transfer',
    transactionNumber: '',
    status: 'paid',
    paidOn: '',
    notes: '',
    allocations: {},
  };
}

export function PaymentForm() {
  const { t } = useTranslation(['payments', 'common']);
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const today = useClinicToday();
  const id = useId();
  const money = useCurrencyFormat();
  const day = useCalendarDateFormat();
  const documentName = useDocumentName();
  const [draft, setDraft] = useState<Draft>(() => loadDraft(today, params.get('providerId')));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  const [open, setOpen] = useState(false);
  const [providerText, setProviderText] = useState(draft.providerName);
  const debounced = useDebouncedValue(providerText, 250);
  const search = useProviderSearch(debounced.trim(), open && debounced.trim().length > 0);
  const documents = useOpenDocuments(draft.providerId);

  useEffect(() => {
    sessionStorage.setItem(storageKey, JSON.stringify(draft));
  }, [draft]);

  // ?providerId= preselects the provider: its name and currency come from the provider's record.
  useEffect(() => {
    if (!draft.providerId || draft.providerName) return;
    let cancelled = false;
    paymentsApi
      .provider(draft.providerId)
      .then(({ data }) => {
        if (cancelled) return;
        setProviderText(data.fantasyName);
        setDraft((current) => ({ ...current, providerName: data.fantasyName, currency: data.currency }));
      })
      .catch(() => undefined);
    return () => {
      cancelled = true;
    };
  }, [draft.providerId, draft.providerName]);

  const set = <K extends keyof Draft>(name: K, value: Draft[K]) =>
    setDraft((current) => ({ ...current, [name]: value }));
  const openDocuments: OpenDocument[] = documents.data ?? [];
  const allocatedCents = useMemo(
    () =>
      Object.entries(draft.allocations).reduce((total, [, value]) => {
        const cents = toCents(value || '0');
        return total + (Number.isNaN(cents) ? 0 : cents);
      }, 0),
    [draft.allocations],
  );
  const amountCents = toCents(draft.amount || '0');
  const remainderCents = (Number.isNaN(amountCents) ? 0 : amountCents) - allocatedCents;

  const propose = () => {
    let left = Number.isNaN(amountCents) ? 0 : amountCents;
    const allocations: Record<string, string> = {};
    for (const document of openDocuments) {
      if (left <= 0) break;
      if (document.currency !== draft.currency) continue;
      const take = Math.min(left, toCents(document.openAmount));
      if (take > 0) allocations[document.id] = fromCents(take);
      left -= take;
    }
    set('allocations', allocations);
  };

  const pickProvider = (provider: ProviderHit) => {
    setProviderText(provider.fantasyName);
    setDraft((current) => ({
      ...current,
      providerId: provider.id,
      providerName: provider.fantasyName,
      currency: provider.currency,
      allocations: {},
    }));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (saving) return;
    const body = {
      providerId: draft.providerId,
      date: draft.date,
      amount: draft.amount.trim().replace(',', '.'),
      currency: draft.currency,
      method: draft.method,
      transactionNumber: draft.transactionNumber.trim() || undefined,
      notes: draft.notes.trim() || undefined,
      status: draft.status,
      paidOn: draft.status === 'paid' && draft.paidOn ? draft.paidOn : undefined,
      allocations: Object.entries(draft.allocations)
        .filter(([, value]) => value.trim() && toCents(value) !== 0)
        .map(([documentId, value]) => ({ documentId, amount: value.trim().replace(',', '.') })),
    };
    const parsed = createPaymentSchema.safeParse(body);
    const found: Record<string, string> = {};
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const path = issue.path[0] === 'allocations' ? 'allocations' : String(issue.path[0] ?? '');
        found[path] ??= issue.message;
      }
    }
    if (remainderCents < 0) found.allocations = 'payment_over_allocation';
    setErrors(found);
    if (Object.keys(found).length > 0) {
      if (found.allocations === 'payment_over_allocation') toastErrorText(t('form.overAllocated'));
      return;
    }
    setSaving(true);
    try {
      const answer = await paymentsApi.create(body, draft.key);
      sessionStorage.removeItem(storageKey);
      toastSuccess('payment_created');
      await invalidateMoney();
      void navigate(`/payments/view/${answer.data.id}`);
    } catch (error) {
      const fields = fieldErrorsOf(error);
      if (fields.length > 0)
        setErrors(Object.fromEntries(fields.map((field) => [field.path.split('.')[0], field.code])));
      if (isApiError(error) && error.code === 'idempotency_key_reused') {
        // The key went out with other values whose answer never came: a new key for these values.
        set('key', newKey());
        toastErrorText(t('form.keyReused'));
      } else toastApiError(error);
    } finally {
      setSaving(false);
    }
  };

  const field = (name: string) => describedField(`${id}-${name}`, errors[name]);
  return (
    <form className="card" noValidate onSubmit={(event) => void submit(event)} data-testid="payment-form">
      <div className="card-body">
        <h2 className="h5 mb-3">{t('form.payment')}</h2>
        <div className="row g-3">
          <FormField
            id={`${id}-providerId`}
            label={t('fields.provider')}
            error={errors.providerId}
            className="col-md-6"
          >
            <Combobox<ProviderHit>
              id={`${id}-providerId`}
              value={providerText}
              onInputChange={(text) => {
                setProviderText(text);
                if (draft.providerId)
                  setDraft((current) => ({ ...current, providerId: '', providerName: '', allocations: {} }));
              }}
              open={open}
              onOpenChange={setOpen}
              items={search.data?.data ?? []}
              itemKey={(provider) => provider.id}
              itemName={(provider) => provider.fantasyName}
              renderItem={(provider) => <ComboboxOptionText name={provider.fantasyName} detail={provider.nif ?? ''} />}
              onPick={pickProvider}
              listLabel={t('form.providers')}
              pending={search.isPending || debounced.trim() === ''}
              busy={search.isFetching}
              pendingText={t('form.searching')}
              emptyText={t('form.noProviders')}
              placeholder={t('form.providerPlaceholder')}
              invalid={Boolean(errors.providerId)}
              describedBy={errors.providerId ? `${id}-providerId-error` : undefined}
              inputTestId="payment-provider"
              optionTestId="payment-provider-option"
            />
          </FormField>
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
              data-testid="payment-amount"
              onChange={(event) => set('amount', event.target.value)}
            />
          </FormField>
          <FormField
            id={`${id}-currency`}
            label={t('fields.currency')}
            error={errors.currency}
            className="col-6 col-md-3"
          >
            <select
              {...field('currency')}
              className="form-select"
              value={draft.currency}
              onChange={(event) =>
                setDraft((current) => ({ ...current, currency: event.target.value, allocations: {} }))
              }
            >
              {currencies.map((currency) => (
                <option key={currency} value={currency}>
                  {t(`currencies.${currency}`)}
                </option>
              ))}
            </select>
          </FormField>
          <FormField id={`${id}-method`} label={t('fields.method')} error={errors.method} className="col-6 col-md-3">
            <select
              {...field('method')}
              className="form-select"
              value={draft.method}
              data-testid="payment-method"
              onChange={(event) => set('method', event.target.value)}
            >
              {paymentMethods.map((method) => (
                <option key={method} value={method}>
                  {t(`methods.${method}`)}
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
              data-testid="payment-transaction"
              onChange={(event) => set('transactionNumber', event.target.value)}
            />
          </FormField>
          <FormField id={`${id}-status`} label={t('fields.status')} error={errors.status} className="col-6 col-md-3">
            <select
              {...field('status')}
              className="form-select"
              value={draft.status}
              data-testid="payment-status-select"
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
      </div>
      <div className="card-body border-top" data-testid="payment-open-documents">
        <div className="d-flex flex-wrap gap-2 align-items-center justify-content-between mb-2">
          <h2 className="h5 mb-0">{t('form.openDocuments')}</h2>
          {openDocuments.length > 0 ? (
            <div className="d-flex gap-2">
              <button
                type="button"
                className="btn btn-outline-primary btn-sm"
                onClick={propose}
                data-testid="payment-propose"
              >
                <Wand2 size={16} aria-hidden="true" className="me-2" />
                {t('form.propose')}
              </button>
              <button type="button" className="btn btn-outline-secondary btn-sm" onClick={() => set('allocations', {})}>
                <X size={16} aria-hidden="true" className="me-2" />
                {t('form.clear')}
              </button>
            </div>
          ) : null}
        </div>
        {!draft.providerId ? (
          <p className="text-body-secondary mb-0">{t('form.pickProvider')}</p>
        ) : documents.isPending ? (
          <p className="text-body-secondary mb-0">{t('form.searching')}</p>
        ) : openDocuments.length === 0 ? (
          <p className="text-body-secondary mb-0" data-testid="payment-no-documents">
            {t('form.noOpenDocuments')}
          </p>
        ) : (
          <AllocationTable
            documents={openDocuments}
            currency={draft.currency}
            allocations={draft.allocations}
            onChange={(documentId, value) => set('allocations', { ...draft.allocations, [documentId]: value })}
            documentName={documentName}
            money={money}
            day={day}
          />
        )}
        <dl className="row mt-3 mb-0 payment-summary" data-testid="payment-summary">
          <dt className="col-7 col-md-9 text-md-end">{t('form.allocatedTotal')}</dt>
          <dd className="col-5 col-md-3 text-end mb-1" data-testid="payment-allocated">
            {money(fromCents(allocatedCents), draft.currency)}
          </dd>
          <dt className="col-7 col-md-9 text-md-end">{t('form.remainder')}</dt>
          <dd
            className={`col-5 col-md-3 text-end mb-0 fw-semibold${remainderCents < 0 ? ' text-danger-emphasis' : ''}`}
            data-testid="payment-remainder"
          >
            {money(fromCents(remainderCents), draft.currency)}
          </dd>
        </dl>
        {remainderCents < 0 || errors.allocations ? (
          <div className="text-danger-emphasis small mt-1" role="alert">
            {t('form.overAllocated')}
          </div>
        ) : null}
      </div>
      <div className="card-footer d-flex gap-2 justify-content-end">
        <Link to="/payments" className="btn btn-outline-secondary">
          {t('form.cancel')}
        </Link>
        <button type="submit" className="btn btn-primary" disabled={saving} data-testid="payment-save">
          {saving ? <span className="spinner-border spinner-border-sm me-2" aria-hidden="true" /> : null}
          {saving ? t('form.saving') : t('form.save')}
        </button>
      </div>
    </form>
  );
}
