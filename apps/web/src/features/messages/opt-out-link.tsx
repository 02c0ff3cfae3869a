import type { MessageChannel } from '@odontia/shared/schemas/messages';
import { BellOff, CircleCheck } from 'lucide-react';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Spinner } from '../../components/spinner';
import { isApiError } from '../../lib/http';
import { ClinicBrandScope, isDeadLink, useLinkRead } from '../appointment-links/appointment-link';
import { AuthResult, LinkPageStatus } from '../auth/auth-parts';
import { optOutLinkApi } from './api';

interface OptOut {
  clinicName: string;
  channel: MessageChannel;
  language: string;
  optedOut: boolean;
}

type State =
  | { step: 'loading' }
  | { step: 'invalid' }
  | { step: 'problem' }
  | { step: 'shown'; link: OptOut; busy: boolean; failed: boolean };

/**
 * `/messages/opt-out/:token` (issue 38): the "no more e-mails" link at the foot of a reminder,
 * without signing in, in the patient's language (usted). It says what it is about and asks for
 * one press; then it confirms, and a link already used says the patient is already out.
 */
export function OptOutLinkScreen({ token }: { token: string }) {
  const { t } = useTranslation('appointmentLinks');
  const [state, setState] = useState<State>({ step: 'loading' });
  // A double click (or a second tap before the page redraws) sends one request.
  const sending = useRef(false);
  useLinkRead(token, optOutLinkApi.show, {
    read: (link) => setState({ step: 'shown', link, busy: false, failed: false }),
    failed: (error) => setState({ step: isDeadLink(error) ? 'invalid' : 'problem' }),
  });

  const confirm = async (link: OptOut) => {
    if (sending.current) return;
    sending.current = true;
    setState({ step: 'shown', link, busy: true, failed: false });
    try {
      const answered = await optOutLinkApi.confirm(token);
      setState({ step: 'shown', link: answered.data, busy: false, failed: false });
    } catch (error) {
      if (isApiError(error) && error.status === 404) setState({ step: 'invalid' });
      else setState({ step: 'shown', link, busy: false, failed: true });
    } finally {
      sending.current = false;
    }
  };

  if (state.step !== 'shown') {
    return (
      <LinkPageStatus
        step={state.step}
        testId="opt-out-link"
        says={(step) => ({ title: t(`optOut.${step}.title`), text: t(`optOut.${step}.text`) })}
      />
    );
  }
  const { link, busy, failed } = state;
  const channel = t(`optOut.channels.${link.channel}`);
  if (link.optedOut) {
    return (
      <ClinicBrandScope brand={null} name={link.clinicName}>
        <AuthResult testId="opt-out-link-done" tone="success" icon={CircleCheck} title={t('optOut.done.title')}>
          <p className="auth-subtitle">{t('optOut.done.text', { clinic: link.clinicName, channel })}</p>
          <p className="mb-0">{t('optOut.done.change', { clinic: link.clinicName })}</p>
        </AuthResult>
      </ClinicBrandScope>
    );
  }
  return (
    <ClinicBrandScope brand={null} name={link.clinicName}>
      <div data-testid="opt-out-link-open">
        <h1 className="auth-title">{t('optOut.open.title', { clinic: link.clinicName })}</h1>
        <p className="auth-subtitle">{t('optOut.open.text', { clinic: link.clinicName, channel })}</p>
        <p className="small text-body-secondary text-center">{t('optOut.open.still')}</p>
        {failed ? (
          <div className="alert alert-danger" role="alert">
            {t('optOut.problem.text')}
          </div>
        ) : null}
        <button
          type="button"
          className="btn btn-lg btn-primary w-100"
          disabled={busy}
          aria-busy={busy}
          onClick={() => void confirm(link)}
          data-testid="opt-out-confirm"
        >
          {busy ? <Spinner size={4} /> : <BellOff size={20} aria-hidden="true" className="me-2" />}
          {t(`optOut.open.action.${link.channel}`)}
        </button>
      </div>
    </ClinicBrandScope>
  );
}
