import type { MoneyMovement, MovementKind } from './money-movement';
import '../../lib/zod-setup';
import { can } from '@odontia/shared/permissions';
import { formatTaxId, type TaxIdKind } from '@odontia/shared/tax-ids';
import { ArrowLeft, BookOpen, CheckCircle2, Undo2, Wand2 } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TableHead } from '../../components/captioned-table';
import { IconTextButton } from '../../components/icon-button';
import { IconLink } from '../../components/icon-link';
import { PdfButton } from '../../components/pdf-button';
import { toastApiError, toastSuccess } from '../../lib/api-toast';
import { queryClient } from '../../lib/query-client';
import { useAction } from '../../lib/use-action';
import { useCalendarDateFormat, useInstantFormat } from '../../session/clinic-time';
import { useSessionUser } from '../../session/session';
import { useCurrencyFormat, useDocumentName } from './money-format';
import { AllocatePanel, type MovementChange, PaidPanel, ReversePanel } from './movement-panels';

export function Detail({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div className="col-sm-6 col-lg-4">
      <dt className="small text-body-secondary fw-normal">{label}</dt>
      <dd className="mb-2" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

export function MovementDetails<M extends MoneyMovement>({ kind, movement }: { kind: MovementKind<M>; movement: M }) {
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
        ? kind.api.allocate({ params: { id: movement.id }, body: step.body, idempotencyKey })
        : step.kind === 'paid'
          ? kind.api.markPaid({ params: { id: movement.id }, body: step.body, idempotencyKey })
          : kind.api.reverse({ params: { id: movement.id }, body: step.body, idempotencyKey }),
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
              load={() => kind.api.print({ params: { id: movement.id } })}
              fallbackName={`${movement.number}.pdf`}
              label={t('view.print')}
              testId={kind.pdfTestId}
            />
            {ledgerPath ? (
              <IconLink to={ledgerPath} className="btn btn-outline-secondary" icon={BookOpen}>
                {t('view.ledger')}
              </IconLink>
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
            {movement.registerMovements.length > 0 ? (
              <Detail label={t('payments:view.register')} testId={`${prefix}-register`}>
                <ul className="list-unstyled mb-0">
                  {movement.registerMovements.map((entry) => (
                    <li key={`${entry.sessionId}-${entry.reversal}`} data-testid={`${prefix}-register-movement`}>
                      {entry.registerName} ·{' '}
                      {entry.closingNumber
                        ? t('payments:view.registerClosing', { number: entry.closingNumber })
                        : t('payments:view.registerOpenSession')}
                      {entry.reversal ? (
                        <span className="text-body-secondary">
                          {' '}
                          ({t('payments:view.registerReversal')} {money(entry.amount, movement.currency)})
                        </span>
                      ) : null}
                    </li>
                  ))}
                </ul>
              </Detail>
            ) : null}
            {movement.notes ? <Detail label={t('fields.notes')}>{movement.notes}</Detail> : null}
          </dl>
          <p className="small text-body-secondary mb-0">
            {t('view.createdBy', { name: movement.createdByName ?? '—', date: instant(movement.createdAt) })}
          </p>
        </div>
        {!reversed && (canWrite || canReverse) ? (
          <div className="card-footer d-flex flex-wrap gap-2">
            {canWrite && movement.unallocatedAmount !== '0.00' ? (
              <IconTextButton
                icon={Wand2}
                className="btn btn-outline-primary"
                onClick={() => setPanel('allocate')}
                testId={`${prefix}-allocate-open`}
              >
                {t('view.allocateRemainder')}
              </IconTextButton>
            ) : null}
            {canWrite && movement.status === 'pending' ? (
              <IconTextButton
                icon={CheckCircle2}
                className="btn btn-outline-success"
                onClick={() => setPanel('paid')}
                testId={`${prefix}-paid-open`}
              >
                {t('view.markPaid')}
              </IconTextButton>
            ) : null}
            {canReverse ? (
              <IconTextButton
                icon={Undo2}
                className="btn btn-outline-danger ms-auto"
                onClick={() => setPanel('reverse')}
                testId={`${prefix}-reverse-open`}
              >
                {t('view.reverse')}
              </IconTextButton>
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
          <div className="card-body text-body-secondary">
            {/* A reversed movement leaves nothing on account: saying so keeps the view true. */}
            {t(reversed ? 'view.noAllocationsReversed' : 'view.noAllocations')}
          </div>
        ) : (
          <div className="table-responsive">
            <table className="table mb-0 align-middle" data-testid={`${prefix}-allocations`}>
              <caption className="visually-hidden">{t('view.allocations')}</caption>
              <TableHead
                cells={[
                  { label: t('form.document') },
                  { label: t('fields.date') },
                  { label: t('fields.amount'), className: 'text-end' },
                ]}
              />
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
      {kind.Extra ? <kind.Extra movement={movement} /> : null}
      <div>
        <IconLink to={kind.listPath} className="btn btn-link px-0" icon={ArrowLeft}>
          {t('view.back')}
        </IconLink>
      </div>
    </div>
  );
}
