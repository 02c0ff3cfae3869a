import type { Purchase } from '@odontia/shared/schemas/commercial-documents';
import { Mail, PackageCheck } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { CaptionedTable } from '../../components/captioned-table';
import { DialogFrame } from '../../components/dialog-frame';
import { FormAlert } from '../../components/form-feedback';
import { PdfButton } from '../../components/pdf-button';
import { apiErrorText, toastSuccess } from '../../lib/api-toast';
import { useCalendarDateFormat, useInstantFormat } from '../../session/clinic-time';
import { DocumentActionButton } from '../commercial/document-actions';
import { DocumentStatusBadge } from '../commercial/document-badges';
import { trimZeros } from '../commercial/line-amounts';
import { documentNumberText } from '../commercial/money-format';
import { purchasePath, purchasesApi, useSendPurchaseOrder } from './api';
import { ReceiveDialog } from './order-receive-dialog';
import { purchaseSide } from './purchase-side';

/**
 * A purchase order's own actions (issue 35): its PDF, "Enviar al proveedor" (a confirmation,
 * then the e-mail with the PDF) and "Recibir" (a delivery note or an invoice of what is still
 * pending), and the panel with each line's ordered, received and pending quantities.
 */
export function OrderActions({ purchase, canWrite }: { purchase: Purchase; canWrite: boolean }) {
  const { t } = useTranslation('purchases');
  const [sending, setSending] = useState(false);
  const [receiving, setReceiving] = useState(false);
  const registered = purchase.status === 'registered';
  const pending = purchase.order?.status !== 'received';
  return (
    <>
      <PdfButton
        load={() => purchasesApi.pdf({ params: { id: purchase.id } })}
        fallbackName={`${t('types.purchase_order')} ${documentNumberText(purchase)}.pdf`}
        label={t('order.pdf')}
        small
        testId="order-pdf"
      />
      {registered && canWrite ? (
        <>
          <DocumentActionButton icon={Mail} onClick={() => setSending(true)} testId="order-send">
            {t('order.send')}
          </DocumentActionButton>
          {pending ? (
            <DocumentActionButton
              icon={PackageCheck}
              tone="primary"
              onClick={() => setReceiving(true)}
              testId="order-receive"
            >
              {t('order.receive')}
            </DocumentActionButton>
          ) : null}
          <SendDialog purchase={purchase} show={sending} onClose={() => setSending(false)} />
          {receiving ? <ReceiveDialog purchase={purchase} onClose={() => setReceiving(false)} /> : null}
        </>
      ) : null}
    </>
  );
}

function SendDialog({ purchase, show, onClose }: { purchase: Purchase; show: boolean; onClose: () => void }) {
  const { t } = useTranslation('purchases');
  const { t: common } = useTranslation('common');
  const send = useSendPurchaseOrder(purchase.id);
  const [problem, setProblem] = useState<string | null>(null);
  const email = purchase.issuerSnapshot?.email ?? null;
  const close = () => {
    setProblem(null);
    onClose();
  };
  const onConfirm = async () => {
    setProblem(null);
    try {
      const answer = await send.mutateAsync();
      toastSuccess(answer.code);
      onClose();
    } catch (error) {
      setProblem(apiErrorText(error));
    }
  };
  return (
    <DialogFrame
      show={show}
      onHide={close}
      testId="order-send-dialog"
      title={t('order.sendTitle')}
      closeLabel={common('close')}
      cancelLabel={t('form.cancel')}
      confirm={{
        label: t('order.sendConfirm'),
        onClick: () => void onConfirm(),
        disabled: send.isPending,
        busy: send.isPending,
        icon: Mail,
        testId: 'order-send-confirm',
      }}
    >
      {problem ? <FormAlert testId="order-send-error">{problem}</FormAlert> : null}
      {email
        ? t('order.sendText', { number: documentNumberText(purchase), email })
        : t('order.sendNoEmail', { provider: purchase.providerName ?? '' })}
    </DialogFrame>
  );
}

const receptionClass = {
  pending: 'text-bg-secondary',
  partially_received: 'text-bg-warning',
  received: 'text-bg-success',
} as const;

/** The order's receptions: per line ordered / received / pending, its receipts and its e-mails. */
export function OrderReceptionPanel({ purchase }: { purchase: Purchase }) {
  const { t } = useTranslation('purchases');
  const day = useCalendarDateFormat();
  const instant = useInstantFormat();
  const order = purchase.order;
  if (!order) return null;
  return (
    <section className="card" data-testid="order-reception" data-status={order.status}>
      <div className="card-header d-flex flex-wrap gap-2 align-items-center">
        <h2 className="h6 mb-0 fw-semibold">{t('order.reception')}</h2>
        <span className={`badge ${receptionClass[order.status]}`} data-testid="order-status">
          {t(`order.statuses.${order.status}`)}
        </span>
      </div>
      <CaptionedTable
        className="table table-sm mb-0"
        testId="order-pending"
        caption={t('order.reception')}
        head={[
          { label: t('fields.item') },
          { label: t('order.ordered'), className: 'text-end' },
          { label: t('order.received'), className: 'text-end' },
          { label: t('order.pending'), className: 'text-end' },
        ]}
      >
        <tbody>
          {order.lines.map((line) => (
            <tr key={line.lineId} data-testid="order-pending-line">
              <td>{line.description}</td>
              <td className="text-end">{trimZeros(line.ordered)}</td>
              <td className="text-end" data-testid="order-line-received">
                {trimZeros(line.received)}
              </td>
              <td className="text-end fw-semibold" data-testid="order-line-pending">
                {trimZeros(line.pending)}
              </td>
            </tr>
          ))}
        </tbody>
      </CaptionedTable>
      <div className="card-body row g-3">
        <div className="col-md-6">
          <h3 className="h6">{t('order.receipts')}</h3>
          {order.receipts.length === 0 ? (
            <p className="text-body-secondary mb-0">{t('order.noReceipts')}</p>
          ) : (
            <ul className="list-unstyled mb-0" data-testid="order-receipts">
              {order.receipts.map((receipt) => (
                <li key={receipt.id} className="d-flex gap-2 align-items-center">
                  <Link to={purchasePath(receipt.id)}>
                    {t(`types.${receipt.documentType}`)} {documentNumberText(receipt)} · {day(receipt.date)}
                  </Link>
                  <DocumentStatusBadge side={purchaseSide} status={receipt.status} />
                </li>
              ))}
            </ul>
          )}
        </div>
        <div className="col-md-6">
          <h3 className="h6">{t('order.sends')}</h3>
          {order.sends.length === 0 ? (
            <p className="text-body-secondary mb-0" data-testid="order-not-sent">
              {t('order.notSent')}
            </p>
          ) : (
            <ul className="list-unstyled mb-0" data-testid="order-sends">
              {order.sends.map((send) => (
                <li key={send.sentAt}>
                  {t('order.sentTo', { email: send.to, when: instant(send.sentAt) })}
                  {send.sentByName ? ` · ${send.sentByName}` : ''}
                </li>
              ))}
            </ul>
          )}
        </div>
      </div>
    </section>
  );
}
