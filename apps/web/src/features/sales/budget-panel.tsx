import type { Currency } from '@odontia/shared/enums';
import { can } from '@odontia/shared/permissions';
import type { BudgetDecision, BudgetProgress } from '@odontia/shared/schemas/budgets';
import { CheckCircle2, FilePlus2, PenLine, Split, XCircle } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { BusyButton } from '../../components/busy-button';
import { CaptionedTable } from '../../components/captioned-table';
import { IconTextButton } from '../../components/icon-button';
import { toastApiError, toastSuccess } from '../../lib/api-toast';
import { queryClient } from '../../lib/query-client';
import { useCalendarDateFormat, useInstantFormat } from '../../session/clinic-time';
import { useSessionUser } from '../../session/session';
import { useDocumentMoney } from '../commercial/money-format';
import { SplitInvoice } from '../payers/patient-payer-tab';
import { SigningRequestCard } from '../signing/signing-request-card';
import { type BudgetPanelSale, MarkDialog, SignDialog } from './budget-dialogs';
import { saleViewPath, useBudgetProgress, useConvertBudget } from './budgets-api';

/**
 * A budget's panel in the sale view (issue 18): its answer (signed on the pad in a dialog, or
 * marked accepted / rejected with a day), what the attendances did of each line, and the
 * conversion into a proforma or an invoice draft of what is not yet invoiced.
 */

function DecisionSummary({ decision }: { decision: BudgetDecision }) {
  const { t } = useTranslation('budgets');
  const day = useCalendarDateFormat();
  const instant = useInstantFormat();
  const accepted = decision.decision === 'accepted';
  return (
    <div className="d-flex flex-wrap gap-3 align-items-start" data-testid="budget-decision">
      <div className="me-auto">
        <span
          className={`badge ${accepted ? 'text-bg-success' : 'text-bg-danger'}`}
          data-testid="budget-decision-badge"
        >
          {t(`decision.${decision.decision}`)}
        </span>{' '}
        <span>{t('decision.on', { day: day(decision.decidedOn) })}</span>
        {decision.signerName ? (
          <div className="small mt-1">
            {t('decision.signedBy', { name: decision.signerName, idNumber: decision.signerIdNumber ?? '' })}
          </div>
        ) : accepted ? (
          <div className="small text-body-secondary mt-1">{t('decision.marked')}</div>
        ) : null}
        {decision.notes ? <div className="small text-prewrap mt-1">{decision.notes}</div> : null}
        <div className="small text-body-secondary mt-1">
          {t('decision.recorded', { who: decision.createdByName ?? '—', when: instant(decision.createdAt) })}
        </div>
        {decision.sha256 ? (
          <div className="small text-body-secondary font-monospace" title={decision.sha256}>
            SHA-256 {decision.sha256.slice(0, 16)}…
          </div>
        ) : null}
      </div>
      {decision.signatureImage ? (
        <img
          src={decision.signatureImage}
          alt={t('decision.signatureAlt', { name: decision.signerName ?? '' })}
          className="budget-signature border rounded bg-white"
          width={200}
          height={75}
        />
      ) : null}
    </div>
  );
}

function ProgressTable({ progress, currency }: { progress: BudgetProgress; currency: Currency }) {
  const { t } = useTranslation('budgets');
  const format = useDocumentMoney();
  const day = useInstantFormat('date');
  const quantity = (value: string) => String(Number.parseFloat(value));
  return (
    <CaptionedTable
      className="table table-sm align-middle mb-0 table-stack-phone"
      testId="budget-progress"
      caption={t('progress.caption')}
      head={[
        { label: t('progress.line') },
        { label: t('progress.tooth') },
        { label: t('progress.quantity'), className: 'text-end' },
        { label: t('progress.done'), className: 'text-end' },
        { label: t('progress.left'), className: 'text-end' },
        { label: t('progress.total'), className: 'text-end' },
        { label: t('progress.invoiced') },
      ]}
    >
      <tbody>
        {progress.lines.map((line) => (
          <tr key={line.id} data-testid="budget-progress-row">
            <td>
              {line.treatmentCode ? <span className="text-body-secondary me-1">{line.treatmentCode}</span> : null}
              {line.description}
              {line.attendances.length ? (
                <div className="small text-body-secondary">
                  {line.attendances
                    .map((attendance) => `${day(attendance.date)} · ${attendance.titleResume}`)
                    .join('; ')}
                </div>
              ) : null}
            </td>
            <td data-label={t('progress.tooth')}>{line.tooth ?? '—'}</td>
            <td className="text-end" data-label={t('progress.quantity')}>
              {quantity(line.quantity)}
            </td>
            <td className="text-end" data-label={t('progress.done')} data-testid="budget-line-done">
              {quantity(line.done)}
            </td>
            <td className="text-end" data-label={t('progress.left')}>
              {quantity(line.left)}
            </td>
            <td className="text-end text-nowrap" data-label={t('progress.total')}>
              {format(line.total, currency)}
            </td>
            <td data-label={t('progress.invoiced')}>
              <span className={`badge ${line.invoiced ? 'text-bg-success' : 'text-bg-light border'}`}>
                {t(line.invoiced ? 'progress.yes' : 'progress.no')}
              </span>
            </td>
          </tr>
        ))}
      </tbody>
    </CaptionedTable>
  );
}

export function BudgetPanel({ sale }: { sale: BudgetPanelSale }) {
  const { t } = useTranslation(['budgets', 'authorizations']);
  const navigate = useNavigate();
  const user = useSessionUser();
  const canWrite = user ? can(user.level, 'commercial.write') : false;
  const query = useBudgetProgress(sale.id);
  const convert = useConvertBudget(sale.id);
  const [dialog, setDialog] = useState<'sign' | 'accepted' | 'rejected' | null>(null);
  const [splitting, setSplitting] = useState(false);
  if (sale.documentType !== 'budget') return null;
  const progress = query.data;
  const decision = progress?.decision ?? null;
  const pending = progress ? progress.lines.some((line) => !line.invoiced) : false;
  const toDraft = async (documentType: 'proforma_invoice' | 'invoice') => {
    try {
      const answer = await convert.mutateAsync({ documentType });
      toastSuccess(answer.code);
      void navigate(saleViewPath(answer.data.id));
    } catch (error) {
      toastApiError(error);
    }
  };
  return (
    <section className="card" data-testid="budget-panel" aria-labelledby={`budget-${sale.id}-title`}>
      <div className="card-header">
        <h2 className="card-title h6 mb-0" id={`budget-${sale.id}-title`}>
          {t('panel.title')}
        </h2>
      </div>
      <div className="card-body d-flex flex-column gap-3">
        {query.isError ? (
          <p className="text-danger mb-0">{t('panel.loadError')}</p>
        ) : !progress ? (
          <p className="text-body-secondary mb-0">{t('panel.loading')}</p>
        ) : (
          <>
            {decision ? (
              <DecisionSummary decision={decision} />
            ) : sale.status !== 'issued' ? (
              <p className="text-body-secondary mb-0" data-testid="budget-not-issued">
                {t('panel.issueFirst')}
              </p>
            ) : (
              <div className="d-flex flex-column gap-2">
                <p className="mb-0">{t('panel.awaiting')}</p>
                {canWrite ? (
                  <div className="d-flex flex-wrap gap-2">
                    <IconTextButton
                      icon={PenLine}
                      className="btn btn-primary"
                      onClick={() => setDialog('sign')}
                      testId="budget-sign"
                    >
                      {t('panel.sign')}
                    </IconTextButton>
                    <IconTextButton
                      icon={CheckCircle2}
                      className="btn btn-outline-success"
                      onClick={() => setDialog('accepted')}
                      testId="budget-mark-accepted"
                    >
                      {t('panel.markAccepted')}
                    </IconTextButton>
                    <IconTextButton
                      icon={XCircle}
                      className="btn btn-outline-danger"
                      onClick={() => setDialog('rejected')}
                      testId="budget-mark-rejected"
                    >
                      {t('panel.markRejected')}
                    </IconTextButton>
                  </div>
                ) : null}
              </div>
            )}
            {sale.status === 'issued' ? (
              <SigningRequestCard
                target={{ kind: 'budget', id: sale.id }}
                canWrite={canWrite}
                open={!decision}
                onSigned={() => void queryClient.invalidateQueries({ queryKey: ['sales'] })}
              />
            ) : null}
            <ProgressTable progress={progress} currency={sale.currency} />
            {decision?.decision === 'accepted' && canWrite ? (
              pending ? (
                <div className="d-flex flex-wrap gap-2 justify-content-end">
                  {sale.patientId ? (
                    <button
                      type="button"
                      className="btn btn-outline-secondary"
                      onClick={() => setSplitting((open) => !open)}
                      aria-expanded={splitting}
                      data-testid="budget-split"
                    >
                      <Split size={16} aria-hidden="true" className="me-2" />
                      {t('panel.toSplit')}
                    </button>
                  ) : null}
                  <IconTextButton
                    icon={FilePlus2}
                    className="btn btn-outline-primary"
                    onClick={() => void toDraft('proforma_invoice')}
                    disabled={convert.isPending}
                    testId="budget-to-proforma"
                  >
                    {t('panel.toProforma')}
                  </IconTextButton>
                  <BusyButton
                    className="btn btn-primary"
                    icon={FilePlus2}
                    busy={convert.isPending}
                    onClick={() => void toDraft('invoice')}
                    testId="budget-to-invoice"
                  >
                    {t('panel.toInvoice')}
                  </BusyButton>
                </div>
              ) : (
                <p className="text-body-secondary mb-0" data-testid="budget-all-invoiced">
                  {t('panel.allInvoiced')}
                </p>
              )
            ) : null}
            {splitting && pending && sale.patientId && decision?.decision === 'accepted' && canWrite ? (
              <SplitInvoice patientId={sale.patientId} budgetId={sale.id} canWrite={canWrite} />
            ) : null}
          </>
        )}
      </div>
      {dialog === 'sign' && progress ? (
        <SignDialog sale={sale} text={progress.textToSign} onClose={() => setDialog(null)} />
      ) : null}
      {dialog === 'accepted' || dialog === 'rejected' ? (
        <MarkDialog sale={sale} decision={dialog} onClose={() => setDialog(null)} />
      ) : null}
    </section>
  );
}
