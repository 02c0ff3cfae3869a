import { clinicalRoutes } from '@odontia/shared/routes/clinical';
import { type CertificateByCode, certificateCodePattern } from '@odontia/shared/schemas/health-certificates';
import { type PrescriptionByCode, verificationCodePattern } from '@odontia/shared/schemas/prescriptions';
import { ShieldCheck } from 'lucide-react';
import { type ReactNode, useId, useState } from 'react';
import Modal from 'react-bootstrap/Modal';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { BusyIcon } from '../../components/busy-icon';
import { FormAlert } from '../../components/form-feedback';
import { IconTextButton } from '../../components/icon-button';
import { callApi } from '../../lib/api-client';
import { errorMessage } from '../../lib/api-errors';
import { isApiError } from '../../lib/http';
import { recordPaths } from '../medical-history/api';
import { useCalendarDate } from '../medical-history/form-bits';

/**
 * "Verificar código": a pharmacy reads out the code printed on a prescription (RX-…), or an
 * employer or a school the one on a health certificate (CE-…), and the front desk finds it
 * (GET /api/prescriptions/by-code/:code or /api/certificates/by-code/:code, this clinic's only).
 */
export function VerifyPrescriptionButton() {
  const { t } = useTranslation('prescriptions');
  const [show, setShow] = useState(false);
  return (
    <>
      <IconTextButton
        icon={ShieldCheck}
        className="btn btn-outline-secondary"
        onClick={() => setShow(true)}
        testId="verify-prescription-open"
      >
        {t('verify.open')}
      </IconTextButton>
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
  const [certificate, setCertificate] = useState<CertificateByCode | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const normalised = code.trim().toUpperCase();
  const submit = async () => {
    setFound(null);
    setCertificate(null);
    setProblem(null);
    const isCertificate = certificateCodePattern.test(normalised);
    if (!verificationCodePattern.test(normalised) && !isCertificate) {
      setProblem(t('verify.badFormat'));
      return;
    }
    setBusy(true);
    try {
      if (isCertificate) {
        const answer = await callApi(clinicalRoutes.certificateByCode, { params: { code: normalised } });
        setCertificate(answer.data);
      } else {
        const answer = await callApi(clinicalRoutes.prescriptionByCode, { params: { code: normalised } });
        setFound(answer.data);
      }
    } catch (error) {
      const notFound = t(isCertificate ? 'verify.notFoundCertificate' : 'verify.notFound');
      setProblem(isApiError(error) && error.status === 404 ? notFound : errorMessage(error));
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
              placeholder="RX-XXXX-XXXX · CE-XXXX-XXXX"
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
            <FoundRecordLink kind="prescription" found={found} onClose={onClose}>
              {t('verify.openPrescription')}
            </FoundRecordLink>
          </div>
        ) : null}
        {certificate ? <CertificateFound certificate={certificate} onClose={onClose} /> : null}
      </Modal.Body>
    </form>
  );
}

/** The found document's own page in its patient's record (leaving closes the dialog). */
function FoundRecordLink({
  kind,
  found,
  onClose,
  children,
}: {
  kind: 'prescription' | 'certificate';
  found: { patientId: string; id: string };
  onClose: () => void;
  children: ReactNode;
}) {
  return (
    <Link to={recordPaths.show(kind, found.patientId, found.id)} onClick={onClose} className="alert-link">
      {children}
    </Link>
  );
}

/** A certificate found by its code: valid, or voided with its reason. */
function CertificateFound({ certificate, onClose }: { certificate: CertificateByCode; onClose: () => void }) {
  const { t } = useTranslation(['prescriptions', 'certificates']);
  const date = useCalendarDate();
  const voided = certificate.voidedAt !== null;
  return (
    <div
      className={`alert ${voided ? 'alert-danger' : 'alert-success'} mb-0`}
      role="status"
      data-testid="verify-result"
    >
      <div className="fw-semibold mb-1">
        {voided ? t('verify.voidedCertificate', { reason: certificate.voidReason }) : t('verify.validCertificate')}
      </div>
      <div>
        {certificate.patientName}
        {certificate.patientSsn ? ` · ${certificate.patientSsn}` : ''}
      </div>
      <div className="small mb-2">
        {t(`certificates:kinds.${certificate.kind}`)} · {date(certificate.date)} · {certificate.professionalName}
        {certificate.kind === 'rest' ? ` · ${date(certificate.restFrom)} – ${date(certificate.restTo)}` : ''}
      </div>
      <FoundRecordLink kind="certificate" found={certificate} onClose={onClose}>
        {t('verify.openCertificate')}
      </FoundRecordLink>
    </div>
  );
}
