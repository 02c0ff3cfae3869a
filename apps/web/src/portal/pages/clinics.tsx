import type { PortalClinicChoice } from '@odontia/shared/schemas/portal';
import { Building2, ChevronRight } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { logoUrlOf } from '../../lib/brand-style';
import { sessionApi, storeSession } from '../../session/session-store';
import { portalErrorText } from '../errors';
import { PortalLayout } from '../layout';
import { usePortalMe } from '../portal-session';
import { useRouter } from '../router';
import { SignedInActions } from '../signed-in';
import { Busy, ErrorAlert, Placeholder } from '../ui';
import { usePress } from '../use-submit';

/**
 * `/portal/clinics` (issue 37): "¿En qué clínica quiere entrar?" — the clinics whose portal the
 * patient's e-mail enters, by name with their logos, after a sign-in with two or more and from the
 * band's "Cambiar de clínica". Choosing another clinic moves the session there (`/auth/switch`: a
 * new customer session as that clinic's patient, this one ended); the current one just goes back.
 * With one clinic only, the page is not needed: straight to the portal.
 */
export function ClinicChoicePage() {
  const { t } = useTranslation();
  const { navigate } = useRouter();
  const { me, error, signOut } = usePortalMe();
  const [chosen, setChosen] = useState<string | null>(null);
  const {
    press: enter,
    busy,
    error: failure,
  } = usePress(async (clinic: PortalClinicChoice) => {
    setChosen(clinic.id);
    if (!clinic.current) {
      const answer = await sessionApi.switchClinic({ body: { accountId: clinic.id } });
      storeSession(answer.data, answer.data.remember);
    }
    navigate('/portal', { replace: true });
  });
  const single = me !== null && me.clinics.length < 2;
  useEffect(() => {
    if (single) navigate('/portal', { replace: true });
  }, [single, navigate]);

  return (
    <PortalLayout
      brand={null}
      title={t('clinics.title')}
      actions={<SignedInActions me={me} signOut={signOut} offerSwitch={false} />}
    >
      <h1 className="h3 mb-3">{t('clinics.title')}</h1>
      {error ? (
        <ErrorAlert>{portalErrorText(error)}</ErrorAlert>
      ) : !me || single ? (
        <Placeholder testId="clinics-loading" minHeight="16rem" />
      ) : (
        <div data-testid="clinic-choice">
          <p>{t('clinics.text')}</p>
          {failure ? <ErrorAlert>{portalErrorText(failure)}</ErrorAlert> : null}
          <ul className="portal-choices">
            {me.clinics.map((clinic) => {
              const logo = logoUrlOf(clinic.logoPath);
              return (
                <li key={clinic.id}>
                  <button
                    type="button"
                    className="btn btn-outline-primary portal-choice portal-clinic-choice"
                    disabled={busy}
                    aria-current={clinic.current ? 'true' : undefined}
                    onClick={() => void enter(clinic)}
                    data-testid="clinic-choice-option"
                  >
                    {logo ? (
                      <img src={logo} alt="" className="portal-logo" width={40} height={40} />
                    ) : (
                      <Building2 size={28} aria-hidden="true" className="portal-clinic-choice-icon" />
                    )}
                    <span className="portal-grow text-start">{clinic.name}</span>
                    {clinic.current ? <span className="badge text-bg-secondary">{t('clinics.current')}</span> : null}
                    {busy && chosen === clinic.id ? <Busy /> : <ChevronRight size={20} aria-hidden="true" />}
                  </button>
                </li>
              );
            })}
          </ul>
        </div>
      )}
    </PortalLayout>
  );
}
