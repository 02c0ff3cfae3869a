import type { SigningRequest } from '@odontia/shared/schemas/signing-requests';
import { Ban, RotateCw, Send } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { BusyButton } from '../../components/busy-button';
import { toastApiError, toastSuccess } from '../../lib/api-toast';
import { useInstantFormat } from '../../session/clinic-time';
import { type SigningTarget, useSigningAction, useSigningRequest } from './api';

/**
 * "Enviar para firmar" in a consent's or a budget's view (issue 37): the newest request's state
 * ("Enviado para firmar el … a …", signed, expired, cancelled) and, for who signs at the chair,
 * send, resend and cancel. When the request turns signed, `onSigned` refreshes the document.
 */
export function SigningRequestCard({
  target,
  canWrite,
  open,
  onSigned,
}: {
  target: SigningTarget;
  canWrite: boolean;
  /** The document can still be signed (unsigned consent, issued budget without an answer). */
  open: boolean;
  onSigned: () => void;
}) {
  const { t } = useTranslation('signing');
  const instant = useInstantFormat();
  const query = useSigningRequest(target);
  const action = useSigningAction(target);
  const request = query.data ?? null;
  const status = request?.status ?? null;
  const signedRef = useRef(onSigned);
  signedRef.current = onSigned;
  const previous = useRef(status);
  useEffect(() => {
    if (previous.current === 'pending' && status === 'signed') signedRef.current();
    previous.current = status;
  }, [status]);

  if (!request && !open) return null;
  const run = async (name: 'send' | 'resend' | 'cancel') => {
    try {
      const answer = await action.mutateAsync(name);
      if (answer.code) toastSuccess(answer.code);
    } catch (error) {
      toastApiError(error);
    }
  };
  return (
    <section className="card mb-0" data-testid="signing-request" data-status={status ?? 'none'}>
      <div className="card-body d-flex flex-column gap-2">
        <h2 className="h6 mb-0">{t('title')}</h2>
        {request ? <RequestLine request={request} instant={instant} /> : null}
        {!request ? <p className="mb-0 text-body-secondary">{t('none')}</p> : null}
        {canWrite && open ? (
          <div className="d-flex flex-wrap gap-2">
            {actionsFor(status).map(({ name, icon, tone }) => (
              <BusyButton
                key={name}
                className={`btn btn-outline-${tone}`}
                icon={icon}
                busy={action.isPending && action.variables === name}
                onClick={() => void run(name)}
                testId={`signing-${name}`}
              >
                {t(name)}
              </BusyButton>
            ))}
          </div>
        ) : null}
      </div>
    </section>
  );
}

/** Send when none is pending; resend while pending or expired; cancel while pending. */
function actionsFor(status: SigningRequest['status'] | null) {
  const send = { name: 'send', icon: Send, tone: 'primary' } as const;
  const resend = { name: 'resend', icon: RotateCw, tone: 'primary' } as const;
  const cancel = { name: 'cancel', icon: Ban, tone: 'danger' } as const;
  if (status === 'pending') return [resend, cancel];
  if (status === 'expired') return [resend];
  return [send];
}

function RequestLine({ request, instant }: { request: SigningRequest; instant: (value: string) => string }) {
  const { t } = useTranslation('signing');
  const tone = {
    pending: 'text-bg-warning',
    signed: 'text-bg-success',
    expired: 'text-bg-secondary',
    cancelled: 'text-bg-secondary',
  }[request.status];
  return (
    <div className="d-flex flex-column gap-1" role="status" data-testid="signing-request-line">
      <div>
        <span className={`badge ${tone} me-2`} data-testid="signing-status">
          {t(`status.${request.status}`)}
        </span>
        {t('sentAt', { when: instant(request.sentAt), to: request.sentTo })}
      </div>
      {request.status === 'signed' && request.signedAt ? (
        <div className="small" data-testid="signing-signed-at">
          {t('signedAt', { when: instant(request.signedAt), ip: request.signerIp ?? '—' })}
        </div>
      ) : null}
      {request.status === 'pending' ? (
        <div className="small text-body-secondary">{t('expiresAt', { when: instant(request.expiresAt) })}</div>
      ) : null}
    </div>
  );
}
