import { type PrescriptionByCode, verificationCodePattern } from '@odontia/shared/schemas/prescriptions';
import { ShieldCheck } from 'lucide-react';
import { useId, useState } from 'react';
import Modal from 'react-bootstrap/Modal';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { BusyIcon } from '../../components/busy-icon';
import { FormAlert } from '../../components/form-feedback';
import { http, isApiError } from '../../lib/http';
import { errorMessage } from '../auth/api-errors';
import { recordPaths } from '../medical-history/api';
import { useCalendarDate } from '../medical-history/form-bits';

/**
 * "Verificar receta": a pharmacy reads out the code printed on a prescription and the front desk
 * finds it (GET /api/prescriptions/by-code/:code, this clinic's live prescriptions only).
 */
export function VerifyPrescriptionButton() {
  const { t } = useTranslation('prescriptions');
  const [show, setShow] = useState(false);
  return (
    <>
      <button
        type="button"
        className="btn btn-outline-secondary"
        onClick={() => setShow(true)}
        data-testid="verify-prescription-open"
      >
        <ShieldCheck size={16} aria-hidden="true" className="me-2" />
        {t('verify.open')}
      </button>
      <Modal show={show} onHide={() => setShow(false)} centered aria-labelledby="verify-prescription-title">
        {show ? <VerifyForm onClose={() => setShow(false)} /> : null}
      </Modal>
    </>
  );
}

function VerifyForm({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation(['prescriptions', 'common']);
  const id = useId();
  const date = useCalendarDate();
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [found, setFound] = useState<PrescriptionByCode | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const normalised = code.trim().toUpperCase();
  const submit = async () => {
    setFound(null);
    setProblem(null);
    if (!verificationCodePattern.test(normalised)) {
      setProblem(t('verify.badFormat'));
      return;
    }
    setBusy(true);
    try {
      const answer = await http.get<{ data: PrescriptionByCode }>(
        `prescriptions/by-code/${encodeURIComponent(normalised)}`,
      );
      setFound(answer.data);
    } catch (error) {
      setProblem(isApiError(error) && error.status === 404 ? t('verify.notFound') : errorMessage(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
      data-testid="verify-prescription"
    >
      <Modal.Header closeButton closeLabel={t('common:close')}>
        <Modal.Title id="verify-prescription-title" as="h2" className="h5">
          {t('verify.title')}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body className="d-flex flex-column gap-3">
        <div>
          <label htmlFor={`${id}-code`} className="form-label">
            {t('fields.verificationCode')}
          </label>
          <div className="input-group">
            <input
              id={`${id}-code`}
              className="form-control font-monospace"
              value={code}
              placeholder="RX-XXXX-XXXX"
              autoComplete="off"
              onChange={(event) => setCode(event.target.value)}
              data-testid="verify-code"
            />
            <button type="submit" className="btn btn-primary" disabled={busy || !code.trim()}>
              <BusyIcon busy={busy} />
              {t('verify.submit')}
            </button>
          </div>
          <div className="form-text">{t('verify.hint')}</div>
        </div>
        {problem ? <FormAlert testId="verify-error">{problem}</FormAlert> : null}
        {found ? (
          <div className="alert alert-success mb-0" role="status" data-testid="verify-result">
            <div className="fw-semibold mb-1">{t('verify.valid')}</div>
            <div>
              {found.patientName}
              {found.patientSsn ? ` · ${found.patientSsn}` : ''}
            </div>
            <div className="small">
              {date(found.date)} · {found.professionalName}
              {found.professionalLicense ? ` · ${t('licenseShort', { number: found.professionalLicense })}` : ''}
            </div>
            <ul className="small mb-2 mt-1 ps-3">
              {found.lines.map((line) => (
                <li key={line.id}>
                  {[line.medicine, line.dose, line.frequency, line.duration, line.quantity].filter(Boolean).join(' · ')}
                </li>
              ))}
            </ul>
            <Link
              to={recordPaths.show('prescription', found.patientId, found.id)}
              onClick={onClose}
              className="alert-link"
            >
              {t('verify.openPrescription')}
            </Link>
          </div>
        ) : null}
      </Modal.Body>
    </form>
  );
}
