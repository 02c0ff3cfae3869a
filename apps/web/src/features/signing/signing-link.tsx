import type { SigningLink } from '@odontia/shared/schemas/signing-requests';
import { CircleAlert, CircleCheck, PenLine } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BusyButton } from '../../components/busy-button';
import { fieldCodeText } from '../../components/form-field';
import { isApiError } from '../../lib/http';
import { ClinicBrandScope, useLinkRead } from '../appointment-links/appointment-link';
import { AuthResult, LinkPageStatus } from '../auth/auth-parts';
import { signingLinkApi } from './api';
import { missingSignerFields, SignerFields, useSigner } from './signer-fields';
import '../authorizations/authorizations.css';

type Closed = 'used' | 'expired' | 'cancelled' | 'signed' | 'answered' | 'voided';
type State =
  | { step: 'loading' }
  | { step: 'invalid' }
  | { step: 'problem' }
  | { step: 'closed'; why: Closed }
  | { step: 'ready'; link: SigningLink }
  | { step: 'done'; link: SigningLink };

const closedReasons: readonly string[] = ['used', 'expired', 'cancelled', 'signed', 'answered', 'voided'];
const isClosed = (value: unknown): value is Closed => closedReasons.includes(value as string);

/** Why a link does not sign: its own state (used, expired, cancelled) or its document's (signed, answered, voided). */
function closedOf(error: unknown): Closed | null {
  if (!isApiError(error)) return null;
  if (error.code !== 'signing_link_stale' && error.code !== 'signing_document_closed') return null;
  const why = error.details?.why;
  return isClosed(why) ? why : 'voided';
}

/**
 * `/sign/:token` (issue 37): what the mailed link opens on the patient's phone, without signing in,
 * in the language it was sent in. The clinic, the text a signature seals (as the chair shows it),
 * the signer's name and ID number, the chair's signature pad and "Firmar".
 */
export function SigningLinkScreen({ token }: { token: string }) {
  const { t } = useTranslation(['signing', 'authorizations']);
  const [state, setState] = useState<State>({ step: 'loading' });
  const signer = useSigner();
  const { pad, name, idNumber, errors, setName, setErrors } = signer;
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const [changed, setChanged] = useState(false);

  useLinkRead(token, signingLinkApi.show, {
    read: (link) => {
      if (link.status === 'pending') {
        setName(link.patientName);
        setState({ step: 'ready', link });
      } else setState({ step: 'closed', why: link.status === 'signed' ? 'used' : link.status });
    },
    failed: (error) => {
      const why = closedOf(error);
      if (why) setState({ step: 'closed', why });
      else setState({ step: isApiError(error) && error.status < 500 ? 'invalid' : 'problem' });
    },
  });

  if (state.step === 'loading' || state.step === 'invalid' || state.step === 'problem') {
    return (
      <LinkPageStatus
        step={state.step}
        testId="signing-link"
        says={(step) => ({ title: t(`link.${step}.title`), text: t(`link.${step}.text`) })}
      />
    );
  }
  if (state.step === 'closed') {
    return (
      <AuthResult testId="signing-link-closed" tone="danger" icon={CircleAlert} title={t(`link.closed.${state.why}`)}>
        <p className="auth-subtitle">
          {t(state.why === 'signed' || state.why === 'answered' ? 'link.closed.nothingToDo' : 'link.closed.text')}
        </p>
      </AuthResult>
    );
  }
  if (state.step === 'done') {
    return (
      <ClinicBrandScope brand={state.link.clinicBrand} name={state.link.clinicName}>
        <AuthResult testId="signing-link-done" tone="success" icon={CircleCheck} title={t('link.done.title')}>
          <p className="auth-subtitle">{t('link.done.text', { clinic: state.link.clinicName })}</p>
        </AuthResult>
      </ClinicBrandScope>
    );
  }
  const { link } = state;
  const cut = link.kind === 'authorization' ? link.text.indexOf('\n\n') : -1;
  const title = cut >= 0 ? link.text.slice(0, cut) : null;
  const body = cut >= 0 ? link.text.slice(cut + 2) : link.text;

  // The chair's fields and pad, in the consent's words.
  const signerFields = {
    ...signer.fields,
    id: 'remote-sign',
    labels: { name: t('authorizations:fields.signerName'), idNumber: t('authorizations:fields.signerIdNumber') },
    padError: errors.signature === 'required' ? t('authorizations:sign.empty') : fieldCodeText(errors.signature),
    testIds: { name: 'signer-name', idNumber: 'signer-id', signatureError: 'signature-error' },
  };

  const submit = async () => {
    const png = pad.current?.toPng() ?? null;
    const next = missingSignerFields(name, idNumber, png);
    setErrors(next);
    if (!png || Object.keys(next).length > 0) return;
    setBusy(true);
    setFailed(false);
    try {
      const answer = await signingLinkApi.sign(token, {
        signerName: name,
        signerIdNumber: idNumber,
        signature: png,
        text: link.text,
      });
      setState({ step: 'done', link: answer.data });
    } catch (error) {
      const why = closedOf(error);
      if (why) setState({ step: 'closed', why });
      else if (isApiError(error) && error.code === 'signing_document_changed') {
        // The clinic edited it meanwhile: the new text, to read before signing again.
        const fresh = await signingLinkApi.show(token).catch(() => null);
        if (fresh) setState({ step: 'ready', link: fresh.data });
        setChanged(true);
      } else if (isApiError(error) && error.status === 400) {
        const fields = (error.details?.fields ?? []) as { path: string; code: string }[];
        setErrors(Object.fromEntries(fields.map((field) => [field.path, field.code])));
      } else setFailed(true);
    } finally {
      setBusy(false);
    }
  };

  return (
    <ClinicBrandScope brand={link.clinicBrand} name={link.clinicName}>
      <div className="d-flex flex-column gap-3" data-testid="signing-link-ready">
        <div>
          <p className="text-body-secondary text-center mb-1" data-testid="signing-clinic">
            {link.clinicName}
          </p>
          <h1 className="auth-title">{t(`link.heading.${link.kind}`)}</h1>
          <p className="auth-subtitle mb-0">{t('link.intro')}</p>
        </div>
        <article className="signing-document" data-testid="signing-text">
          {title ? <h2 className="h6">{title}</h2> : null}
          <pre className="authorization-text mb-0">{body}</pre>
        </article>
        <fieldset disabled={busy} className="d-flex flex-column gap-3">
          <legend className="h6 mb-0">{t('link.signHere')}</legend>
          <SignerFields {...signerFields} />
          {failed ? (
            <div className="alert alert-danger mb-0" role="alert">
              {t('link.problem.text')}
            </div>
          ) : null}
          {changed ? (
            <div className="alert alert-warning mb-0" role="alert" data-testid="signing-changed">
              {t('messages:signing_document_changed')}
            </div>
          ) : null}
          <BusyButton
            className="btn btn-primary btn-lg w-100"
            icon={PenLine}
            busy={busy}
            onClick={() => void submit()}
            testId="signing-submit"
          >
            {t('link.sign')}
          </BusyButton>
        </fieldset>
      </div>
    </ClinicBrandScope>
  );
}
