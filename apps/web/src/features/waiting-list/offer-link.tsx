import type { WaitingListOfferLink } from '@odontia/shared/schemas/waiting-list';
import { CalendarCheck, CircleAlert, CircleCheck, Clock } from 'lucide-react';
import { type ReactNode, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Spinner } from '../../components/spinner';
import { isApiError } from '../../lib/http';
import { AppointmentSummary, ClinicBrandScope, isDeadLink, useLinkRead } from '../appointment-links/appointment-link';
import { AuthResult, LinkPageStatus } from '../auth/auth-parts';
import { offerLinkApi } from './offer-api';

type State =
  | { step: 'loading' }
  | { step: 'invalid' }
  | { step: 'problem' }
  | { step: 'shown'; offer: WaitingListOfferLink; busy: boolean; failed: boolean };

/**
 * `/waiting-list/offer/:token` (issue 38): what a waiting-list offer's e-mail opens, without signing
 * in, in the patient's language. An open offer shows the freed time and one button that books it
 * (the first patient to accept gets it); an accepted, expired or gone one says so and offers nothing
 * to press.
 */
export function OfferLinkScreen({ token }: { token: string }) {
  const { t, i18n } = useTranslation('appointmentLinks');
  const [state, setState] = useState<State>({ step: 'loading' });
  // A double click (or a second tap before the page redraws) sends one request.
  const sending = useRef(false);
  useLinkRead(token, offerLinkApi.show, {
    read: (offer) => setState({ step: 'shown', offer, busy: false, failed: false }),
    failed: (error) => setState({ step: isDeadLink(error) ? 'invalid' : 'problem' }),
  });

  const accept = async (offer: WaitingListOfferLink) => {
    if (sending.current) return;
    sending.current = true;
    setState({ step: 'shown', offer, busy: true, failed: false });
    try {
      const answered = await offerLinkApi.accept(token);
      setState({ step: 'shown', offer: answered.data, busy: false, failed: false });
    } catch (error) {
      if (isApiError(error) && error.status === 404) setState({ step: 'invalid' });
      else setState({ step: 'shown', offer, busy: false, failed: true });
    } finally {
      sending.current = false;
    }
  };

  if (state.step !== 'shown') {
    return (
      <LinkPageStatus
        step={state.step}
        testId="offer-link"
        says={(step) => ({ title: t(`offer.${step}.title`), text: t(`offer.${step}.text`) })}
      />
    );
  }
  const { offer, busy, failed } = state;
  const branded = (page: ReactNode) => (
    <ClinicBrandScope brand={offer.clinicBrand} name={offer.clinicName}>
      {page}
    </ClinicBrandScope>
  );
  const callClinic = offer.clinicPhone ? <p>{t('callClinic', { phone: offer.clinicPhone })}</p> : null;
  if (offer.state === 'accepted') {
    return branded(
      <AuthResult testId="offer-link-accepted" tone="success" icon={CircleCheck} title={t('offer.accepted.title')}>
        <p className="auth-subtitle">{t('offer.accepted.text', { treatment: offer.treatmentName })}</p>
        <AppointmentSummary link={offer} last />
      </AuthResult>,
    );
  }
  if (offer.state === 'expired' || offer.state === 'gone') {
    return branded(
      <AuthResult
        testId={`offer-link-${offer.state}`}
        tone="danger"
        icon={offer.state === 'expired' ? Clock : CircleAlert}
        title={t(`offer.${offer.state}.title`)}
      >
        <p className="auth-subtitle">{t(`offer.${offer.state}.text`)}</p>
        {callClinic}
      </AuthResult>,
    );
  }
  const expires = new Intl.DateTimeFormat(i18n.language, {
    timeZone: offer.timeZone,
    dateStyle: 'medium',
    timeStyle: 'short',
  }).format(new Date(offer.expiresAt));
  return branded(
    <div data-testid="offer-link-open">
      <h1 className="auth-title">{t('offer.open.title', { name: offer.patientFirstName })}</h1>
      <p className="auth-subtitle">{t('offer.open.subtitle', { treatment: offer.treatmentName, expires })}</p>
      <AppointmentSummary link={offer} />
      {failed ? (
        <div className="alert alert-danger" role="alert">
          {t('offer.problem.text')}
        </div>
      ) : null}
      <button
        type="button"
        className="btn btn-lg btn-primary w-100"
        disabled={busy}
        aria-busy={busy}
        onClick={() => void accept(offer)}
      >
        {busy ? <Spinner size={4} /> : <CalendarCheck size={20} aria-hidden="true" className="me-2" />}
        {t('offer.open.action')}
      </button>
    </div>,
  );
}
