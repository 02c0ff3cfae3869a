import '../../lib/zod-setup';
import { createPaymentSchema, type OpenDocument } from '@odontia/shared/schemas/payments';
import { useCallback, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { Combobox, ComboboxOptionText } from '../../components/combobox';
import { FormField } from '../../components/form-field';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { useClinicToday } from '../../session/clinic-time';
import { useSessionUser } from '../../session/session';
import { RegisterField } from '../cash-registers/register-field';
import {
  type MovementDraft,
  type MovementFormTexts,
  movementBody,
  newMovementDraft,
  newMovementKey,
  proposeAllocations,
  storedDraft,
  useAllocationSums,
  useMovementSubmit,
  useStoredDraft,
} from '../commercial/movement-draft';
import { MovementFields, MovementFormFooter } from '../commercial/movement-form-parts';
import { MovementOpenDocuments } from '../commercial/movement-open-documents';
import { invalidateMoney, type ProviderHit, paymentsApi, providerOf, useOpenDocuments, useProviderSearch } from './api';

/**
 * `/payments/create`: a payment to a provider and its allocation to the provider's open documents
 * ("Proponer imputación" fills them oldest due first; every amount stays editable; what is left
 * stays on account). The Idempotency-Key is made once per form and kept in sessionStorage with
 * the form's values, so a double click, a retry after a lost answer or a reload sends the same
 * key and the same body: the server answers the first payment instead of recording a second.
 */

const storageKey = 'odontia.paymentCreate';

interface Draft extends MovementDraft {
  providerId: string;
  providerName: string;
  paidOn: string;
  /** The register it is paid from (issue 40); undefined until the default is applied. */
  registerId?: string;
}

const texts: MovementFormTexts = { namespaces: ['payments', 'common'], testIdPrefix: 'payment' };

function loadDraft(today: string, currency: string, providerId: string | null, pay?: PayDocument): Draft {
  // Issue 40: "Pagar" on a settlement opens the form with its payable allocated in full (a fresh draft).
  if (providerId && pay)
    return {
      ...newMovementDraft('payment', today, currency, 'bank_transfer'),
      providerId,
      providerName: '',
      paidOn: '',
      amount: pay.amount,
      allocations: { [pay.documentId]: pay.amount },
    };
  return (
    storedDraft<Draft>(storageKey, (stored) => !providerId || stored.providerId === providerId) ?? {
      ...newMovementDraft('payment', today, currency, 'bank_transfer'),
      providerId: providerId ?? '',
      providerName: '',
      paidOn: '',
    }
  );
}

/** `?documentId=&amount=`: a document to pay in full (a professional's settlement, issue 40). */
interface PayDocument {
  documentId: string;
  amount: string;
}
const payDocumentOf = (params: URLSearchParams): PayDocument | undefined => {
  const documentId = params.get('documentId');
  const amount = params.get('amount');
  return documentId && amount && /^\d+(\.\d{2})?$/.test(amount) ? { documentId, amount } : undefined;
};

export function PaymentForm() {
  const { t } = useTranslation(['payments', 'common']);
  const [params] = useSearchParams();
  const today = useClinicToday();
  const clinicCurrency = useSessionUser()?.account.currency ?? 'argentine_peso';
  const id = useId();
  const { draft, setDraft, set } = useStoredDraft(storageKey, () =>
    loadDraft(today, clinicCurrency, params.get('providerId'), payDocumentOf(params)),
  );
  const [open, setOpen] = useState(false);
  const [providerText, setProviderText] = useState(draft.providerName);
  const debounced = useDebouncedValue(providerText, 250);
  const search = useProviderSearch(debounced.trim(), open && debounced.trim().length > 0);
  const documents = useOpenDocuments(draft.providerId);

  // ?providerId= preselects the provider: its name comes from the provider's record (the currency is the clinic's, issue 35).
  useEffect(() => {
    if (!draft.providerId || draft.providerName) return;
    let cancelled = false;
    providerOf(draft.providerId)
      .then(({ data }) => {
        if (cancelled) return;
        setProviderText(data.fantasyName);
        setDraft((current) => ({ ...current, providerName: data.fantasyName }));
      })
      .catch(() => undefined);
    return () => {
      cancelled = true;
    };
  }, [draft.providerId, draft.providerName, setDraft]);

  const openDocuments: OpenDocument[] = documents.data ?? [];
  const { amountCents, remainderCents } = useAllocationSums(draft);

  const propose = () =>
    set('allocations', proposeAllocations(openDocuments, draft.currency, Number.isNaN(amountCents) ? 0 : amountCents));

  const pickProvider = (provider: ProviderHit) => {
    setProviderText(provider.fantasyName);
    setDraft((current) => ({
      ...current,
      providerId: provider.id,
      providerName: provider.fantasyName,
      allocations: {},
    }));
  };

  const { errors, saving, submit } = useMovementSubmit({
    texts,
    path: '/payments',
    storageKey,
    schema: createPaymentSchema,
    remainderCents,
    body: () => ({
      providerId: draft.providerId,
      ...movementBody(draft),
      paidOn: draft.status === 'paid' && draft.paidOn ? draft.paidOn : undefined,
      ...(draft.registerId ? { registerId: draft.registerId } : {}),
    }),
    create: (body) => paymentsApi.create({ body, idempotencyKey: draft.key }),
    successCode: 'payment_created',
    invalidate: invalidateMoney,
    renewKey: () => set('key', newMovementKey('payment')),
  });

  const pickRegister = useCallback((registerId: string) => set('registerId', registerId), [set]);
  return (
    <form className="card" noValidate onSubmit={(event) => void submit(event)} data-testid="payment-form">
      <div className="card-body">
        <h2 className="h5 mb-3">{t('form.payment')}</h2>
        <MovementFields
          texts={texts}
          id={id}
          draft={draft}
          setDraft={setDraft}
          errors={errors}
          party={
            <>
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
                  renderItem={(provider) => (
                    <ComboboxOptionText name={provider.fantasyName} detail={provider.nif ?? ''} />
                  )}
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
              <RegisterField
                id={`${id}-registerId`}
                value={draft.registerId}
                onChange={pickRegister}
                error={errors.registerId}
              />
            </>
          }
        />
      </div>
      <MovementOpenDocuments
        texts={texts}
        draft={draft}
        set={set}
        documents={openDocuments}
        onPropose={propose}
        overAllocated={Boolean(errors.allocations)}
        waiting={draft.providerId ? null : t('form.pickProvider')}
        pending={documents.isPending}
        summaryClassName="payment-summary"
      />
      <MovementFormFooter texts={texts} listPath="/payments" saving={saving} />
    </form>
  );
}
