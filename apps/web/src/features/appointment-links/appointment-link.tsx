import { languages } from '@odontia/shared/enums';
import type { AppointmentLink } from '@odontia/shared/schemas/appointments';
import type { ClinicBrand } from '@odontia/shared/schemas/clinic-brand';
import { CalendarCheck, CalendarX, CircleAlert, CircleCheck } from 'lucide-react';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Spinner } from '../../components/spinner';
import { brandStyle, logoUrlOf } from '../../lib/brand-style';
import { isApiError } from '../../lib/http';
import { languageStorageKey } from '../../lib/i18n';
import { AuthResult, LinkPageStatus } from '../auth/auth-parts';
import { appointmentLinksApi } from './api';

type Purpose = AppointmentLink['purpose'];
type State =
  | { step: 'loading' }
  | { step: 'invalid' }
  | { step: 'problem' }
  | { step: 'ready'; link: AppointmentLink; busy: boolean; failed: boolean }
  | { step: 'done'; link: AppointmentLink }
  | { step: 'stale'; link: AppointmentLink | null; why: NonNullable<AppointmentLink['stale']> };

const staleReasons = ['rescheduled', 'cancelled', 'completed', 'past', 'answered'] as const;
const isStaleReason = (value: unknown): value is NonNullable<AppointmentLink['stale']> =>
  (staleReasons as readonly unknown[]).includes(value);

/**
 * The page speaks the patient's language (the link's), without making it this browser's saved
 * choice: a front desk that opens a patient's link keeps its own language afterwards.
 */
export async function showInLanguage(i18n: { changeLanguage(language: string): Promise<unknown> }, language: string) {
  let saved: string | null = null;
  try {
    saved = localStorage.getItem(languageStorageKey);
  } catch {
    // Storage blocked: nothing to keep.
  }
  await i18n.changeLanguage(language);
  try {
    if (saved === null) localStorage.removeItem(languageStorageKey);
    else localStorage.setItem(languageStorageKey, saved);
  } catch {
    // As above.
  }
}

/** A dead link: cut, unknown or used up (400, 404, 414), as opposed to a problem reaching the clinic. */
export const isDeadLink = (error: unknown) =>
  isApiError(error) && (error.status === 400 || error.status === 404 || error.status === 414);

/**
 * What a patient's e-mailed link (a reminder's, a waiting-list offer's, a request to sign) does
 * first: it reads the link and shows the page in the patient's language. `read` answers the link,
 * `failed` what a refusal means; both may change between renders (only the token reads again).
 */
export function useLinkRead<Link extends { language: string }>(
  token: string,
  read: (token: string) => Promise<{ data: Link }>,
  handlers: { read: (link: Link) => void; failed: (error: unknown) => void },
) {
  const { i18n } = useTranslation();
  const latest = useRef(handlers);
  latest.current = handlers;
  useEffect(() => {
    let current = true;
    read(token).then(
      ({ data }) => {
        if (!current) return;
        if ((languages as readonly string[]).includes(data.language) && i18n.language !== data.language) {
          void showInLanguage(i18n, data.language);
        }
        latest.current.read(data);
      },
      (error: unknown) => {
        if (current) latest.current.failed(error);
      },
    );
    return () => {
      current = false;
    };
  }, [token, read, i18n]);
}

/**
 * A patient's link page in the clinic's brand (issue 37): its colour on the buttons and links (in
 * shades the API chose to keep 4.5:1) and its logo above, as in the portal and the e-mails.
 */
export function ClinicBrandScope({
  brand,
  name,
  children,
}: {
  brand: ClinicBrand | null;
  name: string;
  children: ReactNode;
}) {
  const style = brandStyle(brand?.palette);
  const logo = logoUrlOf(brand?.logoPath ?? null);
  return (
    <div className={style ? 'brand-scope' : undefined} style={style} data-testid="link-clinic-brand">
      {logo ? (
        <img src={logo} alt={name} className="link-clinic-logo d-block mx-auto mb-3" width={56} height={56} />
      ) : null}
      {children}
    </div>
  );
}

/** What the summary shows: an appointment's or a waiting-list offer's (issue 38) time. */
type Summarised = Pick<
  AppointmentLink,
  'clinicName' | 'clinicAddress' | 'clinicPhone' | 'startsAt' | 'timeZone' | 'professionalName'
>;

/** The appointment as the patient recognises it: clinic, date and time in the clinic's zone, professional. */
export function AppointmentSummary({ link, last = false }: { link: Summarised; last?: boolean }) {
  const { t, i18n } = useTranslation('appointmentLinks');
  const when = new Intl.DateTimeFormat(i18n.language, {
    timeZone: link.timeZone,
    dateStyle: 'full',
    timeStyle: 'short',
  }).format(new Date(link.startsAt));
  return (
    <dl
      className={`appointment-link-summary text-start ${last ? 'mb-0' : 'mb-4'}`}
      data-testid="appointment-link-summary"
    >
      <dt>{t('clinic')}</dt>
      <dd>
        {link.clinicName}
        {link.clinicAddress ? <span className="d-block text-body-secondary">{link.clinicAddress}</span> : null}
        {link.clinicPhone ? <span className="d-block text-body-secondary">{link.clinicPhone}</span> : null}
      </dd>
      <dt>{t('when')}</dt>
      <dd data-testid="appointment-link-when">{when}</dd>
      <dt>{t('professional')}</dt>
      <dd>{link.professionalName}</dd>
    </dl>
  );
}

/**
 * `/appointment/confirm/:token` and `/appointment/cancel/:token` (issue 16): what the reminder's
 * links open, without signing in. The page reads the link first (in the patient's language), shows
 * the appointment and one button; a link that no longer acts says why and offers nothing to press.
 */
export function AppointmentLinkScreen({ token, purpose }: { token: string; purpose: Purpose }) {
  const { t } = useTranslation('appointmentLinks');
  const [state, setState] = useState<State>({ step: 'loading' });
  useLinkRead(token, appointmentLinksApi.show, {
    read: (link) =>
      setState(
        link.stale ? { step: 'stale', link, why: link.stale } : { step: 'ready', link, busy: false, failed: false },
      ),
    failed: (error) => setState({ step: isDeadLink(error) ? 'invalid' : 'problem' }),
  });

  const answer = async (link: AppointmentLink) => {
    setState({ step: 'ready', link, busy: true, failed: false });
    try {
      const answered = await appointmentLinksApi.answer(token);
      setState({ step: 'done', link: answered.data });
    } catch (error) {
      if (isApiError(error) && error.code === 'appointment_link_stale' && isStaleReason(error.details?.why)) {
        setState({ step: 'stale', link, why: error.details.why });
      } else if (isApiError(error) && error.status === 404) {
        setState({ step: 'invalid' });
      } else {
        setState({ step: 'ready', link, busy: false, failed: true });
      }
    }
  };

  if (state.step === 'loading' || state.step === 'invalid' || state.step === 'problem') {
    return (
      <LinkPageStatus
        step={state.step}
        testId="appointment-link"
        says={(step) => ({ title: t(`${step}.title`), text: t(`${step}.text`) })}
      />
    );
  }
  const link = state.link;
  const branded = (page: ReactNode) => (
    <ClinicBrandScope brand={link?.clinicBrand ?? null} name={link?.clinicName ?? ''}>
      {page}
    </ClinicBrandScope>
  );
  if (state.step === 'stale') {
    return branded(
      <AuthResult
        testId="appointment-link-stale"
        tone="danger"
        icon={CircleAlert}
        title={t(`stale.${state.why}.title`)}
      >
        <p className="auth-subtitle">{t(`stale.${state.why}.text`)}</p>
        {state.link ? <AppointmentSummary link={state.link} last={!state.link.clinicPhone} /> : null}
        {state.link?.clinicPhone ? <p>{t('callClinic', { phone: state.link.clinicPhone })}</p> : null}
      </AuthResult>,
    );
  }
  if (state.step === 'done') {
    return branded(
      <AuthResult
        testId={`appointment-link-${purpose}ed`}
        tone="success"
        icon={CircleCheck}
        title={t(`${purpose}.doneTitle`)}
      >
        <p className="auth-subtitle">{t(`${purpose}.doneText`)}</p>
        <AppointmentSummary link={state.link} last />
      </AuthResult>,
    );
  }
  const { busy, failed } = state;
  const Icon = purpose === 'confirm' ? CalendarCheck : CalendarX;
  return branded(
    <div data-testid="appointment-link-ready">
      <h1 className="auth-title">{t(`${purpose}.title`, { name: state.link.patientFirstName })}</h1>
      <p className="auth-subtitle">{t(`${purpose}.subtitle`)}</p>
      <AppointmentSummary link={state.link} />
      {failed ? (
        <div className="alert alert-danger" role="alert">
          {t('problem.text')}
        </div>
      ) : null}
      <button
        type="button"
        className={`btn btn-lg w-100 ${purpose === 'confirm' ? 'btn-primary' : 'btn-danger'}`}
        disabled={busy}
        onClick={() => void answer(state.link)}
      >
        {busy ? <Spinner size={4} /> : <Icon size={20} aria-hidden="true" className="me-2" />}
        {t(`${purpose}.action`)}
      </button>
    </div>,
  );
}
