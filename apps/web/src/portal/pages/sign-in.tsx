import { KeyRound, LogIn } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../lib/http';
import { storeSession } from '../../session/session-store';
import { portalErrorText } from '../errors';
import { PortalLayout } from '../layout';
import { portalAccessApi } from '../public-api';
import { usePublicClinic } from '../public-clinic';
import { Link, useRouter } from '../router';
import { Busy, ErrorAlert, PortalForm } from '../ui';
import { useFormSubmit, usePress } from '../use-submit';

/** The clinic of `/p/:slug` or of `?clinic=` (the page the patient came from), for its brand. */
function useClinicOf(named: string | undefined) {
  const { query } = useRouter();
  const slug = named ?? query.get('clinic') ?? '';
  const { brand } = usePublicClinic(slug);
  return { slug, brand: slug ? brand : null };
}

/**
 * `/portal/sign-in` and a clinic's own `/p/:slug`: e-mail and password (the portal's own sign-in:
 * only the person's patient memberships); or a one-time link, asked for on the clinic's page. A
 * patient of two or more clinics chooses where to enter next (`/portal/clinics`).
 */
export function SignInPage({ slug: named }: { slug?: string }) {
  const { t } = useTranslation();
  const { navigate } = useRouter();
  const { slug, brand } = useClinicOf(named);
  const form = useFormSubmit(['email', 'password'], async ({ email, password }) => {
    const answer = await portalAccessApi.signIn({ body: { email: email.trim(), password, remember: false } });
    storeSession(answer.data, false);
    navigate(answer.data.user.clinics.length > 1 ? '/portal/clinics' : '/portal', { replace: true });
  });

  return (
    <PortalLayout brand={brand} title={t('signIn.title')}>
      <h1 className="h3 mb-3">{t('signIn.title')}</h1>
      <PortalForm
        form={form}
        testId="sign-in-form"
        fields={[
          { name: 'email', type: 'email', autoComplete: 'email', label: t('signIn.email') },
          { name: 'password', type: 'password', autoComplete: 'current-password', label: t('signIn.password') },
        ]}
        submitLabel={t('signIn.submit')}
        icon={LogIn}
      />
      <p className="mt-4">
        {slug ? <Link to={`/c/${encodeURIComponent(slug)}`}>{t('signIn.byLink')}</Link> : t('signIn.byLinkHint')}
      </p>
    </PortalLayout>
  );
}

/**
 * `/p/:slug/link/:token`: the one-time link of an invitation or of an access request, under its
 * clinic's brand. The link signs in when pressed, not on opening: a mail scanner that opens links
 * does not spend it. It enters its own clinic, whatever other clinics the person has.
 */
export function SignInLinkPage({ slug, token }: { slug: string; token: string }) {
  const { t } = useTranslation();
  const { navigate } = useRouter();
  const { brand } = usePublicClinic(slug);
  const {
    press: signIn,
    busy,
    error,
  } = usePress(async () => {
    const answer = await portalAccessApi.signInWithLink({ params: { token } });
    storeSession(answer.data, false);
    navigate('/portal', { replace: true });
  });

  const dead = isApiError(error) && error.status < 500 && error.code !== 'too_many_requests';
  return (
    <PortalLayout brand={brand} title={t('signInLink.title')}>
      <h1 className="h3 mb-3" data-testid="sign-in-link">
        {t('signInLink.title')}
      </h1>
      {dead ? (
        <ErrorAlert>{t('signInLink.invalid')}</ErrorAlert>
      ) : (
        <>
          <p>{t('signInLink.text')}</p>
          {error ? <ErrorAlert>{portalErrorText(error)}</ErrorAlert> : null}
          <button type="button" className="btn btn-primary btn-lg w-100" disabled={busy} onClick={() => void signIn()}>
            {busy ? <Busy className="me-2" /> : <KeyRound size={20} aria-hidden="true" className="me-2" />}
            {t('signInLink.submit')}
          </button>
        </>
      )}
    </PortalLayout>
  );
}
