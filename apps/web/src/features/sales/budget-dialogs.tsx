import { clinicToday } from '@odontia/shared/clinic-time';
import type { Currency } from '@odontia/shared/enums';
import { CheckCircle2, PenLine, XCircle } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import Modal from 'react-bootstrap/Modal';
import { useTranslation } from 'react-i18next';
import { BusyIcon } from '../../components/busy-icon';
import { FieldFeedback } from '../../components/form-feedback';
import { fieldCodeText } from '../../components/form-field';
import { fieldErrorsOf } from '../../lib/api-errors';
import { toastApiError, toastSuccess } from '../../lib/api-toast';
import { useClinicTimeZone } from '../../session/clinic-time';
import { SignaturePadField, type SignaturePadHandle } from '../authorizations/signature-pad';
import { useDecideBudget } from './budgets-api';

/** What the budget's panel and its dialogs read of the sale. */
export interface BudgetPanelSale {
  id: string;
  documentType: string;
  status: string;
  version: number;
  patientId: string | null;
  customerId: string | null;
  total: string;
  currency: Currency;
}

export function SignDialog({ sale, text, onClose }: { sale: BudgetPanelSale; text: string; onClose: () => void }) {
  const { t } = useTranslation('budgets');
  const id = useId();
  const decide = useDecideBudget(sale.id);
  const pad = useRef<SignaturePadHandle>(null);
  const [name, setName] = useState('');
  const [idNumber, setIdNumber] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const submit = async () => {
    const image = pad.current?.toPng() ?? null;
    const local: Errors = {
      signerName: name.trim() ? undefined : 'required',
      signerIdNumber: idNumber.trim() ? undefined : 'required',
      signature: image ? undefined : 'required',
    };
    if (Object.values(local).some(Boolean) || !image) {
      setErrors(local);
      return;
    }
    try {
      const answer = await decide.mutateAsync({
        decision: 'accepted',
        signature: { image, signerName: name, signerIdNumber: idNumber },
      });
      toastSuccess(answer.code);
      onClose();
    } catch (error) {
      const fields = errorsOf(error);
      if (fields) {
        setErrors({
          signerName: fields['signature.signerName'],
          signerIdNumber: fields['signature.signerIdNumber'],
          signature: fields['signature.image'] ?? fields.signature,
        });
      } else toastApiError(error);
    }
  };
  return (
    <Modal show onHide={onClose} centered size="lg" aria-labelledby={`${id}-title`}>
      <div data-testid="budget-sign-dialog">
        <Modal.Header closeButton closeLabel={t('common.close')}>
          <Modal.Title id={`${id}-title`} as="h2" className="h5">
            {t('sign.title')}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <p className="text-body-secondary">{t('sign.intro')}</p>
          <pre className="budget-sign-text border rounded p-3 small text-prewrap" data-testid="budget-sign-text">
            {text}
          </pre>
          <fieldset disabled={decide.isPending} className="d-flex flex-column gap-3">
            <div className="row g-3">
              <div className="col-sm-7">
                <label htmlFor={`${id}-name`} className="form-label">
                  {t('sign.signerName')}
                </label>
                <input
                  id={`${id}-name`}
                  className={`form-control${errors.signerName ? ' is-invalid' : ''}`}
                  value={name}
                  onChange={(event) => setName(event.target.value)}
                  maxLength={200}
                  autoComplete="off"
                  aria-describedby={errors.signerName ? `${id}-name-error` : undefined}
                  data-testid="budget-signer-name"
                />
                <FieldFeedback id={`${id}-name-error`} message={fieldCodeText(errors.signerName)} />
              </div>
              <div className="col-sm-5">
                <label htmlFor={`${id}-number`} className="form-label">
                  {t('sign.signerIdNumber')}
                </label>
                <input
                  id={`${id}-number`}
                  className={`form-control${errors.signerIdNumber ? ' is-invalid' : ''}`}
                  value={idNumber}
                  onChange={(event) => setIdNumber(event.target.value)}
                  maxLength={40}
                  autoComplete="off"
                  aria-describedby={errors.signerIdNumber ? `${id}-number-error` : undefined}
                  data-testid="budget-signer-id"
                />
                <FieldFeedback id={`${id}-number-error`} message={fieldCodeText(errors.signerIdNumber)} />
              </div>
            </div>
            <div>
              <SignaturePadField
                ref={pad}
                id={`${id}-pad`}
                invalid={Boolean(errors.signature)}
                describedBy={errors.signature ? `${id}-pad-error` : undefined}
                onChange={(empty) => {
                  if (!empty) setErrors(({ signature: _, ...rest }) => rest);
                }}
              />
              {errors.signature ? (
                <div id={`${id}-pad-error`} className="invalid-feedback d-block" data-testid="budget-signature-error">
                  {errors.signature === 'required' ? t('sign.empty') : fieldCodeText(errors.signature)}
                </div>
              ) : null}
            </div>
          </fieldset>
        </Modal.Body>
        <Modal.Footer>
          <button type="button" className="btn btn-outline-secondary" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button
            type="button"
            className="btn btn-primary"
            onClick={() => void submit()}
            data-testid="budget-sign-confirm"
          >
            <BusyIcon busy={decide.isPending} icon={PenLine} />
            {t('sign.confirm')}
          </button>
        </Modal.Footer>
      </div>
    </Modal>
  );
}

export function MarkDialog({
  sale,
  decision,
  onClose,
}: {
  sale: BudgetPanelSale;
  decision: 'accepted' | 'rejected';
  onClose: () => void;
}) {
  const { t } = useTranslation('budgets');
  const id = useId();
  const timeZone = useClinicTimeZone();
  const decide = useDecideBudget(sale.id);
  const [day, setDay] = useState(() => clinicToday(timeZone));
  const [notes, setNotes] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const submit = async () => {
    try {
      const answer = await decide.mutateAsync({ decision, decidedOn: day, notes });
      toastSuccess(answer.code);
      onClose();
    } catch (error) {
      const fields = errorsOf(error);
      if (fields) setErrors(fields);
      else toastApiError(error);
    }
  };
  return (
    <Modal show onHide={onClose} centered aria-labelledby={`${id}-title`}>
      <div data-testid="budget-mark-dialog">
        <Modal.Header closeButton closeLabel={t('common.close')}>
          <Modal.Title id={`${id}-title`} as="h2" className="h5">
            {t(`mark.title.${decision}`)}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <fieldset disabled={decide.isPending} className="d-flex flex-column gap-3">
            <div>
              <label htmlFor={`${id}-day`} className="form-label">
                {t('mark.decidedOn')}
              </label>
              <input
                id={`${id}-day`}
                type="date"
                className={`form-control${errors.decidedOn ? ' is-invalid' : ''}`}
                value={day}
                onChange={(event) => setDay(event.target.value)}
                aria-describedby={errors.decidedOn ? `${id}-day-error` : undefined}
                data-testid="budget-decided-on"
              />
              <FieldFeedback id={`${id}-day-error`} message={fieldCodeText(errors.decidedOn)} />
            </div>
            <div>
              <label htmlFor={`${id}-notes`} className="form-label">
                {t('mark.notes')}
              </label>
              <textarea
                id={`${id}-notes`}
                className={`form-control${errors.notes ? ' is-invalid' : ''}`}
                value={notes}
                onChange={(event) => setNotes(event.target.value)}
                maxLength={1000}
                rows={2}
                aria-describedby={errors.notes ? `${id}-notes-error` : undefined}
              />
              <FieldFeedback id={`${id}-notes-error`} message={fieldCodeText(errors.notes)} />
            </div>
          </fieldset>
        </Modal.Body>
        <Modal.Footer>
          <button type="button" className="btn btn-outline-secondary" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button
            type="button"
            className={`btn ${decision === 'accepted' ? 'btn-success' : 'btn-danger'}`}
            onClick={() => void submit()}
            data-testid="budget-mark-confirm"
          >
            <BusyIcon busy={decide.isPending} icon={decision === 'accepted' ? CheckCircle2 : XCircle} />
            {t(`mark.confirm.${decision}`)}
          </button>
        </Modal.Footer>
      </div>
    </Modal>
  );
}

export type Errors = Record<string, string | undefined>;

export function errorsOf(error: unknown): Errors | null {
  const fields = fieldErrorsOf(error);
  return fields.length ? Object.fromEntries(fields.map((field) => [field.path, field.code])) : null;
}
