import '../auth/zod-setup';
import { currencies, paymentMethods, paymentStatuses } from '@odontia/shared/enums';
import { createCollectionSchema } from '@odontia/shared/schemas/collections';
import type { CustomerLookupItem } from '@odontia/shared/schemas/customers';
import type { OpenDocument } from '@odontia/shared/schemas/payments';
import { Wand2, X } from 'lucide-react';
import { type FormEvent, useEffect, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { describedField, FormField, inputClass } from '../../components/form-field';
import { toastApiError, toastErrorText, toastSuccess } from '../../lib/api-toast';
import { fieldErrorsOf } from '../../lib/field-message';
import { isApiError } from '../../lib/http';
import { useCalendarDateFormat, useClinicToday } from '../auth/clinic-time';
import { useSessionUser } from '../auth/session';
import { AllocationTable } from '../commercial/allocation-table';
import { CustomerPicker } from '../customers/customer-picker';
import { useDocumentName } from '../payments/badges';
import { fromCents, toCents, useCurrencyFormat } from '../payments/format';
import { DateInput } from '../profile/date-input';
import { collectionsApi, invalidateCollections, useCustomerOpenDocuments } from './api';

/**
 * `/collections/create`: money a patient, a company or an insurer pays, allocated to its open sales
 * ("Proponer imputación" fills them oldest due first; every amount stays editable; what is left
 * stays on account). The Idempotency-Key is made once per form and kept in sessionStorage with the
 * form's values, so a double click, a retry after a lost answer or a reload sends the same key and
 * body: the server answers the first collection instead of recording a second.
 * `?customerId=` preselects the customer (from its current account).
 */

const storageKey = 'odontia.collectionCreate';

interface Draft {
  key: string;
  customerId: string;
  patientId: string;
  customerName: string;
  date: string;
  amount: string;
  currency: string;
  method: string;
  transactionNumber: string;
  status: string;
  notes: string;
  allocations: Record<string, string>;
}

function newKey(): string {
  return `collection-${crypto.randomUUID()}`;
}

function loadDraft(today: string, currency: string, customerId: string | null): Draft {
  try {
    const stored = JSON.parse(sessionStorage.getItem(storageKey) ?? 'null') as Draft | null;
    if (stored?.key && (!customerId || stored.customerId === customerId)) return stored;
  } catch {
    // A broken value: start again.
  }
  return {
    key: newKey(),
    customerId: customerId ?? '',
    patientId: '',
    customerName: '',
    date: today,
    amount: '',
    currency,
    method: 'cash_payment',
    transactionNumber: '',
    status: 'paid',
    notes: '',
    allocations: {},
  };
}

export function CollectionForm() {
  const { t } = useTranslation(['collections', 'payments', 'common']);
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const today = useClinicToday();
  const user = useSessionUser();
  const id = useId();
  const money = useCurrencyFormat();
  const day = useCalendarDateFormat();
  const documentName = useDocumentName();
  const [draft, setDraft] = useState<Draft>(() =>
    loadDraft(today, user?.settings.systemCurrency ?? 'argentine_peso', params.get('customerId')),
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  const [customerText, setCustomerText] = useState(draft.customerName);
  const account = useCustomerOpenDocuments(draft.customerId);

  useEffect(() => {
    sessionStorage.setItem(storageKey, JSON.stringify(draft));
  }, [draft]);

  // ?customerId= preselects the customer: its name comes with its open documents.
  useEffect(() => {
    if (!account.data || draft.customerName) return;
    setCustomerText(account.data.name);
    setDraft((current) => ({ ...current, customerName: account.data.name }));
  }, [account.data, draft.customerName]);

  const set = <K extends keyof Draft>(name: K, value: Draft[K]) =>
    setDraft((current) => ({ ...current, [name]: value }));
  const openDocuments: OpenDocument[] = account.data?.documents ?? [];
  const allocatedCents = useMemo(
    () =>
      Object.values(draft.allocations).reduce((total, value) => {
        const cents = toCents(value || '0');
        return total + (Number.isNaN(cents) ? 0 : cents);
      }, 0),
    [draft.allocations],
  );
  const amountCents = toCents(draft.amount || '0');
  const remainderCents = (Number.isNaN(amountCents) ? 0 : amountCents) - allocatedCents;
  const owedCents = openDocuments
    .filter((document) => document.currency === draft.currency)
    .reduce((total, document) => total + toCents(document.openAmount), 0);

  const propose = () => {
    let left = Number.isNaN(amountCents) || amountCents === 0 ? owedCents : amountCents;
    const allocations: Record<string, string> = {};
    for (const document of openDocuments) {
      if (left <= 0) break;
      if (document.currency !== draft.currency) continue;
      const take = Math.min(left, toCents(document.openAmount));
      if (take > 0) allocations[document.id] = fromCents(take);
      left -= take;
    }
    setDraft((current) => ({
      ...current,
      allocations,
      // Nothing typed yet: collect what is owed.
      amount: current.amount.trim() ? current.amount : fromCents(owedCents),
    }));
  };

  const pickCustomer = (customer: CustomerLookupItem) => {
    setCustomerText(customer.name);
    setDraft((current) => ({
      ...current,
      customerId: customer.customerId ?? '',
      patientId: customer.customerId ? '' : (customer.patientId ?? ''),
      customerName: customer.name,
      allocations: {},
    }));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (saving) return;
    const body = {
      ...(draft.customerId ? { customerId: draft.customerId } : {}),
      ...(!draft.customerId && draft.patientId ? { patientId: draft.patientId } : {}),
      date: draft.date,
      amount: draft.amount.trim().replace(',', '.'),
      currency: draft.currency,
      method: draft.method,
      transactionNumber: draft.transactionNumber.trim() || undefined,
      notes: draft.notes.trim() || undefined,
      status: draft.status,
      allocations: Object.entries(draft.allocations)
        .filter(([, value]) => value.trim() && toCents(value) !== 0)
        .map(([documentId, value]) => ({ documentId, amount: value.trim().replace(',', '.') })),
    };
    const parsed = createCollectionSchema.safeParse(body);
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
      const answer = await collectionsApi.create(body, draft.key);
      sessionStorage.removeItem(storageKey);
      toastSuccess('collection_created');
      await invalidateCollections();
      void navigate(`/collections/view/${answer.data.id}`);
    } catch (error) {
      const fields = fieldErrorsOf(error);
      if (fields.length > 0)
        setErrors(Object.fromEntries(fields.map((field) => [field.path.split('.')[0], field.code])));
      if (isApiError(error) && error.code === 'idempotency_key_reused') {
        set('key', newKey());
        toastErrorText(t('form.keyReused'));
      } else toastApiError(error);
    } finally {
      setSaving(false);
    }
  };

  const field = (name: string) => describedField(`${id}-${name}`, errors[name]);
  const picked = Boolean(draft.customerId || draft.patientId);
  return (
    <form className="card" noValidate onSubmit={(event) => void submit(event)} data-testid="collection-form">
      <div className="card-body">
        <h2 className="h5 mb-3">{t('form.collection')}</h2>
        <div className="row g-3">
          <FormField
            id={`${id}-customerId`}
            label={t('fields.customer')}
            error={errors.customerId}
            className="col-md-6"
          >
            <CustomerPicker
              id={`${id}-customerId`}
              value={customerText}
              onText={(text) => {
                setCustomerText(text);
                if (picked)
                  setDraft((current) => ({
                    ...current,
                    customerId: '',
                    patientId: '',
                    customerName: '',
                    allocations: {},
                  }));
              }}
              onPick={pickCustomer}
              invalid={Boolean(errors.customerId)}
              describedBy={errors.customerId ? `${id}-customerId-error` : undefined}
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
              data-testid="collection-amount"
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
                  {t(`payments:currencies.${currency}`)}
                </option>
              ))}
            </select>
          </FormField>
          <FormField id={`${id}-method`} label={t('fields.method')} error={errors.method} className="col-6 col-md-3">
            <select
              {...field('method')}
              className="form-select"
              value={draft.method}
              data-testid="collection-method"
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
              data-testid="collection-transaction"
              onChange={(event) => set('transactionNumber', event.target.value)}
            />
          </FormField>
          <FormField id={`${id}-status`} label={t('fields.status')} error={errors.status} className="col-6 col-md-3">
            <select
              {...field('status')}
              className="form-select"
              value={draft.status}
              data-testid="collection-status-select"
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
      <div className="card-body border-top" data-testid="collection-open-documents">
        <div className="d-flex flex-wrap gap-2 align-items-center justify-content-between mb-2">
          <h2 className="h5 mb-0">{t('form.openDocuments')}</h2>
          {openDocuments.length > 0 ? (
            <div className="d-flex gap-2">
              <button
                type="button"
                className="btn btn-outline-primary btn-sm"
                onClick={propose}
                data-testid="collection-propose"
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
        {account.data ? (
          <p className="small mb-2" data-testid="collection-account">
            {t('form.accountSummary', {
              balance: money(account.data.balance, draft.currency),
              onAccount: money(account.data.onAccount, draft.currency),
            })}
          </p>
        ) : null}
        {!picked ? (
          <p className="text-body-secondary mb-0">{t('form.pickCustomer')}</p>
        ) : !draft.customerId ? (
          <p className="text-body-secondary mb-0">{t('form.neverBilled')}</p>
        ) : account.isPending ? (
          <p className="text-body-secondary mb-0">{t('form.searching')}</p>
        ) : openDocuments.length === 0 ? (
          <p className="text-body-secondary mb-0" data-testid="collection-no-documents">
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
        <dl className="row mt-3 mb-0" data-testid="collection-summary">
          <dt className="col-7 col-md-9 text-md-end">{t('form.allocatedTotal')}</dt>
          <dd className="col-5 col-md-3 text-end mb-1" data-testid="collection-allocated">
            {money(fromCents(allocatedCents), draft.currency)}
          </dd>
          <dt className="col-7 col-md-9 text-md-end">{t('form.remainder')}</dt>
          <dd
            className={`col-5 col-md-3 text-end mb-0 fw-semibold${remainderCents < 0 ? ' text-danger-emphasis' : ''}`}
            data-testid="collection-remainder"
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
        <Link to="/collections" className="btn btn-outline-secondary">
          {t('form.cancel')}
        </Link>
        <button type="submit" className="btn btn-primary" disabled={saving} data-testid="collection-save">
          {saving ? <span className="spinner-border spinner-border-sm me-2" aria-hidden="true" /> : null}
          {saving ? t('form.saving') : t('form.save')}
        </button>
      </div>
    </form>
  );
}
