import { normalizeDecimal } from '@odontia/shared/decimal-input';
import type { Purchase } from '@odontia/shared/schemas/commercial-documents';
import { PackageCheck } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import Modal from 'react-bootstrap/Modal';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { BusyIcon } from '../../components/busy-icon';
import { FormAlert } from '../../components/form-feedback';
import { apiErrorText, toastSuccess } from '../../lib/api-toast';
import { trimZeros } from '../commercial/line-amounts';
import { documentNumberText } from '../commercial/money-format';
import { useReceivePurchaseOrder } from './api';

export function ReceiveDialog({ purchase, onClose }: { purchase: Purchase; onClose: () => void }) {
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
