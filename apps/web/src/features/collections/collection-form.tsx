import '../../lib/zod-setup';
import { normalizeDecimal } from '@odontia/shared/decimal-input';
import { createCollectionSchema } from '@odontia/shared/schemas/collections';
import type { CustomerLookupItem } from '@odontia/shared/schemas/customers';
import type { OpenDocument } from '@odontia/shared/schemas/payments';
import { useCallback, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { FormField } from '../../components/form-field';
import { useClinicToday } from '../../session/clinic-time';
import { useSessionUser } from '../../session/session';
import { RegisterField } from '../cash-registers/register-field';
import { fromCents, toCents, useCurrencyFormat } from '../commercial/money-format';
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
import { CustomerPicker } from '../customers/customer-picker';
import { collectionsApi, invalidateCollections, useCustomerOpenDocuments } from './api';
import { CollectionParts, type PartDraft, SplitMethodsButton, splitMethods } from './collection-parts';

/**
 * `/collections/create`: money a patient, a company or an insurer pays, allocated to its open sales
 * ("Proponer imputación" fills them oldest due first; every amount stays editable; what is left
 * stays on account). The Idempotency-Key is made once per form and kept in sessionStorage with the
 * form's values, so a double click, a retry after a lost answer or a reload sends the same key and
 * body: the server answers the first collection instead of recording a second.
 * `?customerId=` preselects the customer (from its current account).
 */

const storageKey = 'odontia.collectionCreate';

interface Draft extends MovementDraft {
  customerId: string;
  patientId: string;
  customerName: string;
  /** Split across methods (issue 35); empty: one method for the whole amount. */
  parts?: PartDraft[];
  /** The register it is taken at (issue 40); undefined until the default is applied. */
  registerId?: string;
}

const texts: MovementFormTexts = { namespaces: ['collections', 'payments', 'common'], testIdPrefix: 'collection' };

function loadDraft(today: string, currency: string, customerId: string | null): Draft {
  return (
    storedDraft<Draft>(storageKey, (stored) => !customerId || stored.customerId === customerId) ?? {
      ...newMovementDraft('collection', today, currency, 'cash_payment'),
      customerId: customerId ?? '',
      patientId: '',
      customerName: '',
      parts: [],
    }
  );
}

export function CollectionForm() {
  const { t } = useTranslation(['collections', 'payments', 'common']);
  const [params] = useSearchParams();
  const today = useClinicToday();
  const user = useSessionUser();
  const id = useId();
  const money = useCurrencyFormat();
  const { draft, setDraft, set } = useStoredDraft(storageKey, () =>
    loadDraft(today, user?.account.currency ?? 'argentine_peso', params.get('customerId')),
  );
  const [customerText, setCustomerText] = useState(draft.customerName);
  const account = useCustomerOpenDocuments(draft.customerId);

  // ?customerId= preselects the customer: its name comes with its open documents.
  useEffect(() => {
    if (!account.data || draft.customerName) return;
    setCustomerText(account.data.name);
    setDraft((current) => ({ ...current, customerName: account.data.name }));
  }, [account.data, draft.customerName, setDraft]);

  const openDocuments: OpenDocument[] = account.data?.documents ?? [];
  const { amountCents, remainderCents } = useAllocationSums(draft);
  const parts = draft.parts ?? [];
  const owedCents = openDocuments
    .filter((document) => document.currency === draft.currency)
    .reduce((total, document) => total + toCents(document.openAmount), 0);

  const propose = () => {
    const allocations = proposeAllocations(
      openDocuments,
      draft.currency,
      Number.isNaN(amountCents) || amountCents === 0 ? owedCents : amountCents,
    );
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

  const { errors, saving, submit } = useMovementSubmit({
    texts,
    path: '/collections',
    storageKey,
    schema: createCollectionSchema,
    remainderCents,
    body: () => ({
      ...(draft.customerId ? { customerId: draft.customerId } : {}),
      ...(!draft.customerId && draft.patientId ? { patientId: draft.patientId } : {}),
      ...movementBody(draft),
      ...(draft.registerId ? { registerId: draft.registerId } : {}),
      // Split: the parts say the methods; the amount stays the receipt's total.
      ...(parts.length > 0
        ? {
            method: undefined,
            transactionNumber: undefined,
            parts: parts.map((part) => ({
              method: part.method,
              amount: normalizeDecimal(part.amount) ?? part.amount.trim(),
              transactionNumber: part.transactionNumber.trim() || undefined,
            })),
          }
        : {}),
    }),
    create: (body) => collectionsApi.create({ body, idempotencyKey: draft.key }),
    successCode: 'collection_created',
    invalidate: invalidateCollections,
    renewKey: () => set('key', newMovementKey('collection')),
  });

  const pickRegister = useCallback((registerId: string) => set('registerId', registerId), [set]);
  const picked = Boolean(draft.customerId || draft.patientId);
  const { setParts, split } = splitMethods(setDraft);
  return (
    <form className="card" noValidate onSubmit={(event) => void submit(event)} data-testid="collection-form">
      <div className="card-body">
        <h2 className="h5 mb-3">{t('form.collection')}</h2>
        <MovementFields
          texts={texts}
          id={id}
          draft={draft}
          setDraft={setDraft}
          errors={errors}
          methods={
            parts.length > 0 ? (
              <CollectionParts
                id={id}
                amount={draft.amount}
                currency={draft.currency}
                parts={parts}
                error={errors.parts}
                onChange={setParts}
              />
            ) : undefined
          }
          party={
            <>
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
              <RegisterField
                id={`${id}-registerId`}
                value={draft.registerId}
                onChange={pickRegister}
                error={errors.registerId}
              />
            </>
          }
        />
        {parts.length === 0 ? (
          <div className="row mt-2">
            <SplitMethodsButton onSplit={split} />
          </div>
        ) : null}
      </div>
      <MovementOpenDocuments
        texts={texts}
        draft={draft}
        set={set}
        documents={openDocuments}
        onPropose={propose}
        overAllocated={Boolean(errors.allocations)}
        waiting={!picked ? t('form.pickCustomer') : !draft.customerId ? t('form.neverBilled') : null}
        pending={account.isPending}
      >
        {account.data ? (
          <p className="small mb-2" data-testid="collection-account">
            {t('form.accountSummary', {
              balance: money(account.data.balance, draft.currency),
              onAccount: money(account.data.onAccount, draft.currency),
            })}
          </p>
        ) : null}
      </MovementOpenDocuments>
      <MovementFormFooter texts={texts} listPath="/collections" saving={saving} />
    </form>
  );
}
