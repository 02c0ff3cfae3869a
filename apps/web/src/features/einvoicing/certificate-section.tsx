import type { EinvoiceCertificate, EinvoiceSettings } from '@odontia/shared/schemas/einvoicing';
import { FileUp, KeyRound, Trash2 } from 'lucide-react';
import { type FormEvent, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BusyIcon } from '../../components/busy-icon';
import { ConfirmDelete } from '../../components/confirm-delete';
import { FieldFeedback, FormAlert } from '../../components/form-feedback';
import { PasswordInput } from '../../components/password-input';
import { SettingsSection } from '../../components/settings-page-frame';
import { apiErrorText, toastSuccess } from '../../lib/api-toast';
import { isApiError } from '../../lib/http';
import { useInstantFormat } from '../../session/clinic-time';
import { useRemoveCertificate, useUploadCertificate } from './api';

/*
 * The clinic's certificate for the authority (PUT/DELETE /api/settings/einvoicing/certificate):
 * what the stored one says (never the certificate or its key), and a new one either as PEM texts
 * (ARCA's .crt and the key the clinic generated: pasted, or read from files in the browser) or as
 * a PKCS#12 file (.p12/.pfx, Spain's FNMT) with its password, sent in base64.
 */

const dayMs = 24 * 60 * 60 * 1000;
/** A certificate this close to its end is announced. */
const warnDays = 30;
/** The contract's limit for the PKCS#12 in base64 (60,000 characters: about 45 KB of file). */
const maxPkcs12Base64 = 60_000;

type Mode = 'pem' | 'pkcs12';

/** A file's bytes as base64, in slices (a spread of the whole file would overflow the stack). */
async function base64Of(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let start = 0; start < bytes.length; start += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(start, start + 0x8000));
  return btoa(binary);
}

function CertificateFacts({ certificate }: { certificate: EinvoiceCertificate }) {
  const { t } = useTranslation('einvoicing');
  const date = useInstantFormat('date');
  const left = Math.floor((Date.parse(certificate.notAfter) - Date.now()) / dayMs);
  const expired = Date.parse(certificate.notAfter) <= Date.now();
  return (
    <>
      <dl className="row mb-0" data-testid="einvoicing-certificate-info">
        <dt className="col-sm-3">{t('certificate.subject')}</dt>
        <dd className="col-sm-9 text-break" data-testid="einvoicing-certificate-subject">
          {certificate.subject}
        </dd>
        <dt className="col-sm-3">{t('certificate.taxId')}</dt>
        <dd className="col-sm-9 font-monospace" data-testid="einvoicing-certificate-tax-id">
          {certificate.taxId ?? t('certificate.noTaxId')}
        </dd>
        <dt className="col-sm-3">{t('certificate.issuer')}</dt>
        <dd className="col-sm-9 text-break">{certificate.issuer}</dd>
        <dt className="col-sm-3">{t('certificate.serialNumber')}</dt>
        <dd className="col-sm-9 font-monospace text-break">{certificate.serialNumber}</dd>
        <dt className="col-sm-3">{t('certificate.validFrom')}</dt>
        <dd className="col-sm-9">{date(certificate.notBefore)}</dd>
        <dt className="col-sm-3">{t('certificate.validUntil')}</dt>
        <dd className="col-sm-9" data-testid="einvoicing-certificate-valid-until">
          {date(certificate.notAfter)}
        </dd>
      </dl>
      {expired ? (
        <FormAlert testId="einvoicing-certificate-expired">
          {t('certificate.expired', { date: date(certificate.notAfter) })}
        </FormAlert>
      ) : left < warnDays ? (
        <FormAlert variant="warning" testId="einvoicing-certificate-expiring">
          {t('certificate.expiring', { date: date(certificate.notAfter) })}
        </FormAlert>
      ) : null}
    </>
  );
}

/** A PEM text area with a button that reads the text from a file chosen on this computer. */
function PemField({
  label,
  hint,
  value,
  onChange,
  error,
  accept,
  testId,
}: {
  label: string;
  hint: string;
  value: string;
  onChange: (value: string) => void;
  error: string | null;
  accept: string;
  testId: string;
}) {
  const { t } = useTranslation('einvoicing');
  const id = useId();
  const file = useRef<HTMLInputElement>(null);
  const [readError, setReadError] = useState<string | null>(null);
  const problem = error ?? readError;
  return (
    <div>
      <div className="d-flex flex-wrap justify-content-between align-items-end gap-2 mb-1">
        <label htmlFor={id} className="form-label mb-0">
          {label}
        </label>
        <label htmlFor={`${id}-file`} className="visually-hidden">
          {t('certificate.fromFileOf', { field: label })}
        </label>
        <input
          ref={file}
          id={`${id}-file`}
          type="file"
          accept={accept}
          className="visually-hidden"
          tabIndex={-1}
          onChange={async (event) => {
            const chosen = event.target.files?.[0];
            event.target.value = '';
            if (!chosen) return;
            try {
              setReadError(null);
              onChange((await chosen.text()).trim());
            } catch {
              setReadError(t('certificate.readError'));
            }
          }}
          data-testid={`${testId}-file`}
        />
        <button type="button" className="btn btn-sm btn-outline-secondary" onClick={() => file.current?.click()}>
          <FileUp size={14} aria-hidden="true" />
          <span className="ms-1">{t('certificate.fromFile')}</span>
          <span className="visually-hidden">: {label}</span>
        </button>
      </div>
      <textarea
        id={id}
        className={`form-control font-monospace small${problem ? ' is-invalid' : ''}`}
        rows={5}
        spellCheck={false}
        autoComplete="off"
        placeholder="-----BEGIN …-----"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-describedby={`${id}-hint${problem ? ` ${id}-error` : ''}`}
        aria-invalid={problem ? true : undefined}
        data-testid={testId}
      />
      <div id={`${id}-hint`} className="form-text">
        {hint}
      </div>
      <FieldFeedback id={`${id}-error`} message={problem} />
    </div>
  );
}

function CertificateUpload({ hasCertificate, onDone }: { hasCertificate: boolean; onDone: () => void }) {
  const { t, i18n } = useTranslation('einvoicing');
  const id = useId();
  const upload = useUploadCertificate();
  const sending = useRef(false);
  const pkcs12Input = useRef<HTMLInputElement>(null);
  const [mode, setMode] = useState<Mode>('pem');
  const [certificatePem, setCertificatePem] = useState('');
  const [privateKeyPem, setPrivateKeyPem] = useState('');
  const [pkcs12, setPkcs12] = useState<{ name: string; base64: string } | null>(null);
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Partial<Record<'certificatePem' | 'privateKeyPem' | 'pkcs12', string>>>({});
  const [problem, setProblem] = useState<string | null>(null);

  const onPkcs12 = async (file: File | undefined) => {
    if (!file) return;
    setErrors({});
    try {
      const base64 = await base64Of(file);
      if (base64.length > maxPkcs12Base64) setErrors({ pkcs12: t('certificate.tooBig') });
      else setPkcs12({ name: file.name, base64 });
    } catch {
      setErrors({ pkcs12: t('certificate.readError') });
    }
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (sending.current) return;
    const missing: typeof errors = {};
    if (mode === 'pem') {
      if (!certificatePem.trim()) missing.certificatePem = t('certificate.required');
      if (!privateKeyPem.trim()) missing.privateKeyPem = t('certificate.required');
    } else if (!pkcs12) missing.pkcs12 = t('certificate.required');
    setErrors(missing);
    setProblem(null);
    if (Object.keys(missing).length > 0) return;
    sending.current = true;
    try {
      const answer = await upload.mutateAsync(
        mode === 'pem'
          ? { certificatePem: certificatePem.trim(), privateKeyPem: privateKeyPem.trim() }
          : { pkcs12: pkcs12?.base64 ?? '', password },
      );
      toastSuccess(answer.code ?? 'einvoice_certificate_updated');
      onDone();
    } catch (error) {
      const reason = isApiError(error) && typeof error.details?.reason === 'string' ? error.details.reason : '';
      const key = `einvoicing:certificate.reasons.${reason}`;
      setProblem(reason && i18n.exists(key) ? t(`certificate.reasons.${reason}`) : apiErrorText(error));
    } finally {
      sending.current = false;
    }
  };

  return (
    <form noValidate onSubmit={(event) => void submit(event)} data-testid="einvoicing-certificate-form">
      <fieldset disabled={upload.isPending} className="d-flex flex-column gap-3 border-top pt-3">
        {problem ? <FormAlert testId="einvoicing-certificate-error">{problem}</FormAlert> : null}
        <fieldset>
          <legend className="form-label fs-6">{t('certificate.modeLegend')}</legend>
          {(['pem', 'pkcs12'] as const).map((value) => (
            <div key={value} className="form-check">
              <input
                className="form-check-input"
                type="radio"
                name={`${id}-mode`}
                id={`${id}-mode-${value}`}
                checked={mode === value}
                onChange={() => {
                  setMode(value);
                  setErrors({});
                  setProblem(null);
                }}
                data-testid={`einvoicing-certificate-mode-${value}`}
              />
              <label className="form-check-label" htmlFor={`${id}-mode-${value}`}>
                {t(`certificate.modes.${value}`)}
              </label>
            </div>
          ))}
        </fieldset>
        {mode === 'pem' ? (
          <>
            <PemField
              label={t('certificate.certificatePem')}
              hint={t('certificate.certificatePemHint')}
              value={certificatePem}
              onChange={setCertificatePem}
              error={errors.certificatePem ?? null}
              accept=".crt,.pem,.cer,application/x-x509-ca-cert,application/x-pem-file"
              testId="einvoicing-certificate-pem"
            />
            <PemField
              label={t('certificate.privateKeyPem')}
              hint={t('certificate.privateKeyPemHint')}
              value={privateKeyPem}
              onChange={setPrivateKeyPem}
              error={errors.privateKeyPem ?? null}
              accept=".key,.pem,application/x-pem-file"
              testId="einvoicing-private-key-pem"
            />
          </>
        ) : (
          <div className="row g-3">
            <div className="col-md-6">
              <label htmlFor={`${id}-pkcs12`} className="form-label">
                {t('certificate.pkcs12File')}
              </label>
              <input
                ref={pkcs12Input}
                id={`${id}-pkcs12`}
                type="file"
                accept=".p12,.pfx,application/x-pkcs12"
                className={`form-control${errors.pkcs12 ? ' is-invalid' : ''}`}
                onChange={(event) => void onPkcs12(event.target.files?.[0])}
                aria-describedby={`${id}-pkcs12-hint${errors.pkcs12 ? ` ${id}-pkcs12-error` : ''}`}
                aria-invalid={errors.pkcs12 ? true : undefined}
                data-testid="einvoicing-pkcs12-file"
              />
              <div id={`${id}-pkcs12-hint`} className="form-text">
                {pkcs12 ? t('certificate.pkcs12Chosen', { name: pkcs12.name }) : t('certificate.pkcs12Hint')}
              </div>
              <FieldFeedback id={`${id}-pkcs12-error`} message={errors.pkcs12} />
            </div>
            <div className="col-md-6">
              <label htmlFor={`${id}-password`} className="form-label">
                {t('certificate.password')}
              </label>
              <PasswordInput
                id={`${id}-password`}
                value={password}
                onChange={(event) => setPassword(event.target.value)}
                autoComplete="off"
                maxLength={200}
                data-testid="einvoicing-pkcs12-password"
              />
            </div>
          </div>
        )}
        <div className="d-flex flex-wrap gap-2">
          <button type="submit" className="btn btn-primary" data-testid="einvoicing-certificate-save">
            <BusyIcon busy={upload.isPending} icon={KeyRound} />
            <span className="ms-1">{hasCertificate ? t('certificate.replace') : t('certificate.upload')}</span>
          </button>
          {hasCertificate ? (
            <button type="button" className="btn btn-outline-secondary" onClick={onDone}>
              {t('certificate.cancel')}
            </button>
          ) : null}
        </div>
      </fieldset>
    </form>
  );
}

export function CertificateSection({ data }: { data: EinvoiceSettings }) {
  const { t } = useTranslation('einvoicing');
  const remove = useRemoveCertificate();
  const [confirm, setConfirm] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [replacing, setReplacing] = useState(false);
  const certificate = data.certificate;
  return (
    <SettingsSection
      title={t('sections.certificate')}
      intro={t('certificate.intro')}
      testId="einvoicing-certificate"
      actions={
        certificate ? (
          <div className="d-flex flex-wrap gap-2">
            {replacing ? null : (
              <button
                type="button"
                className="btn btn-sm btn-outline-primary"
                onClick={() => setReplacing(true)}
                data-testid="einvoicing-certificate-replace"
              >
                <KeyRound size={14} aria-hidden="true" />
                <span className="ms-1">{t('certificate.replace')}</span>
              </button>
            )}
            <button
              type="button"
              className="btn btn-sm btn-outline-danger"
              onClick={() => {
                setProblem(null);
                setConfirm(true);
              }}
              data-testid="einvoicing-certificate-remove"
            >
              <Trash2 size={14} aria-hidden="true" />
              <span className="ms-1">{t('certificate.remove')}</span>
            </button>
          </div>
        ) : undefined
      }
    >
      {certificate ? (
        <CertificateFacts certificate={certificate} />
      ) : (
        <p className="text-body-secondary mb-0" data-testid="einvoicing-certificate-none">
          {data.regime === 'local' ? t('certificate.noneLocal') : t('certificate.none')}
        </p>
      )}
      {!certificate || replacing ? (
        <CertificateUpload hasCertificate={Boolean(certificate)} onDone={() => setReplacing(false)} />
      ) : null}
      <ConfirmDelete
        show={confirm}
        title={t('certificate.removeTitle')}
        confirmLabel={t('certificate.remove')}
        pending={remove.isPending}
        problem={problem}
        onCancel={() => setConfirm(false)}
        onConfirm={async () => {
          if (remove.isPending) return;
          try {
            const answer = await remove.mutateAsync();
            toastSuccess(answer.code ?? 'einvoice_certificate_removed');
            setConfirm(false);
          } catch (error) {
            setProblem(apiErrorText(error));
          }
        }}
      >
        {data.regime === 'local' ? t('certificate.removeTextLocal') : t('certificate.removeText')}
      </ConfirmDelete>
    </SettingsSection>
  );
}
