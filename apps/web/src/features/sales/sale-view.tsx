import { documentMoneySign } from '@odontia/shared/commercial';
import { can } from '@odontia/shared/permissions';
import type { DocumentRef } from '@odontia/shared/schemas/commercial-documents';
import type { Sale } from '@odontia/shared/schemas/sales';
import { FileMinus, FilePlus, Mail, Pencil, Stamp, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { BusyIcon } from '../../components/busy-icon';
import { ConfirmDelete } from '../../components/confirm-delete';
import { FormAlert } from '../../components/form-feedback';
import { PdfButton } from '../../components/pdf-button';
import { apiErrorText, toastApiError, toastSuccess } from '../../lib/api-toast';
import { isApiError } from '../../lib/http';
import { useCalendarDateFormat, useInstantFormat } from '../../session/clinic-time';
import { useSessionUser } from '../../session/session';
import {
  DocumentAmountsView,
  DocumentLinesTable,
  DocumentLinks,
  PartySnapshotCard,
} from '../commercial/document-view-parts';
import { useDocumentMoney } from '../purchases/format';
import { salePath, salesApi, useCorrectSale, useDeleteSale, useIssueSale, useSendSale } from './api';
import { SaleStatusBadge, SaleTypeBadge } from './badges';
import { BudgetPanel } from './budget-panel';

function RefLink({ document }: { document: DocumentRef }) {
  const { t } = useTranslation('sales');
  const day = useCalendarDateFormat();
  return (
    <Link to={salePath(document.id)}>
      {t(`types.${document.documentType}`)}{' '}
      {document.documentNumber ? `${document.pointOfService}-${document.documentNumber}` : t('list.noNumber')} ·{' '}
      {day(document.date)}
    </Link>
  );
}

/** `/sales/view/:saleId`: the sale as issued (or the draft), with its links, collections and integrity data. */
export function SaleView({ sale }: { sale: Sale }) {
  const { t } = useTranslation('sales');
  const navigate = useNavigate();
  const format = useDocumentMoney();
  const money = (amount: string | null | undefined) => format(amount, sale.currency);
  const day = useCalendarDateFormat();
  const instant = useInstantFormat();
  const user = useSessionUser();
  const canWrite = user ? can(user.level, 'commercial.write') : false;
  const canDelete = user ? can(user.level, 'commercial.delete') : false;
  const issue = useIssueSale(sale.id);
  const remove = useDeleteSale(sale.id);
  const correct = useCorrectSale(sale.id);
  const send = useSendSale(sale.id);
  const [confirming, setConfirming] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const draft = sale.status === 'draft';
  const correctable = !draft && ['invoice', 'debit_note', 'receipt'].includes(sale.documentType);
  const moneyMoves = documentMoneySign[sale.documentType] !== 0;
  const title = sale.number ?? t('list.noNumber');

  const conflict = (error: unknown) => {
    if (isApiError(error) && error.status === 409) setProblem(apiErrorText(error));
    else toastApiError(error);
  };
  const onIssue = async () => {
    setProblem(null);
    try {
      const answer = await issue.mutateAsync(sale.version);
      if (answer.code) toastSuccess(answer.code);
    } catch (error) {
      conflict(error);
    }
  };
  const onCorrect = async (documentType: 'credit_note' | 'debit_note') => {
    setProblem(null);
    try {
      const answer = await correct.mutateAsync(documentType);
      if (answer.code) toastSuccess(answer.code);
      void navigate(`/sales/create?edit=${answer.data.id}`);
    } catch (error) {
      conflict(error);
    }
  };
  const onSend = async () => {
    setProblem(null);
    try {
      const answer = await send.mutateAsync();
      toastSuccess(answer.code);
    } catch (error) {
      conflict(error);
    }
  };
  const onDelete = async () => {
    try {
      const answer = await remove.mutateAsync();
      toastSuccess(answer.code);
      void navigate('/sales');
    } catch (error) {
      setConfirming(false);
      toastApiError(error);
    }
  };

  return (
    <div className="d-flex flex-column gap-3" data-testid="sale-view" data-status={sale.status}>
      {problem ? <FormAlert testId="sale-problem">{problem}</FormAlert> : null}
      <section className="card">
        <div className="card-header d-flex flex-wrap gap-2 align-items-center justify-content-between">
          <div className="d-flex flex-wrap gap-2 align-items-center">
            <h2 className="h5 mb-0" data-testid="sale-number">
              {title}
            </h2>
            <SaleTypeBadge type={sale.documentType} />
            <SaleStatusBadge status={sale.status} />
          </div>
          <div className="d-flex flex-wrap gap-2">
            <PdfButton
              load={() => salesApi.pdf(sale.id)}
              fallbackName={`${t(`types.${sale.documentType}`)} ${sale.number ?? ''}.pdf`}
              label={t('view.pdf')}
              small
              testId="sale-pdf"
            />
            {canWrite ? (
              <button
                type="button"
                className="btn btn-outline-secondary btn-sm"
                onClick={() => void onSend()}
                disabled={send.isPending}
                data-testid="sale-send"
              >
                <BusyIcon busy={send.isPending} icon={Mail} />
                {t('view.send')}
              </button>
            ) : null}
            {draft && canWrite ? (
              <>
                <Link to={`/sales/create?edit=${sale.id}`} className="btn btn-outline-secondary btn-sm">
                  <Pencil size={14} aria-hidden="true" className="me-1" />
                  {t('view.edit')}
                </Link>
                {sale.documentType !== 'credit_note' || canDelete ? (
                  <button
                    type="button"
                    className="btn btn-primary btn-sm"
                    onClick={() => void onIssue()}
                    disabled={issue.isPending}
                    data-testid="view-issue"
                  >
                    <BusyIcon busy={issue.isPending} icon={Stamp} />
                    {t('form.issue')}
                  </button>
                ) : null}
                {/* Deleting a draft is a commercial delete, as a purchase's is (docs/permissions.md). */}
                {canDelete ? (
                  <button
                    type="button"
                    className="btn btn-outline-danger btn-sm"
                    onClick={() => setConfirming(true)}
                    data-testid="view-delete"
                  >
                    <Trash2 size={14} aria-hidden="true" className="me-1" />
                    {t('view.delete')}
                  </button>
                ) : null}
              </>
            ) : null}
            {correctable && canWrite ? (
              <>
                {canDelete ? (
                  <button
                    type="button"
                    className="btn btn-outline-secondary btn-sm"
                    onClick={() => void onCorrect('credit_note')}
                    disabled={correct.isPending}
                    data-testid="view-credit-note"
                  >
                    <FileMinus size={14} aria-hidden="true" className="me-1" />
                    {t('view.creditNote')}
                  </button>
                ) : null}
                <button
                  type="button"
                  className="btn btn-outline-secondary btn-sm"
                  onClick={() => void onCorrect('debit_note')}
                  disabled={correct.isPending}
                  data-testid="view-debit-note"
                >
                  <FilePlus size={14} aria-hidden="true" className="me-1" />
                  {t('view.debitNote')}
                </button>
              </>
            ) : null}
          </div>
        </div>
        <div className="card-body">
          <dl className="row mb-0">
            <dt className="col-sm-4 col-lg-2">{t('fields.customer')}</dt>
            <dd className="col-sm-8 col-lg-4" data-testid="sale-customer">
              {sale.customerName ?? '—'}
            </dd>
            <dt className="col-sm-4 col-lg-2">{t('fields.date')}</dt>
            <dd className="col-sm-8 col-lg-4">{day(sale.date)}</dd>
            <dt className="col-sm-4 col-lg-2">{t('fields.conditionSale')}</dt>
            <dd className="col-sm-8 col-lg-4">{sale.conditionSale ? t(`conditions.${sale.conditionSale}`) : '—'}</dd>
            {sale.conditionSale === 'current_account' ? (
              <>
                <dt className="col-sm-4 col-lg-2">{t('fields.dueDate')}</dt>
                <dd className="col-sm-8 col-lg-4">{day(sale.dueDate)}</dd>
              </>
            ) : (
              <>
                <dt className="col-sm-4 col-lg-2">{t('fields.paymentMethod')}</dt>
                <dd className="col-sm-8 col-lg-4">{sale.paymentMethod ? t(`methods.${sale.paymentMethod}`) : '—'}</dd>
              </>
            )}
            <dt className="col-sm-4 col-lg-2">{t('fields.currency')}</dt>
            <dd className="col-sm-8 col-lg-4">{t(`currencies.${sale.currency}`)}</dd>
            {!draft ? (
              <>
                <dt className="col-sm-4 col-lg-2">{t('view.issued')}</dt>
                <dd className="col-sm-8 col-lg-4">
                  {instant(sale.registeredAt)} {sale.registeredByName ? `· ${sale.registeredByName}` : ''}
                </dd>
                <dt className="col-sm-4 col-lg-2">{t('view.stock')}</dt>
                <dd className="col-sm-8 col-lg-4" data-testid="moved-stock">
                  {sale.movedStock ? t('view.movedStock') : t('view.noStock')}
                </dd>
              </>
            ) : null}
            {sale.notes ? (
              <>
                <dt className="col-sm-4 col-lg-2">{t('fields.notes')}</dt>
                <dd className="col-sm-8 col-lg-10" style={{ whiteSpace: 'pre-wrap' }}>
                  {sale.notes}
                </dd>
              </>
            ) : null}
          </dl>
        </div>
      </section>

      {sale.documentType === 'budget' && sale.status === 'issued' ? <BudgetPanel sale={sale} /> : null}

      <section className="card">
        <div className="card-header fw-semibold">{t('view.parties')}</div>
        <div className="card-body row g-3">
          <PartySnapshotCard
            title={t('view.issuer')}
            party={draft ? null : sale.issuerSnapshot}
            testId="issuer"
            pendingText={t('view.copiedOnIssue')}
          />
          <PartySnapshotCard
            title={t('fields.customer')}
            party={draft ? null : sale.counterpartySnapshot}
            testId="receiver"
            pendingText={t('view.copiedOnIssue')}
          />
        </div>
      </section>

      <section className="card">
        <div className="card-header fw-semibold">{t('form.sections.lines')}</div>
        <DocumentLinesTable
          namespace="sales"
          testId="sale-lines"
          lines={sale.lines}
          money={money}
          concept={{
            header: t('fields.concept'),
            cell: (line) => (
              <>
                {line.description}
                {line.professionalName ? (
                  <div className="small text-body-secondary" data-testid="line-professional-name">
                    {t('view.lineProfessional', { name: line.professionalName })}
                  </div>
                ) : null}
              </>
            ),
          }}
          own={{ header: t('fields.tooth'), cell: (line) => line.tooth ?? '—' }}
        />
        <DocumentAmountsView namespace="sales" document={sale} money={money} showOpen={!draft && moneyMoves} />
      </section>

      <DocumentLinks
        namespace="sales"
        document={sale}
        relatedText={
          sale.documentType === 'credit_note' || sale.documentType === 'debit_note'
            ? t('view.corrects')
            : t('view.comesFrom')
        }
        refLink={(document) => <RefLink document={document} />}
        money={money}
        movement={(allocation) => ({
          to: `/collections/view/${allocation.paymentId}`,
          text: t('view.collection', { number: allocation.paymentNumber ?? '' }),
        })}
        creditPath={salePath}
      />

      {!draft ? (
        <section className="card" data-testid="sale-integrity">
          <div className="card-header fw-semibold">{t('view.integrity')}</div>
          <div className="card-body">
            <dl className="row mb-0">
              <dt className="col-sm-4">{t('view.chainIndex')}</dt>
              <dd className="col-sm-8">{sale.chainIndex}</dd>
              <dt className="col-sm-4">{t('view.hash')}</dt>
              <dd className="col-sm-8">
                <code title={sale.contentHash ?? ''} data-testid="sale-hash">
                  {sale.contentHash?.slice(0, 16)}…
                </code>
              </dd>
              {sale.einvoice ? (
                <>
                  <dt className="col-sm-4">{t('view.einvoice')}</dt>
                  <dd className="col-sm-8" data-testid="sale-einvoice" data-status={sale.einvoice.status}>
                    {/* The local adapter answers for no authority: never shown as authorised (issue 35). */}
                    {sale.einvoice.adapter === 'local' ? t('einvoice.local') : t(`einvoice.${sale.einvoice.status}`)}
                    {sale.einvoice.authorizationCode && sale.einvoice.adapter !== 'local' ? (
                      <>
                        {' · '}
                        <code>{sale.einvoice.authorizationCode}</code>
                      </>
                    ) : null}
                    {sale.einvoice.lastError ? ` · ${sale.einvoice.lastError}` : null}
                  </dd>
                </>
              ) : null}
            </dl>
          </div>
        </section>
      ) : null}

      <ConfirmDelete
        show={confirming}
        title={t('view.deleteTitle')}
        onCancel={() => setConfirming(false)}
        onConfirm={() => void onDelete()}
        pending={remove.isPending}
      >
        {t('view.deleteText')}
      </ConfirmDelete>
    </div>
  );
}
