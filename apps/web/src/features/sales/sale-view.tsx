import { documentMoneySign } from '@odontia/shared/commercial';
import type { Sale } from '@odontia/shared/schemas/sales';
import { FileMinus, FilePlus, Mail } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { BusyButton } from '../../components/busy-button';
import { PdfButton } from '../../components/pdf-button';
import { toastSuccess } from '../../lib/api-toast';
import { useCalendarDateFormat, useInstantFormat } from '../../session/clinic-time';
import { RegisterField } from '../cash-registers/register-field';
import { DocumentActionButton } from '../commercial/document-actions';
import { DocumentView } from '../commercial/document-view';
import { type DocumentViewState, Fact, useDocumentViewState } from '../commercial/document-view-state';
import { PlanPanel } from '../payment-plans/plan-panel';
import { salesApi, useCorrectSale, useSendSale } from './api';
import { BudgetPanel } from './budget-panel';
import { useBudgetProgress } from './budgets-api';
import { SaleEinvoiceCard } from './sale-einvoice-card';
import { SaleIntegrityCard } from './sale-integrity-card';
import { saleSide } from './sale-side';

/** `/sales/view/:saleId`: the sale as issued (or the draft), with its links, collections and integrity data. */
export function SaleView({ sale }: { sale: Sale }) {
  const { t } = useTranslation('sales');
  const day = useCalendarDateFormat();
  const instant = useInstantFormat();
  const state = useDocumentViewState(sale);
  const { draft, canWrite, canDelete } = state;
  const correcting = sale.documentType === 'credit_note' || sale.documentType === 'debit_note';
  // A sale paid at once collects its money when it is issued: at the register this desk chose.
  const [registerId, setRegisterId] = useState<string | undefined>(undefined);
  const paidAtOnce = draft && Boolean(sale.conditionSale) && sale.conditionSale !== 'current_account';
  const budgetProgress = useBudgetProgress(sale.documentType === 'budget' && sale.status === 'issued' ? sale.id : '');

  return (
    <DocumentView
      side={saleSide}
      document={sale}
      state={state}
      title={sale.number ?? t('list.noNumber')}
      leading={<SaleSendActions sale={sale} state={state} />}
      finalAllowed={sale.documentType !== 'credit_note' || canDelete}
      finalExtra={
        paidAtOnce
          ? {
              fields: <RegisterField id="sale-view-registerId" value={registerId} onChange={setRegisterId} />,
              input: { registerId },
            }
          : undefined
      }
      trailing={
        !draft && canWrite && ['invoice', 'debit_note', 'receipt'].includes(sale.documentType) ? (
          <SaleCorrections sale={sale} state={state} />
        ) : null
      }
      facts={
        <>
          <Fact label={t('fields.customer')} testId="sale-customer">
            {sale.customerName ?? '—'}
          </Fact>
          <Fact label={t('fields.date')}>{day(sale.date)}</Fact>
          <Fact label={t('fields.conditionSale')}>
            {sale.conditionSale ? t(`conditions.${sale.conditionSale}`) : '—'}
          </Fact>
          {sale.conditionSale === 'current_account' ? (
            <Fact label={t('fields.dueDate')}>{day(sale.dueDate)}</Fact>
          ) : (
            <Fact label={t('fields.paymentMethod')}>
              {sale.paymentMethod ? t(`methods.${sale.paymentMethod}`) : '—'}
            </Fact>
          )}
          <Fact label={t('fields.currency')}>{t(`currencies.${sale.currency}`)}</Fact>
          {!draft ? (
            <>
              <Fact label={t('view.issued')}>
                {instant(sale.registeredAt)} {sale.registeredByName ? `· ${sale.registeredByName}` : ''}
              </Fact>
              <Fact label={t('view.stock')} testId="moved-stock">
                {sale.movedStock ? t('view.movedStock') : t('view.noStock')}
              </Fact>
            </>
          ) : null}
          {sale.notes ? (
            <Fact label={t('fields.notes')} wide>
              {sale.notes}
            </Fact>
          ) : null}
        </>
      }
      panels={sale.documentType === 'budget' && sale.status === 'issued' ? <BudgetPanel sale={sale} /> : null}
      parties={{ issuer: t('view.issuer'), receiver: t('fields.customer'), pending: t('view.copiedOnIssue') }}
      lines={{
        concept: {
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
        },
        own: { header: t('fields.tooth'), cell: (line) => line.tooth ?? '—' },
      }}
      relatedText={correcting ? t('view.corrects') : t('view.comesFrom')}
      moneyMoves={documentMoneySign[sale.documentType] !== 0}
      after={
        draft ? null : (
          <>
            <PlanPanel sale={sale} canWrite={canWrite} budgetProgress={budgetProgress.data} />
            {sale.einvoice ? <SaleEinvoiceCard sale={sale} einvoice={sale.einvoice} canWrite={canWrite} /> : null}
            <SaleIntegrityCard sale={sale} />
          </>
        )
      }
      deleteText={t('view.deleteText')}
    />
  );
}

/** The sale's PDF and, for whoever writes, sending it by e-mail. */
function SaleSendActions({ sale, state }: { sale: Sale; state: DocumentViewState }) {
  const { t } = useTranslation('sales');
  const send = useSendSale(sale.id);
  const onSend = async () => {
    state.setProblem(null);
    try {
      const answer = await send.mutateAsync();
      toastSuccess(answer.code);
    } catch (error) {
      state.conflict(error);
    }
  };
  return (
    <>
      <PdfButton
        load={() => salesApi.pdf({ params: { id: sale.id } })}
        fallbackName={`${t(`types.${sale.documentType}`)} ${sale.number ?? ''}.pdf`}
        label={t('view.pdf')}
        small
        testId="sale-pdf"
      />
      {state.canWrite ? (
        <BusyButton
          className="btn btn-outline-secondary btn-sm"
          icon={Mail}
          busy={send.isPending}
          onClick={() => void onSend()}
          testId="sale-send"
        >
          {t('view.send')}
        </BusyButton>
      ) : null}
    </>
  );
}

/** An issued sale is corrected by a note the server drafts from it; a credit note is a commercial delete. */
function SaleCorrections({ sale, state }: { sale: Sale; state: DocumentViewState }) {
  const { t } = useTranslation('sales');
  const navigate = useNavigate();
  const correct = useCorrectSale(sale.id);
  const onCorrect = async (documentType: 'credit_note' | 'debit_note') => {
    state.setProblem(null);
    try {
      const answer = await correct.mutateAsync(documentType);
      if (answer.code) toastSuccess(answer.code);
      void navigate(`/sales/create?edit=${answer.data.id}`);
    } catch (error) {
      state.conflict(error);
    }
  };
  const notes = [
    { documentType: 'credit_note', icon: FileMinus, testId: 'view-credit-note', text: t('view.creditNote') },
    { documentType: 'debit_note', icon: FilePlus, testId: 'view-debit-note', text: t('view.debitNote') },
  ] as const;
  return notes
    .filter((note) => note.documentType === 'debit_note' || state.canDelete)
    .map((note) => (
      <DocumentActionButton
        key={note.documentType}
        icon={note.icon}
        onClick={() => void onCorrect(note.documentType)}
        disabled={correct.isPending}
        testId={note.testId}
      >
        {note.text}
      </DocumentActionButton>
    ));
}
