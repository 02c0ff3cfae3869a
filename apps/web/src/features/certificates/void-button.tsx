import type { HealthCertificate } from '@odontia/shared/schemas/health-certificates';
import { Ban } from 'lucide-react';
import { useId, useState } from 'react';
import Modal from 'react-bootstrap/Modal';
import { useTranslation } from 'react-i18next';
import { BusyIcon } from '../../components/busy-icon';
import { FieldFeedback } from '../../components/form-feedback';
import { fieldCodeText } from '../../components/form-field';
import { errorMessage, fieldErrorsOf } from '../../lib/api-errors';
import { toastSuccess } from '../../lib/api-toast';
import { queryClient } from '../../lib/query-client';
import { clinicalApi, recordKey, refreshClinical } from '../medical-history/api';

/** Voids an issued certificate with a reason (a dialog, not a record form: one field, its own error). */
export function VoidButton({ patientId, record }: { patientId: string; record: HealthCertificate }) {
  const { t } = useTranslation(['certificates', 'common']);
  const fieldId = useId();
  const [show, setShow] = useState(false);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const close = () => {
    setShow(false);
    setReason('');
    setError(null);
  };
  const confirm = async () => {
    if (!reason.trim()) {
      setError(fieldCodeText('required'));
      return;
    }
    setBusy(true);
    try {
      const answer = await clinicalApi.voidCertificate(patientId, record.id, { reason, version: record.version });
      queryClient.setQueryData(recordKey('certificate', patientId, record.id), answer.data);
      await refreshClinical();
      if (answer.code) toastSuccess(answer.code);
      close();
    } catch (failure) {
      const fields = fieldErrorsOf(failure);
      setError(fields.length ? fieldCodeText(fields[0]?.code) : errorMessage(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <button
        type="button"
        className="btn btn-outline-danger"
        onClick={() => setShow(true)}
        data-testid="void-certificate"
      >
        <Ban size={16} aria-hidden="true" className="me-2" />
        {t('void.action')}
      </button>
      <Modal show={show} onHide={close} centered aria-labelledby={`${fieldId}-title`}>
        <div data-testid="void-dialog">
          <Modal.Header closeButton closeLabel={t('common:close')}>
            <Modal.Title id={`${fieldId}-title`} as="h2" className="h5">
              {t('void.title')}
            </Modal.Title>
          </Modal.Header>
          <Modal.Body>
            <p>{t('void.text')}</p>
            <label htmlFor={fieldId} className="form-label">
              {t('fields.voidReason')}
              <span className="text-danger ms-1" aria-hidden="true">
                *
              </span>
            </label>
            <textarea
              id={fieldId}
              className={`form-control${error ? ' is-invalid' : ''}`}
              rows={3}
              value={reason}
              maxLength={500}
              aria-describedby={error ? `${fieldId}-error` : undefined}
              onChange={(event) => setReason(event.target.value)}
              data-testid="void-reason"
            />
            <FieldFeedback id={`${fieldId}-error`} message={error} />
          </Modal.Body>
          <Modal.Footer>
            <button type="button" className="btn btn-outline-secondary" onClick={close}>
              {t('common:cancel')}
            </button>
            <button
              type="button"
              className="btn btn-danger"
              disabled={busy}
              onClick={() => void confirm()}
              data-testid="void-confirm"
            >
              <BusyIcon busy={busy} />
              {t('void.confirm')}
            </button>
          </Modal.Footer>
        </div>
      </Modal>
    </>
  );
}
