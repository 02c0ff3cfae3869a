import { normalizeDecimal } from '@odontia/shared/decimal-input';
import type { Purchase } from '@odontia/shared/schemas/commercial-documents';
import { Mail, PackageCheck } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import Modal from 'react-bootstrap/Modal';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { BusyIcon } from '../../components/busy-icon';
import { FormAlert } from '../../components/form-feedback';
import { PdfButton } from '../../components/pdf-button';
import { apiErrorText, toastSuccess } from '../../lib/api-toast';
import { useCalendarDateFormat, useInstantFormat } from '../auth/clinic-time';
import { DocumentStatusBadge } from '../commercial/document-badges';
import { trimZeros } from '../commercial/line-amounts';
import { purchasePath, purchasesApi, useReceivePurchaseOrder, useSendPurchaseOrder } from './api';
import { documentNumberText } from './format';
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
        load={() => purchasesApi.pdf(purchase.id)}
        fallbackName={`${t('types.purchase_order')} ${documentNumberText(purchase)}.pdf`}
        label={t('order.pdf')}
        small
        testId="order-pdf"
      />
      {registered && canWrite ? (
        <>
          <button
            type="button"
            className="btn btn-outline-secondary btn-sm"
            onClick={() => setSending(true)}
            data-testid="order-send"
          >
            <Mail size={14} aria-hidden="true" className="me-1" />
            {t('order.send')}
          </button>
          {pending ? (
            <button
              type="button"
              className="btn btn-primary btn-sm"
              onClick={() => setReceiving(true)}
              data-testid="order-receive"
            >
              <PackageCheck size={14} aria-hidden="true" className="me-1" />
              {t('order.receive')}
            </button>
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
  const titleId = useId();
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
    <Modal show={show} onHide={close} centered aria-labelledby={titleId} restoreFocus>
      <div data-testid="order-send-dialog">
        <Modal.Header closeButton closeLabel={common('close')}>
          <Modal.Title id={titleId} as="h2" className="h5">
            {t('order.sendTitle')}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          {problem ? <FormAlert testId="order-send-error">{problem}</FormAlert> : null}
          {email
            ? t('order.sendText', { number: documentNumberText(purchase), email })
            : t('order.sendNoEmail', { provider: purchase.providerName ?? '' })}
        </Modal.Body>
        <Modal.Footer>
          <button type="button" className="btn btn-outline-secondary" onClick={close}>
            {t('form.cancel')}
          </button>
          <button
            type="button"
            className="btn btn-primary"
            disabled={send.isPending}
            onClick={() => void onConfirm()}
            data-testid="order-send-confirm"
          >
            <BusyIcon busy={send.isPending} icon={Mail} />
            {t('order.sendConfirm')}
          </button>
        </Modal.Footer>
      </div>
    </Modal>
  );
}

function ReceiveDialog({ purchase, onClose }: { purchase: Purchase; onClose: () => void }) {
  const { t } = useTranslation('purchases');
  const { t: common } = useTranslation('common');
  const titleId = useId();
  const id = useId();
  const navigate = useNavigate();
  const receive = useReceivePurchaseOrder(purchase.id);
  const open = (purchase.order?.lines ?? []).filter((line) => Number(line.pending) > 0);
  const [documentType, setDocumentType] = useState<'delivery_note' | 'invoice'>('delivery_note');
  const [quantities, setQuantities] = useState<Record<string, string>>(() =>
    Object.fromEntries(open.map((line) => [line.lineId, trimZeros(line.pending)])),
  );
  const [problem, setProblem] = useState<string | null>(null);
  const [invalid, setInvalid] = useState<Set<string>>(new Set());

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setProblem(null);
    const wrong = new Set<string>();
    const lines: { sourceLineId: string; quantity: string }[] = [];
    for (const line of open) {
      const typed = (quantities[line.lineId] ?? '').trim();
      if (typed === '' || typed === '0') continue;
      const value = normalizeDecimal(typed);
      if (value === null || Number(value) <= 0 || Number(value) > Number(line.pending)) wrong.add(line.lineId);
      else lines.push({ sourceLineId: line.lineId, quantity: value });
    }
    setInvalid(wrong);
    if (wrong.size > 0) return;
    if (lines.length === 0) {
      setProblem(t('order.nothingTyped'));
      return;
    }
    try {
      const answer = await receive.mutateAsync({ documentType, lines });
      if (answer.code) toastSuccess(answer.code);
      onClose();
      void navigate(`/purchases/create?edit=${encodeURIComponent(answer.data.id)}`);
    } catch (error) {
      setProblem(apiErrorText(error));
    }
  };

  return (
    <Modal show onHide={onClose} centered size="lg" aria-labelledby={titleId} restoreFocus>
      <form onSubmit={(event) => void onSubmit(event)} noValidate data-testid="order-receive-dialog">
        <Modal.Header closeButton closeLabel={common('close')}>
          <Modal.Title id={titleId} as="h2" className="h5">
            {t('order.receiveTitle', { number: documentNumberText(purchase) })}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          {problem ? <FormAlert testId="order-receive-error">{problem}</FormAlert> : null}
          <fieldset className="mb-3">
            <legend className="form-label fs-6">{t('order.receiveAs')}</legend>
            {(['delivery_note', 'invoice'] as const).map((type) => (
              <div className="form-check form-check-inline" key={type}>
                <input
                  className="form-check-input"
                  type="radio"
                  name={`${id}-type`}
                  id={`${id}-${type}`}
                  value={type}
                  checked={documentType === type}
                  onChange={() => setDocumentType(type)}
                  data-testid={`receive-as-${type}`}
                />
                <label className="form-check-label" htmlFor={`${id}-${type}`}>
                  {t(`types.${type}`)}
                </label>
              </div>
            ))}
          </fieldset>
          <table className="table table-sm align-middle mb-2">
            <caption className="caption-top">{t('order.receiveHint')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('fields.item')}</th>
                <th scope="col" className="text-end">
                  {t('order.pending')}
                </th>
                <th scope="col" className="text-end" style={{ width: '9rem' }}>
                  {t('order.arrived')}
                </th>
              </tr>
            </thead>
            <tbody>
              {open.map((line, index) => (
                <tr key={line.lineId}>
                  <td>{line.description}</td>
                  <td className="text-end">{trimZeros(line.pending)}</td>
                  <td>
                    <input
                      className={`form-control form-control-sm text-end${invalid.has(line.lineId) ? ' is-invalid' : ''}`}
                      inputMode="decimal"
                      aria-label={t('order.arrivedOf', { item: line.description })}
                      aria-invalid={invalid.has(line.lineId) || undefined}
                      aria-describedby={invalid.has(line.lineId) ? `${id}-line-${index}-error` : undefined}
                      value={quantities[line.lineId] ?? ''}
                      onChange={(event) => {
                        setQuantities((current) => ({ ...current, [line.lineId]: event.target.value }));
                        setInvalid((current) => {
                          if (!current.has(line.lineId)) return current;
                          const next = new Set(current);
                          next.delete(line.lineId);
                          return next;
                        });
                      }}
                      data-testid="receive-quantity"
                    />
                    {invalid.has(line.lineId) ? (
                      <div className="invalid-feedback" id={`${id}-line-${index}-error`}>
                        {t('order.arrivedInvalid', { pending: trimZeros(line.pending) })}
                      </div>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </Modal.Body>
        <Modal.Footer>
          <button type="button" className="btn btn-outline-secondary" onClick={onClose}>
            {t('form.cancel')}
          </button>
          <button type="submit" className="btn btn-primary" disabled={receive.isPending} data-testid="receive-confirm">
            <BusyIcon busy={receive.isPending} icon={PackageCheck} />
            {t('order.receiveConfirm')}
          </button>
        </Modal.Footer>
      </form>
    </Modal>
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
      <div className="table-responsive">
        <table className="table table-sm mb-0" data-testid="order-pending">
          <caption className="visually-hidden">{t('order.reception')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('fields.item')}</th>
              <th scope="col" className="text-end">
                {t('order.ordered')}
              </th>
              <th scope="col" className="text-end">
                {t('order.received')}
              </th>
              <th scope="col" className="text-end">
                {t('order.pending')}
              </th>
            </tr>
          </thead>
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
        </table>
      </div>
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
