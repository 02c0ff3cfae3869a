import '../auth/zod-setup';
import { normalizeDecimal } from '@odontia/shared/decimal-input';
import { can } from '@odontia/shared/permissions';
import type { OpenDocument, Payment } from '@odontia/shared/schemas/payments';
import { formatTaxId, type TaxIdKind } from '@odontia/shared/tax-ids';
import type { UseQueryResult } from '@tanstack/react-query';
import { ArrowLeft, BookOpen, CheckCircle2, Undo2, Wand2 } from 'lucide-react';
import { type ComponentType, type ReactNode, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { BusyIcon } from '../../components/busy-icon';
import { PdfButton } from '../../components/pdf-button';
import { RecordNotFound } from '../../components/record-not-found';
import { toastApiError, toastSuccess } from '../../lib/api-toast';
import { isApiError } from '../../lib/http';
import { queryClient } from '../../lib/query-client';
import { useAction } from '../../lib/use-action';
import { useCalendarDateFormat, useClinicToday, useInstantFormat } from '../auth/clinic-time';
import { useSessionUser } from '../auth/session';
import { useDocumentName } from '../payments/badges';
import { fromCents, toCents, useCurrencyFormat } from '../payments/format';
import { DateInput } from '../profile/date-input';
import { AllocationTable } from './allocation-table';
import { proposeAllocations } from './movement-draft';

/** What a payment to a provider and a collection from a customer both are: money, allocated to documents. */
export type MoneyMovement = Omit<Payment, 'side' | 'providerId' | 'providerName'> & {
  /** A collection split across methods (issue 35): each part with its amount. */
  parts?: { method: Payment['method']; amount: string; transactionNumber: string | null }[];
};

type Answer<M> = Promise<{ data: M; code?: string }>;

/** A kind of money movement: where its texts, routes, test ids and API calls are. */
export interface MovementKind<M extends MoneyMovement> {
  /** Its texts' namespaces, its own first (methods and document types come from `payments`). */
  namespaces: string[];
  /** The start of its test ids: `payment-view`, `collection-allocate-save`. */
  testIdPrefix: string;
  listPath: string;
  notFoundCode: string;
  useOne: (id: string) => UseQueryResult<M>;
  queryKey: (id: string) => readonly unknown[];
  /** Refreshes what a change to a movement moves (lists, current accounts, documents). */
  invalidate: () => Promise<void>;
  StatusBadge: ComponentType<{ movement: M }>;
  /** `fields.provider`, `fields.customer`. */
  partyLabel: string;
  partyName: (movement: M) => string;
  ledgerPath: (movement: M) => string | null;
  /** The party's open documents, to allocate what is on account. */
  useOpenDocuments: (movement: M) => OpenDocument[] | undefined;
  pdfTestId: string;
  api: {
    pdf: (id: string) => Promise<{ blob: Blob; fileName: string | null }>;
    allocate: (
      id: string,
      body: { version: number; allocations: { documentId: string; amount: string }[] },
      idempotencyKey: string,
    ) => Answer<M>;
    markPaid: (id: string, body: { version: number; paidOn: string }, idempotencyKey: string) => Answer<M>;
    reverse: (id: string, body: { version: number; reason: string }, idempotencyKey: string) => Answer<M>;
  };
}

type MovementTexts = Pick<MovementKind<MoneyMovement>, 'namespaces' | 'testIdPrefix'>;

/** What a movement's view can do to it once recorded. */
type MovementChange =
  | { kind: 'allocate'; body: { version: number; allocations: { documentId: string; amount: string }[] } }
  | { kind: 'paid'; body: { version: number; paidOn: string } }
  | { kind: 'reverse'; body: { version: number; reason: string } };

/** `/payments/view/:id`, `/collections/view/:id`: the movement, its allocations and what can still happen to it. */
export function MoneyMovementView<M extends MoneyMovement>({ kind, id }: { kind: MovementKind<M>; id: string }) {
  const { t } = useTranslation(kind.namespaces);
  const query = kind.useOne(id);
  if (query.isError && isApiError(query.error) && query.error.status === 404) {
    return <RecordNotFound code={kind.notFoundCode} backTo={kind.listPath} backLabel={t('view.back')} />;
  }
  if (!query.data) {
    return (
      <div className="text-center py-5" aria-busy="true">
        <span className="spinner-border" aria-hidden="true" />
      </div>
    );
  }
  return <MovementDetails kind={kind} movement={query.data} />;
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

function MovementDetails<M extends MoneyMovement>({ kind, movement }: { kind: MovementKind<M>; movement: M }) {
  const { t } = useTranslation(kind.namespaces);
  const prefix = kind.testIdPrefix;
  const user = useSessionUser();
  const canWrite = user ? can(user.level, 'commercial.write') : false;
  const canReverse = user ? can(user.level, 'commercial.delete') : false;
  const money = useCurrencyFormat();
  const day = useCalendarDateFormat();
  const instant = useInstantFormat('dateTime');
  const documentName = useDocumentName();
  const reversed = movement.reversedAt !== null;
  const ledgerPath = kind.ledgerPath(movement);
  const [panel, setPanel] = useState<'' | 'allocate' | 'paid' | 'reverse'>('');

  // Allocating, marking paid and reversing move money: one action at a time, each with its
  // Idempotency-Key (a double click on the confirm button sends one request; a retry replays it).
  const change = useAction({
    mutationFn: (step: MovementChange, idempotencyKey) =>
      step.kind === 'allocate'
        ? kind.api.allocate(movement.id, step.body, idempotencyKey)
        : step.kind === 'paid'
          ? kind.api.markPaid(movement.id, step.body, idempotencyKey)
          : kind.api.reverse(movement.id, step.body, idempotencyKey),
  });
  const apply = async (step: MovementChange) => {
    try {
      const answer = await change.mutateAsync(step);
      queryClient.setQueryData(kind.queryKey(movement.id), answer.data);
      if (answer.code) toastSuccess(answer.code);
      setPanel('');
      await kind.invalidate();
    } catch (error) {
      toastApiError(error);
    }
  };

  return (
    <div className="d-flex flex-column gap-3" data-testid={`${prefix}-view`} data-number={movement.number}>
      <section className="card">
        <div className="card-header d-flex flex-wrap gap-2 align-items-center justify-content-between">
          <h2 className="h5 mb-0 d-flex align-items-center gap-2">
            <span data-testid={`${prefix}-number`}>{movement.number}</span>
            <kind.StatusBadge movement={movement} />
          </h2>
          <div className="d-flex flex-wrap gap-2">
            <PdfButton
              load={() => kind.api.pdf(movement.id)}
              fallbackName={`${movement.number}.pdf`}
              label={t('view.print')}
              testId={kind.pdfTestId}
            />
            {ledgerPath ? (
              <Link to={ledgerPath} className="btn btn-outline-secondary">
                <BookOpen size={16} aria-hidden="true" className="me-2" />
                {t('view.ledger')}
              </Link>
            ) : null}
          </div>
        </div>
        {reversed ? (
          <div className="alert alert-danger rounded-0 mb-0" role="status" data-testid={`${prefix}-reversed`}>
            {t('view.reversedBanner', {
              date: instant(movement.reversedAt),
              name: movement.reversedByName ?? '—',
              reason: movement.reversalReason ?? '',
            })}
          </div>
        ) : null}
        <div className="card-body">
          <dl className="row mb-0">
            <Detail label={t(kind.partyLabel)} testId={`${prefix}-provider-name`}>
              {kind.partyName(movement)}
              {movement.counterpartySnapshot?.taxId ? (
                <span className="d-block small text-body-secondary">
                  {formatTaxId(
                    movement.counterpartySnapshot.taxIdKind as TaxIdKind | null,
                    movement.counterpartySnapshot.taxId,
                  )}
                </span>
              ) : null}
            </Detail>
            <Detail label={t('fields.date')}>{day(movement.date)}</Detail>
            <Detail label={t('fields.amount')} testId={`${prefix}-amount-view`}>
              <span className="fs-5 fw-semibold">{money(movement.amount, movement.currency)}</span>
            </Detail>
            {movement.parts && movement.parts.length > 1 ? (
              <Detail label={t('collections:parts.title')} testId={`${prefix}-parts-view`}>
                <ul className="list-unstyled mb-0">
                  {movement.parts.map((part, index) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: the parts are final, in their order.
                    <li key={index} data-testid={`${prefix}-part`}>
                      {t(`payments:methods.${part.method}`)}: {money(part.amount, movement.currency)}
                      {part.transactionNumber ? (
                        <span className="text-body-secondary">
                          {' '}
                          · {t('fields.transactionNumber')} {part.transactionNumber}
                        </span>
                      ) : null}
                    </li>
                  ))}
                </ul>
              </Detail>
            ) : (
              <>
                <Detail label={t('fields.method')}>{t(`payments:methods.${movement.method}`)}</Detail>
                <Detail label={t('fields.transactionNumber')}>{movement.transactionNumber ?? '—'}</Detail>
              </>
            )}
            <Detail label={t('fields.status')}>
              {movement.status === 'paid' ? `${t('fields.paidOn')} ${day(movement.paidOn)}` : t('statuses.pending')}
            </Detail>
            <Detail label={t('fields.allocated')}>{money(movement.allocatedAmount, movement.currency)}</Detail>
            <Detail label={t('fields.onAccount')} testId={`${prefix}-on-account`}>
              {money(movement.unallocatedAmount, movement.currency)}
            </Detail>
            {movement.notes ? <Detail label={t('fields.notes')}>{movement.notes}</Detail> : null}
          </dl>
          <p className="small text-body-secondary mb-0">
            {t('view.createdBy', { name: movement.createdByName ?? '—', date: instant(movement.createdAt) })}
          </p>
        </div>
        {!reversed && (canWrite || canReverse) ? (
          <div className="card-footer d-flex flex-wrap gap-2">
            {canWrite && movement.unallocatedAmount !== '0.00' ? (
              <button
                type="button"
                className="btn btn-outline-primary"
                onClick={() => setPanel('allocate')}
                data-testid={`${prefix}-allocate-open`}
              >
                <Wand2 size={16} aria-hidden="true" className="me-2" />
                {t('view.allocateRemainder')}
              </button>
            ) : null}
            {canWrite && movement.status === 'pending' ? (
              <button
                type="button"
                className="btn btn-outline-success"
                onClick={() => setPanel('paid')}
                data-testid={`${prefix}-paid-open`}
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
                data-testid={`${prefix}-reverse-open`}
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
          kind={kind}
          movement={movement}
          onCancel={() => setPanel('')}
          busy={change.isPending}
          onSave={(body) => apply({ kind: 'allocate', body })}
        />
      ) : null}
      {panel === 'paid' ? (
        <PaidPanel
          kind={kind}
          onCancel={() => setPanel('')}
          busy={change.isPending}
          onSave={(paidOn) => apply({ kind: 'paid', body: { version: movement.version, paidOn } })}
        />
      ) : null}
      {panel === 'reverse' ? (
        <ReversePanel
          kind={kind}
          onCancel={() => setPanel('')}
          busy={change.isPending}
          onSave={(reason) => apply({ kind: 'reverse', body: { version: movement.version, reason } })}
        />
      ) : null}

      <section className="card">
        <div className="card-header">
          <h2 className="h5 mb-0">{t('view.allocations')}</h2>
        </div>
        {movement.allocations.length === 0 ? (
          <div className="card-body text-body-secondary">{t('view.noAllocations')}</div>
        ) : (
          <div className="table-responsive">
            <table className="table mb-0 align-middle" data-testid={`${prefix}-allocations`}>
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
                {movement.allocations.map((allocation) => (
                  <tr key={allocation.id} className={allocation.reversed ? 'text-body-secondary' : undefined}>
                    <th scope="row" className="fw-normal">
                      {documentName(allocation.document)}
                      {allocation.reversed ? (
                        <span className="badge text-bg-secondary ms-2">{t('view.allocationReversed')}</span>
                      ) : null}
                    </th>
                    <td className="text-nowrap">{day(allocation.document.date)}</td>
                    <td className={`text-end text-nowrap${allocation.reversed ? ' text-decoration-line-through' : ''}`}>
                      {money(allocation.amount, movement.currency)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <div>
        <Link to={kind.listPath} className="btn btn-link px-0">
          <ArrowLeft size={16} aria-hidden="true" className="me-2" />
          {t('view.back')}
        </Link>
      </div>
    </div>
  );
}

function AllocatePanel<M extends MoneyMovement>({
  kind,
  movement,
  busy,
  onCancel,
  onSave,
}: {
  kind: MovementKind<M>;
  movement: M;
  busy: boolean;
  onCancel: () => void;
  onSave: (body: { version: number; allocations: { documentId: string; amount: string }[] }) => Promise<void>;
}) {
  const { t } = useTranslation(kind.namespaces);
  const prefix = kind.testIdPrefix;
  const documents = kind.useOpenDocuments(movement);
  const money = useCurrencyFormat();
  const [allocations, setAllocations] = useState<Record<string, string>>({});
  const onAccount = toCents(movement.unallocatedAmount);
  const allocated = Object.values(allocations).reduce((total, value) => total + (toCents(value || '0') || 0), 0);
  const propose = () => setAllocations(proposeAllocations(documents ?? [], movement.currency, onAccount));
  const save = () =>
    onSave({
      version: movement.version,
      allocations: Object.entries(allocations)
        .filter(([, value]) => value.trim() && toCents(value) > 0)
        .map(([documentId, value]) => ({ documentId, amount: normalizeDecimal(value) ?? value.trim() })),
    });
  return (
    <section className="card border-primary" data-testid={`${prefix}-allocate`}>
      <div className="card-header d-flex justify-content-between align-items-center">
        <h2 className="h6 mb-0">{t('view.allocateRemainder')}</h2>
        <button
          type="button"
          className="btn btn-outline-primary btn-sm"
          onClick={propose}
          data-testid={`${prefix}-allocate-propose`}
        >
          <Wand2 size={16} aria-hidden="true" className="me-2" />
          {t('form.propose')}
        </button>
      </div>
      <div className="card-body">
        {documents && documents.length === 0 ? (
          <p className="text-body-secondary">{t('form.noOpenDocuments')}</p>
        ) : (
          <AllocationTable
            documents={documents ?? []}
            currency={movement.currency}
            allocations={allocations}
            onChange={(id, value) => setAllocations((current) => ({ ...current, [id]: value }))}
          />
        )}
        <p className="mt-2 mb-0 text-end">
          {t('form.remainder')}:{' '}
          <strong className={onAccount - allocated < 0 ? 'text-danger-emphasis' : undefined}>
            {money(fromCents(onAccount - allocated), movement.currency)}
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
          data-testid={`${prefix}-allocate-save`}
        >
          <BusyIcon busy={busy} />
          {t('view.saveAllocation')}
        </button>
      </div>
    </section>
  );
}

function PaidPanel({
  kind,
  busy,
  onCancel,
  onSave,
}: {
  kind: MovementTexts;
  busy: boolean;
  onCancel: () => void;
  onSave: (paidOn: string) => Promise<void>;
}) {
  const { t } = useTranslation(kind.namespaces);
  const prefix = kind.testIdPrefix;
  const id = useId();
  const [paidOn, setPaidOn] = useState(useClinicToday());
  return (
    <section className="card border-success" data-testid={`${prefix}-paid`}>
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
          disabled={busy || !paidOn}
          onClick={() => void onSave(paidOn)}
          data-testid={`${prefix}-paid-save`}
        >
          <BusyIcon busy={busy} />
          {t('view.markPaid')}
        </button>
      </div>
    </section>
  );
}

function ReversePanel({
  kind,
  busy,
  onCancel,
  onSave,
}: {
  kind: MovementTexts;
  busy: boolean;
  onCancel: () => void;
  onSave: (reason: string) => Promise<void>;
}) {
  const { t } = useTranslation(kind.namespaces);
  const prefix = kind.testIdPrefix;
  const id = useId();
  const [reason, setReason] = useState('');
  return (
    <section className="card border-danger" data-testid={`${prefix}-reverse`}>
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
          data-testid={`${prefix}-reverse-reason`}
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
          disabled={busy || !reason.trim()}
          onClick={() => void onSave(reason.trim())}
          data-testid={`${prefix}-reverse-save`}
        >
          <BusyIcon busy={busy} />
          {t('view.confirmReverse')}
        </button>
      </div>
    </section>
  );
}
