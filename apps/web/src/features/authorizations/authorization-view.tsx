import type { AuthorizationDetail, AuthorizationSignature } from '@odontia/shared/schemas/authorizations';
import type { Patient } from '@odontia/shared/schemas/patients';
import { Pencil, PenLine, ShieldCheck, ShieldX, Trash2, Undo2 } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { BusyIcon } from '../../components/busy-icon';
import { ConfirmDelete, useConfirmDelete } from '../../components/confirm-delete';
import { ReasonDialogButton } from '../../components/dialog-frame';
import { fieldCodeText } from '../../components/form-field';
import { IconTextButton } from '../../components/icon-button';
import { IconLink } from '../../components/icon-link';
import { PdfButton } from '../../components/pdf-button';
import { toastApiError, toastSuccessText } from '../../lib/api-toast';
import { useFormErrors } from '../../lib/form-errors';
import { queryClient } from '../../lib/query-client';
import { placeStateErrors } from '../../lib/state-form-errors';
import { useCalendarDate } from '../medical-history/form-bits';
import { missingSignerFields, SignerFields, useSigner } from '../signing/signer-fields';
import { SigningRequestCard } from '../signing/signing-request-card';
import {
  authorizationKey,
  authorizationPaths,
  authorizationsApi,
  useDeleteAuthorization,
  useSignAuthorization,
  useUnsignAuthorization,
} from './api';
import { Fact, RecordStampsLine, useDateTimeFormat } from './bits';

/**
 * Signed, unsigned (never signed), or revoked (unsigned after its signature was revoked: when and
 * by whom beside it), so a revoked consent never looks like a draft.
 */
export function StatusBadge({
  record,
}: {
  record: Pick<AuthorizationDetail, 'status' | 'revokedAt' | 'revokedByName'>;
}) {
  const { t } = useTranslation('authorizations');
  const dateTime = useDateTimeFormat();
  const state = record.status === 'signed' ? 'signed' : record.revokedAt ? 'revoked' : 'unsigned';
  const style = { signed: 'text-bg-success', unsigned: 'text-bg-warning', revoked: 'text-bg-danger' }[state];
  return (
    <span className="d-inline-flex flex-wrap align-items-center gap-1">
      <span className={`badge ${style}`} data-testid="authorization-status" data-state={state}>
        {t(`statuses.${state}`)}
      </span>
      {state === 'revoked' && record.revokedAt ? (
        <small className="text-body-secondary" data-testid="authorization-revoked">
          {t('signature.revokedAt', { when: dateTime(record.revokedAt), who: record.revokedByName ?? '—' })}
        </small>
      ) : null}
    </span>
  );
}

/** The sign screen: the text was read above; name and ID (the patient's by default) and the pad. */
function SignPanel({ patient, record, onDone }: { patient: Patient; record: AuthorizationDetail; onDone: () => void }) {
  const { t } = useTranslation('authorizations');
  const id = useId();
  const sign = useSignAuthorization(patient.id, record.id);
  const signer = useSigner({ name: `${patient.firstName} ${patient.lastName}`, idNumber: patient.ssn ?? '' });
  const { pad, name, idNumber, errors, setErrors } = signer;
  const formErrors = useFormErrors<HTMLFieldSetElement>();
  const submit = async () => {
    const png = pad.current?.toPng() ?? null;
    const next = missingSignerFields(name, idNumber, png);
    setErrors(next);
    if (Object.keys(next).length > 0 || !png) {
      formErrors.reveal();
      return;
    }
    try {
      await sign.mutateAsync({ signerName: name, signerIdNumber: idNumber, signature: png });
      // messages:authorization_signed is also the error "already signed": the toast says it in its own words.
      toastSuccessText(t('sign.done'));
      onDone();
    } catch (error) {
      if (!placeStateErrors(error, setErrors, formErrors.reveal)) toastApiError(error);
    }
  };
  const padError = errors.signature === 'required' ? t('sign.empty') : fieldCodeText(errors.signature);
  const panel = useRef<HTMLElement>(null);
  // The panel opens below the text the patient just read: bring it into view.
  useEffect(() => {
    panel.current?.scrollIntoView({ behavior: 'smooth', block: 'start' });
  }, []);
  return (
    <section ref={panel} className="card mb-0 border-primary" data-testid="sign-panel" aria-labelledby={`${id}-title`}>
      <div className="card-body d-flex flex-column gap-3">
        <div>
          <h2 className="h5 mb-1" id={`${id}-title`}>
            {t('sign.title')}
          </h2>
          <p className="text-body-secondary mb-0">{t('sign.intro')}</p>
        </div>
        <fieldset ref={formErrors.ref} disabled={sign.isPending} className="d-flex flex-column gap-3">
          <SignerFields
            {...signer.fields}
            id={id}
            labels={{ name: t('fields.signerName'), idNumber: t('fields.signerIdNumber') }}
            padError={padError}
            testIds={{ name: 'signer-name', idNumber: 'signer-id', signatureError: 'signature-error' }}
          />
          <div className="d-flex flex-wrap gap-2 justify-content-end">
            <button type="button" className="btn btn-outline-secondary" onClick={onDone}>
              {t('sign.cancel')}
            </button>
            <button type="button" className="btn btn-primary" onClick={() => void submit()} data-testid="sign-confirm">
              <BusyIcon busy={sign.isPending} icon={PenLine} />
              {t('sign.confirm')}
            </button>
          </div>
        </fieldset>
      </div>
    </section>
  );
}

function UnsignButton({ patientId, id }: { patientId: string; id: string }) {
  const { t } = useTranslation('authorizations');
  const unsign = useUnsignAuthorization(patientId, id);
  return (
    <ReasonDialogButton
      icon={Undo2}
      buttonTestId="unsign"
      testIdPrefix="unsign"
      maxLength={1000}
      texts={{
        action: t('unsign.action'),
        title: t('unsign.title'),
        text: t('unsign.text'),
        reason: t('fields.reason'),
        confirm: t('unsign.confirm'),
        close: t('common.close'),
        cancel: t('common.cancel'),
      }}
      onConfirm={(reason) => unsign.mutateAsync(reason)}
    />
  );
}

function DeleteButton({ patientId, record }: { patientId: string; record: AuthorizationDetail }) {
  const { t } = useTranslation('authorizations');
  const navigate = useNavigate();
  const remove = useDeleteAuthorization(patientId, record.id);
  const deletion = useConfirmDelete(remove, async () => {
    await navigate(authorizationPaths.tab(patientId), { replace: true });
    queryClient.removeQueries({ queryKey: authorizationKey(patientId, record.id) });
  });
  return (
    <>
      <IconTextButton icon={Trash2} className="btn btn-outline-danger" onClick={deletion.open} testId="record-delete">
        {t('common.delete')}
      </IconTextButton>
      <ConfirmDelete {...deletion.dialog} title={t('delete.title')} testId="delete-record">
        <p>{t('delete.text', { name: record.title })}</p>
        <p className="mb-0 fw-semibold text-danger-emphasis">{t('delete.permanent')}</p>
      </ConfirmDelete>
    </>
  );
}

/** "Verificar": the server recomputes every signature's hash from what it stores. */
function VerifyButton({ patientId, id }: { patientId: string; id: string }) {
  const { t } = useTranslation('authorizations');
  const [result, setResult] = useState<'ok' | 'bad' | 'none' | null>(null);
  const [busy, setBusy] = useState(false);
  const verify = async () => {
    setBusy(true);
    try {
      const { data } = await authorizationsApi.verify({ params: { patientId, id } });
      setResult(data.signatures.length === 0 ? 'none' : data.valid ? 'ok' : 'bad');
    } catch (error) {
      toastApiError(error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="d-flex flex-column gap-2">
      <div>
        <button
          type="button"
          className="btn btn-outline-primary btn-sm"
          onClick={() => void verify()}
          disabled={busy}
          data-testid="verify"
        >
          <BusyIcon busy={busy} icon={ShieldCheck} />
          {t('signature.verify')}
        </button>
      </div>
      {result ? (
        <div
          className={`alert mb-0 py-2 small d-flex align-items-center gap-2 ${result === 'bad' ? 'alert-danger' : 'alert-success'}`}
          role="status"
          data-testid="verify-result"
          data-result={result}
        >
          {result === 'bad' ? <ShieldX size={16} aria-hidden="true" /> : <ShieldCheck size={16} aria-hidden="true" />}
          {t(
            result === 'ok' ? 'signature.verifyOk' : result === 'bad' ? 'signature.verifyBad' : 'signature.verifyNone',
          )}
        </div>
      ) : null}
    </div>
  );
}

function SignatureFacts({ signature }: { signature: AuthorizationSignature }) {
  const { t } = useTranslation('authorizations');
  const dateTime = useDateTimeFormat();
  return (
    <div className="row g-3 align-items-start">
      <div className="col-md-5">
        <img
          src={signature.image}
          alt={t('signature.image', { name: signature.signerName })}
          className="signature-image"
          data-testid="signature-image"
        />
      </div>
      <div className="col-md-7">
        <dl className="clinical-facts mb-0">
          <Fact label={t('signature.signedBy')} testId="signature-signer">
            {signature.signerName}
          </Fact>
          <Fact label={t('signature.idNumber')}>{signature.signerIdNumber}</Fact>
          <Fact label={t('signature.signedAt')} testId="signature-time">
            {dateTime(signature.signedAt)}
          </Fact>
          <Fact label={t('signature.collectedBy')}>{signature.collectedByName}</Fact>
          <Fact label={t('signature.hash')} wide testId="signature-hash">
            <span className="authorization-hash" title={t('signature.hashHint')}>
              {signature.sha256}
            </span>
          </Fact>
        </dl>
      </div>
    </div>
  );
}

export function AuthorizationView({
  patient,
  record,
  canWrite,
}: {
  patient: Patient;
  record: AuthorizationDetail;
  canWrite: boolean;
}) {
  const { t } = useTranslation('authorizations');
  const date = useCalendarDate();
  const dateTime = useDateTimeFormat();
  const [signing, setSigning] = useState(false);
  const standing = record.signatures.find((signature) => signature.revokedAt === null) ?? null;
  const revoked = record.signatures.filter((signature) => signature.revokedAt !== null);
  const signed = record.status === 'signed';
  const text = standing ? standing.signedText.slice(standing.signedText.indexOf('\n\n') + 2) : record.body;
  return (
    <>
      <section className="card mb-0" data-testid="authorization-view">
        <div className="card-body d-flex flex-column gap-3">
          <div className="d-flex flex-wrap gap-2 align-items-center">
            <StatusBadge record={record} />
            <div className="ms-auto d-flex gap-2 flex-wrap">
              <PdfButton
                load={() => authorizationsApi.pdf({ params: { patientId: patient.id, id: record.id } })}
                fallbackName="autorizacion.pdf"
                label={t('pdf')}
                icon="download"
                testId="authorization-pdf"
              />
              {canWrite && !signed && record.signatures.length === 0 ? (
                <DeleteButton patientId={patient.id} record={record} />
              ) : null}
              {canWrite && !signed ? (
                <IconLink
                  to={authorizationPaths.edit(patient.id, record.id)}
                  className="btn btn-outline-primary"
                  icon={Pencil}
                  testId="record-edit"
                >
                  {t('common.edit')}
                </IconLink>
              ) : null}
              {canWrite && signed ? <UnsignButton patientId={patient.id} id={record.id} /> : null}
              {canWrite && !signed && !signing ? (
                <button type="button" className="btn btn-primary" onClick={() => setSigning(true)} data-testid="sign">
                  <PenLine size={16} aria-hidden="true" className="me-2" />
                  {t('sign.action')}
                </button>
              ) : null}
            </div>
          </div>
          <div className={`alert mb-0 py-2 small ${signed ? 'alert-success' : 'alert-secondary'}`} role="status">
            {t(signed ? 'view.signedNotice' : record.revokedAt ? 'view.revokedNotice' : 'view.unsignedNotice')}
          </div>
          <dl className="clinical-facts mb-0">
            <Fact label={t('fields.title')} wide testId="authorization-title">
              {standing ? standing.signedText.slice(0, standing.signedText.indexOf('\n\n')) : record.title}
            </Fact>
            <Fact label={t('fields.date')}>{date(record.date)}</Fact>
            <Fact label={t('fields.professional')}>{record.professionalName}</Fact>
            <Fact label={t('fields.treatment')} wide testId="authorization-treatment">
              {record.treatment}
            </Fact>
            <Fact label={t('view.template')} wide>
              {record.templateTitle}
            </Fact>
          </dl>
          <div>
            <h2 className="h6">{standing ? t('signature.signedText') : t('view.text')}</h2>
            <pre className="authorization-text" data-testid="authorization-body">
              {text}
            </pre>
          </div>
          <RecordStampsLine record={record} />
        </div>
      </section>
      {signing && !signed ? <SignPanel patient={patient} record={record} onDone={() => setSigning(false)} /> : null}
      <SigningRequestCard
        target={{ kind: 'authorization', patientId: patient.id, id: record.id }}
        canWrite={canWrite}
        open={!signed}
        onSigned={() => void queryClient.invalidateQueries({ queryKey: authorizationKey(patient.id, record.id) })}
      />
      {standing ? (
        <section className="card mb-0" data-testid="signature-card">
          <div className="card-body d-flex flex-column gap-3">
            <h2 className="h5 mb-0">{t('signature.title')}</h2>
            <SignatureFacts signature={standing} />
            <p className="small text-body-secondary mb-0">{t('signature.hashHint')}</p>
            <VerifyButton patientId={patient.id} id={record.id} />
          </div>
        </section>
      ) : null}
      {revoked.length > 0 ? (
        <section className="card mb-0" data-testid="signature-history">
          <div className="card-body d-flex flex-column gap-3">
            <h2 className="h5 mb-0">{t('signature.history')}</h2>
            {revoked.map((signature) => (
              <div
                key={signature.id}
                className="border rounded p-3 d-flex flex-column gap-2"
                data-testid="revoked-signature"
              >
                <div className="d-flex flex-wrap gap-2 align-items-center">
                  <span className="badge text-bg-danger">{t('signature.revoked')}</span>
                  <span className="small text-body-secondary">
                    {t('signature.revokedAt', {
                      when: dateTime(signature.revokedAt ?? ''),
                      who: signature.revokedByName ?? '—',
                    })}
                  </span>
                </div>
                <div className="small" data-testid="revoke-reason">
                  {t('signature.reason', { reason: signature.revokeReason ?? '' })}
                </div>
                <SignatureFacts signature={signature} />
                <details>
                  <summary className="small">{t('signature.signedText')}</summary>
                  <pre className="authorization-text mt-2">{signature.signedText}</pre>
                </details>
              </div>
            ))}
            {standing ? null : <VerifyButton patientId={patient.id} id={record.id} />}
          </div>
        </section>
      ) : null}
    </>
  );
}
