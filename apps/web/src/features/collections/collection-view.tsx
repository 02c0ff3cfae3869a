import { formatTaxId, type TaxIdKind } from '@odontia/shared/tax-ids';
import '../auth/zod-setup';
import { can } from '@odontia/shared/permissions';
import type { Collection } from '@odontia/shared/schemas/collections';
import { ArrowLeft, BookOpen, CheckCircle2, Undo2, Wand2 } from 'lucide-react';
import { type ReactNode, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { PdfButton } from '../../components/pdf-button';
import { RecordNotFound } from '../../components/record-not-found';
import { toastApiError, toastSuccess } from '../../lib/api-toast';
import { isApiError } from '../../lib/http';
import { queryClient } from '../../lib/query-client';
import { useCalendarDateFormat, useClinicToday, useInstantFormat } from '../auth/clinic-time';
import { useSessionUser } from '../auth/session';
import { useDocumentName } from '../payments/badges';
import { fromCents, toCents, useCurrencyFormat } from '../payments/format';
import { AllocationTable } from '../payments/payment-form';
import { DateInput } from '../profile/date-input';
import { collectionsApi, invalidateCollections, useCollection, useCustomerOpenDocuments } from './api';
import { CollectionStatusBadge } from './badges';

/** `/collections/view/:collectionId`: the collection, its allocations and what can still happen to it. */
export function CollectionView() {
  const { t } = useTranslation(['collections', 'payments', 'common']);
  const { collectionId = '' } = useParams();
  const query = useCollection(collectionId);
  if (query.isError && isApiError(query.error) && query.error.status === 404) {
    return <RecordNotFound code="collection_not_found" backTo="/collections" backLabel={t('view.back')} />;
  }
  if (!query.data) {
    return (
      <div className="text-center py-5" aria-busy="true">
        <span className="spinner-border" aria-hidden="true" />
      </div>
    );
  }
  return <CollectionDetails collection={query.data} />;
}

function Detail({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div className="col-sm-6 col-lg-4">
      <dt className="small text-body-secondary fw-normal">{label}</dt>
      <dd className="mb-2" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

function CollectionDetails({ collection }: { collection: Collection }) {
  const { t } = useTranslation(['collections', 'payments', 'common']);
  const user = useSessionUser();
  const canWrite = user ? can(user.level, 'commercial.write') : false;
  const canReverse = user ? can(user.level, 'commercial.delete') : false;
  const money = useCurrencyFormat();
  const day = useCalendarDateFormat();
  const instant = useInstantFormat('dateTime');
  const documentName = useDocumentName();
  const reversed = collection.reversedAt !== null;
  const [panel, setPanel] = useState<'' | 'allocate' | 'paid' | 'reverse'>('');

  const apply = async (work: () => Promise<{ data: Collection; code?: string }>) => {
    try {
      const answer = await work();
      queryClient.setQueryData(['collections', 'one', collection.id], answer.data);
      if (answer.code) toastSuccess(answer.code);
      setPanel('');
      await invalidateCollections();
    } catch (error) {
      toastApiError(error);
    }
  };

  return (
    <div className="d-flex flex-column gap-3" data-testid="collection-view" data-number={collection.number}>
      <section className="card">
        <div className="card-header d-flex flex-wrap gap-2 align-items-center justify-content-between">
          <h2 className="h5 mb-0 d-flex align-items-center gap-2">
            <span data-testid="collection-number">{collection.number}</span>
            <CollectionStatusBadge collection={collection} />
          </h2>
          <div className="d-flex flex-wrap gap-2">
            <PdfButton
              load={() => collectionsApi.receipt(collection.id)}
              fallbackName={`${collection.number}.pdf`}
              label={t('view.print')}
              testId="collection-receipt"
            />
            <Link to={`/cc-customers/${collection.customerId}`} className="btn btn-outline-secondary">
              <BookOpen size={16} aria-hidden="true" className="me-2" />
              {t('view.ledger')}
            </Link>
          </div>
        </div>
        {reversed ? (
          <div className="alert alert-danger rounded-0 mb-0" role="status" data-testid="collection-reversed">
            {t('view.reversedBanner', {
              date: instant(collection.reversedAt),
              name: collection.reversedByName ?? '—',
              reason: collection.reversalReason ?? '',
            })}
          </div>
        ) : null}
        <div className="card-body">
          <dl className="row mb-0">
            <Detail label={t('fields.customer')} testId="collection-provider-name">
              {collection.customerName}
              {collection.counterpartySnapshot?.taxId ? (
                <span className="d-block small text-body-secondary">
                  {formatTaxId(
                    collection.counterpartySnapshot.taxIdKind as TaxIdKind | null,
                    collection.counterpartySnapshot.taxId,
                  )}
                </span>
              ) : null}
            </Detail>
            <Detail label={t('fields.date')}>{day(collection.date)}</Detail>
            <Detail label={t('fields.amount')} testId="collection-amount-view">
              <span className="fs-5 fw-semibold">{money(collection.amount, collection.currency)}</span>
            </Detail>
            <Detail label={t('fields.method')}>{t(`payments:methods.${collection.method}`)}</Detail>
            <Detail label={t('fields.transactionNumber')}>{collection.transactionNumber ?? '—'}</Detail>
            <Detail label={t('fields.status')}>
              {collection.status === 'paid' ? `${t('fields.paidOn')} ${day(collection.paidOn)}` : t('statuses.pending')}
            </Detail>
            <Detail label={t('fields.allocated')}>{money(collection.allocatedAmount, collection.currency)}</Detail>
            <Detail label={t('fields.onAccount')} testId="collection-on-account">
              {money(collection.unallocatedAmount, collection.currency)}
            </Detail>
            {collection.notes ? <Detail label={t('fields.notes')}>{collection.notes}</Detail> : null}
          </dl>
          <p className="small text-body-secondary mb-0">
            {t('view.createdBy', { name: collection.createdByName ?? '—', date: instant(collection.createdAt) })}
          </p>
        </div>
        {!reversed && (canWrite || canReverse) ? (
          <div className="card-footer d-flex flex-wrap gap-2">
            {canWrite && collection.unallocatedAmount !== '0.00' ? (
              <button
                type="button"
                className="btn btn-outline-primary"
                onClick={() => setPanel('allocate')}
                data-testid="collection-allocate-open"
              >
                <Wand2 size={16} aria-hidden="true" className="me-2" />
                {t('view.allocateRemainder')}
              </button>
            ) : null}
            {canWrite && collection.status === 'pending' ? (
              <button
                type="button"
                className="btn btn-outline-success"
                onClick={() => setPanel('paid')}
                data-testid="collection-paid-open"
              >
                <CheckCircle2 size={16} aria-hidden="true" className="me-2" />
                {t('view.markPaid')}
              </button>
            ) : null}
            {canReverse ? (
              <button
                type="button"
                className="btn btn-outline-danger ms-auto"
                onClick={() => setPanel('reverse')}
                data-testid="collection-reverse-open"
              >
                <Undo2 size={16} aria-hidden="true" className="me-2" />
                {t('view.reverse')}
              </button>
            ) : null}
          </div>
        ) : null}
      </section>

      {panel === 'allocate' ? (
        <AllocatePanel
          collection={collection}
          onCancel={() => setPanel('')}
          onSave={(body) => apply(() => collectionsApi.allocate(collection.id, body))}
        />
      ) : null}
      {panel === 'paid' ? (
        <PaidPanel
          onCancel={() => setPanel('')}
          onSave={(paidOn) =>
            apply(() => collectionsApi.markPaid(collection.id, { version: collection.version, paidOn }))
          }
        />
      ) : null}
      {panel === 'reverse' ? (
        <ReversePanel
          onCancel={() => setPanel('')}
          onSave={(reason) =>
            apply(() => collectionsApi.reverse(collection.id, { version: collection.version, reason }))
          }
        />
      ) : null}

      <section className="card">
        <div className="card-header">
          <h2 className="h5 mb-0">{t('view.allocations')}</h2>
        </div>
        {collection.allocations.length === 0 ? (
          <div className="card-body text-body-secondary">{t('view.noAllocations')}</div>
        ) : (
          <div className="table-responsive">
            <table className="table mb-0 align-middle" data-testid="collection-allocations">
              <caption className="visually-hidden">{t('view.allocations')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('form.document')}</th>
                  <th scope="col">{t('fields.date')}</th>
                  <th scope="col" className="text-end">
                    {t('fields.amount')}
                  </th>
                </tr>
              </thead>
              <tbody>
                {collection.allocations.map((allocation) => (
                  <tr key={allocation.id} className={allocation.reversed ? 'text-body-secondary' : undefined}>
                    <th scope="row" className="fw-normal">
                      {documentName(allocation.document)}
                      {allocation.reversed ? (
                        <span className="badge text-bg-secondary ms-2">{t('view.allocationReversed')}</span>
                      ) : null}
                    </th>
                    <td className="text-nowrap">{day(allocation.document.date)}</td>
                    <td className={`text-end text-nowrap${allocation.reversed ? ' text-decoration-line-through' : ''}`}>
                      {money(allocation.amount, collection.currency)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <div>
        <Link to="/collections" className="btn btn-link px-0">
          <ArrowLeft size={16} aria-hidden="true" className="me-2" />
          {t('view.back')}
        </Link>
      </div>
    </div>
  );
}

function AllocatePanel({
  collection,
  onCancel,
  onSave,
}: {
  collection: Collection;
  onCancel: () => void;
  onSave: (body: { version: number; allocations: { documentId: string; amount: string }[] }) => Promise<void>;
}) {
  const { t } = useTranslation('collections');
  const documents = useCustomerOpenDocuments(collection.customerId);
  const money = useCurrencyFormat();
  const day = useCalendarDateFormat();
  const documentName = useDocumentName();
  const [allocations, setAllocations] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const onAccount = toCents(collection.unallocatedAmount);
  const allocated = Object.values(allocations).reduce((total, value) => total + (toCents(value || '0') || 0), 0);
  const propose = () => {
    let left = onAccount;
    const next: Record<string, string> = {};
    for (const document of documents.data?.documents ?? []) {
      if (left <= 0) break;
      if (document.currency !== collection.currency) continue;
      const take = Math.min(left, toCents(document.openAmount));
      if (take > 0) next[document.id] = fromCents(take);
      left -= take;
    }
    setAllocations(next);
  };
  const save = async () => {
    setBusy(true);
    await onSave({
      version: collection.version,
      allocations: Object.entries(allocations)
        .filter(([, value]) => value.trim() && toCents(value) > 0)
        .map(([documentId, value]) => ({ documentId, amount: value.trim().replace(',', '.') })),
    });
    setBusy(false);
  };
  return (
    <section className="card border-primary" data-testid="collection-allocate">
      <div className="card-header d-flex justify-content-between align-items-center">
        <h2 className="h6 mb-0">{t('view.allocateRemainder')}</h2>
        <button
          type="button"
          className="btn btn-outline-primary btn-sm"
          onClick={propose}
          data-testid="collection-allocate-propose"
        >
          <Wand2 size={16} aria-hidden="true" className="me-2" />
          {t('form.propose')}
        </button>
      </div>
      <div className="card-body">
        {documents.data && documents.data.documents.length === 0 ? (
          <p className="text-body-secondary">{t('form.noOpenDocuments')}</p>
        ) : (
          <AllocationTable
            documents={documents.data?.documents ?? []}
            currency={collection.currency}
            allocations={allocations}
            onChange={(id, value) => setAllocations((current) => ({ ...current, [id]: value }))}
            documentName={documentName}
            money={money}
            day={day}
          />
        )}
        <p className="mt-2 mb-0 text-end">
          {t('form.remainder')}:{' '}
          <strong className={onAccount - allocated < 0 ? 'text-danger-emphasis' : undefined}>
            {money(fromCents(onAccount - allocated), collection.currency)}
          </strong>
        </p>
      </div>
      <div className="card-footer d-flex gap-2 justify-content-end">
        <button type="button" className="btn btn-outline-secondary" onClick={onCancel}>
          {t('view.cancel')}
        </button>
        <button
          type="button"
          className="btn btn-primary"
          disabled={busy || allocated <= 0 || allocated > onAccount}
          onClick={() => void save()}
          data-testid="collection-allocate-save"
        >
          {t('view.saveAllocation')}
        </button>
      </div>
    </section>
  );
}

function PaidPanel({ onCancel, onSave }: { onCancel: () => void; onSave: (paidOn: string) => Promise<void> }) {
  const { t } = useTranslation('collections');
  const id = useId();
  const [paidOn, setPaidOn] = useState(useClinicToday());
  return (
    <section className="card border-success" data-testid="collection-paid">
      <div className="card-body d-flex flex-wrap gap-2 align-items-end">
        <div>
          <label className="form-label" htmlFor={`${id}-paidOn`}>
            {t('fields.paidOn')}
          </label>
          <DateInput
            id={`${id}-paidOn`}
            name="paidOn"
            className="form-control"
            value={paidOn}
            onChange={(event) => setPaidOn(event.target.value)}
          />
        </div>
        <button type="button" className="btn btn-outline-secondary" onClick={onCancel}>
          {t('view.cancel')}
        </button>
        <button
          type="button"
          className="btn btn-success"
          disabled={!paidOn}
          onClick={() => void onSave(paidOn)}
          data-testid="collection-paid-save"
        >
          {t('view.markPaid')}
        </button>
      </div>
    </section>
  );
}

function ReversePanel({ onCancel, onSave }: { onCancel: () => void; onSave: (reason: string) => Promise<void> }) {
  const { t } = useTranslation('collections');
  const id = useId();
  const [reason, setReason] = useState('');
  return (
    <section className="card border-danger" data-testid="collection-reverse">
      <div className="card-body">
        <p className="text-body-secondary">{t('view.reverseHint')}</p>
        <label className="form-label" htmlFor={`${id}-reason`}>
          {t('view.reason')}
        </label>
        <textarea
          id={`${id}-reason`}
          className="form-control"
          rows={2}
          maxLength={500}
          value={reason}
          data-testid="collection-reverse-reason"
          onChange={(event) => setReason(event.target.value)}
        />
      </div>
      <div className="card-footer d-flex gap-2 justify-content-end">
        <button type="button" className="btn btn-outline-secondary" onClick={onCancel}>
          {t('view.cancel')}
        </button>
        <button
          type="button"
          className="btn btn-danger"
          disabled={!reason.trim()}
          onClick={() => void onSave(reason.trim())}
          data-testid="collection-reverse-save"
        >
          {t('view.confirmReverse')}
        </button>
      </div>
    </section>
  );
}
