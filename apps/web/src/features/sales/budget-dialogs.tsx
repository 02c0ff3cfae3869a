import { clinicToday } from '@odontia/shared/clinic-time';
import type { Currency } from '@odontia/shared/enums';
import { CheckCircle2, PenLine, XCircle } from 'lucide-react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DialogFrame } from '../../components/dialog-frame';
import { FieldFeedback } from '../../components/form-feedback';
import { fieldCodeText } from '../../components/form-field';
import { type FieldCodes, fieldCodesOf } from '../../lib/api-errors';
import { toastApiError, toastSuccess } from '../../lib/api-toast';
import { useClinicTimeZone } from '../../session/clinic-time';
import { SignerFields, useSigner } from '../signing/signer-fields';
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
  const signer = useSigner();
  const { pad, name, idNumber, errors, setErrors } = signer;
  const submit = async () => {
    const image = pad.current?.toPng() ?? null;
    const local: FieldCodes = {
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
      const fields = fieldCodesOf(error);
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
    <DialogFrame
      onHide={onClose}
      testId="budget-sign-dialog"
      size="lg"
      title={t('sign.title')}
      closeLabel={t('common.close')}
      cancelLabel={t('common.cancel')}
      confirm={{
        label: t('sign.confirm'),
        onClick: () => void submit(),
        busy: decide.isPending,
        icon: PenLine,
        testId: 'budget-sign-confirm',
      }}
    >
      <p className="text-body-secondary">{t('sign.intro')}</p>
      <pre className="budget-sign-text border rounded p-3 small text-prewrap" data-testid="budget-sign-text">
        {text}
      </pre>
      <fieldset disabled={decide.isPending} className="d-flex flex-column gap-3">
        <SignerFields
          {...signer.fields}
          id={id}
          labels={{ name: t('sign.signerName'), idNumber: t('sign.signerIdNumber') }}
          padError={errors.signature === 'required' ? t('sign.empty') : fieldCodeText(errors.signature)}
          testIds={{
            name: 'budget-signer-name',
            idNumber: 'budget-signer-id',
            signatureError: 'budget-signature-error',
          }}
        />
      </fieldset>
    </DialogFrame>
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
  const [errors, setErrors] = useState<FieldCodes>({});
  const submit = async () => {
    try {
      const answer = await decide.mutateAsync({ decision, decidedOn: day, notes });
      toastSuccess(answer.code);
      onClose();
    } catch (error) {
      const fields = fieldCodesOf(error);
      if (fields) setErrors(fields);
      else toastApiError(error);
    }
  };
  return (
    <DialogFrame
      onHide={onClose}
      testId="budget-mark-dialog"
      title={t(`mark.title.${decision}`)}
      closeLabel={t('common.close')}
      cancelLabel={t('common.cancel')}
      confirm={{
        label: t(`mark.confirm.${decision}`),
        onClick: () => void submit(),
        className: decision === 'accepted' ? 'btn-success' : 'btn-danger',
        busy: decide.isPending,
        icon: decision === 'accepted' ? CheckCircle2 : XCircle,
        testId: 'budget-mark-confirm',
      }}
    >
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
    </DialogFrame>
  );
}
