import type { PortalAppointment, PortalBalance, PortalDocument } from '@odontia/shared/schemas/portal';
import { CalendarCheck, CalendarClock, CalendarPlus, CalendarX, Download, KeyRound } from 'lucide-react';
import { type ReactNode, useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { saveFile } from '../../lib/save-file';
import { portalErrorText } from '../errors';
import { formatDay, formatMoney, formatWhen } from '../format';
import { PortalLayout } from '../layout';
import { downloadDocumentPdf, portalBookingApi, portalDataApi, usePortalMe } from '../portal-session';
import { Link, useRouter } from '../router';
import { SignedInActions } from '../signed-in';
import { Busy, ErrorAlert, Loaded, Placeholder, PortalSection } from '../ui';
import { RecordCopySection } from './record-copy';

type Appointments = { upcoming: PortalAppointment[]; past: PortalAppointment[] };

/** What the page says after a booking, a change or a cancellation (`?done=<code>`, the API's success code). */
const doneCodes = new Set([
  'appointment_booked_online',
  'appointment_confirmed',
  'appointment_cancelled',
  'appointment_rescheduled',
]);

/**
 * Upcoming: what still stands; an appointment cancelled or moved (its new one is listed) goes with
 * the past ones, with its state.
 */
function splitAppointments({ upcoming, past }: Appointments): Appointments {
  const standing = upcoming.filter((appointment) => appointment.status === 'scheduled');
  const gone = upcoming.filter((appointment) => appointment.status !== 'scheduled');
  return { upcoming: standing, past: [...gone, ...past] };
}

/** One call's answer, its failure, and a way to ask again. */
function useLoad<T>(load: () => Promise<T>, enabled: boolean) {
  const [state, setState] = useState<{ data: T | null; error: unknown }>({ data: null, error: null });
  const [round, setRound] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new `round` is what asks for the data again
  useEffect(() => {
    if (!enabled) return;
    let current = true;
    load().then(
      (data) => current && setState({ data, error: null }),
      (error: unknown) => current && setState({ data: null, error }),
    );
    return () => {
      current = false;
    };
  }, [load, enabled, round]);
  return { ...state, reload: useCallback(() => setRound((value) => value + 1), []) };
}

const loadAppointments = async () => splitAppointments((await portalDataApi.appointments()).data);
const loadDocuments = async () => (await portalDataApi.documents()).data;
const loadBalance = async () => (await portalDataApi.balance()).data;

/**
 * The reschedule's address: it starts at the day with the same treatment and professional chosen
 * (the booking's steps drop a choice the clinic no longer offers online, and Back changes them).
 */
function rescheduleLink(appointment: PortalAppointment): string {
  const query = new URLSearchParams({ reschedule: appointment.id });
  if (appointment.treatmentId) query.set('treatment', appointment.treatmentId);
  query.set('professional', appointment.professionalId);
  return `/portal/book?${query.toString()}`;
}

/** One of an appointment's buttons: its icon, or the spinner while its request runs. */
function CardButton({
  className,
  icon: Icon,
  busy = false,
  disabled,
  onClick,
  children,
}: {
  className: string;
  icon?: typeof CalendarCheck;
  busy?: boolean;
  disabled: boolean;
  onClick?: () => void;
  children: ReactNode;
}) {
  return (
    <button type="button" className={`btn ${className}`} disabled={disabled} onClick={onClick}>
      {busy ? <Busy className="me-2" /> : Icon ? <Icon size={18} aria-hidden="true" className="me-1" /> : null}
      {children}
    </button>
  );
}

/** An upcoming appointment with what the patient may do with it, or why not. */
function AppointmentCard({
  appointment,
  timeZone,
  onChanged,
}: {
  appointment: PortalAppointment;
  timeZone: string;
  onChanged: (code: string) => void;
}) {
  const { t, i18n } = useTranslation();
  const sending = useRef(false);
  const [busy, setBusy] = useState<'confirm' | 'cancel' | null>(null);
  const [asking, setAsking] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const act = async (action: 'confirm' | 'cancel') => {
    if (sending.current) return;
    sending.current = true;
    setBusy(action);
    setError(null);
    try {
      const answer = await portalBookingApi[action]({ params: { id: appointment.id } });
      onChanged(answer.code ?? `appointment_${action}ed`);
    } catch (failure) {
      setError(failure);
    } finally {
      sending.current = false;
      setBusy(null);
      setAsking(false);
    }
  };
  const reason = t('home.appointments.closed');
  const rescheduleTo = rescheduleLink(appointment);
  return (
    <li className="card portal-appointment mb-3" data-testid="portal-appointment">
      <div className="card-body">
        <p className="fw-semibold mb-1">{formatWhen(appointment.startsAt, timeZone, i18n.language)}</p>
        <p className="mb-2 text-body-secondary">
          {[appointment.treatmentName ?? appointment.reason, appointment.professionalName].filter(Boolean).join(' · ')}
        </p>
        {error ? <ErrorAlert>{portalErrorText(error)}</ErrorAlert> : null}
        {asking ? (
          <div>
            <p className="mb-2">{t('home.appointments.cancelQuestion')}</p>
            <div className="portal-appointment-actions">
              <CardButton
                className="btn-danger"
                busy={busy === 'cancel'}
                disabled={busy !== null}
                onClick={() => void act('cancel')}
              >
                {t('home.appointments.cancelYes')}
              </CardButton>
              <button type="button" className="btn btn-outline-secondary" onClick={() => setAsking(false)}>
                {t('home.appointments.cancelNo')}
              </button>
            </div>
          </div>
        ) : (
          <div className="portal-appointment-actions">
            {appointment.confirmedAt ? (
              // Already confirmed: its state, nothing to press.
              <span
                className="portal-appointment-state text-success-emphasis fw-semibold"
                data-testid="portal-appointment-confirmed"
              >
                <CalendarCheck size={18} aria-hidden="true" className="me-1" />
                {t('home.appointments.confirmed')}
              </span>
            ) : (
              <CardButton
                className="btn-primary"
                icon={CalendarCheck}
                busy={busy === 'confirm'}
                disabled={!appointment.canCancel || busy !== null}
                onClick={() => void act('confirm')}
              >
                {t('home.appointments.confirm')}
              </CardButton>
            )}
            {appointment.canReschedule ? (
              <Link to={rescheduleTo} className="btn btn-outline-primary">
                <CalendarClock size={18} aria-hidden="true" className="me-1" />
                {t('home.appointments.reschedule')}
              </Link>
            ) : (
              <CardButton className="btn-outline-primary" icon={CalendarClock} disabled>
                {t('home.appointments.reschedule')}
              </CardButton>
            )}
            <CardButton
              className="btn-outline-danger"
              icon={CalendarX}
              disabled={!appointment.canCancel || busy !== null}
              onClick={() => setAsking(true)}
            >
              {t('home.appointments.cancel')}
            </CardButton>
          </div>
        )}
        {!appointment.canCancel || !appointment.canReschedule ? (
          <p className="small text-body-secondary mt-2 mb-0" data-testid="portal-appointment-closed">
            {reason}
          </p>
        ) : null}
      </div>
    </li>
  );
}

/**
 * What a document is called: a sale by its type, a consent by its own title; the others (whose
 * title is a code of the staff app's) by their kind.
 */
function documentTitle(document: PortalDocument, t: (key: string) => string): string {
  if (document.kind === 'sale' && document.title) return t(`home.balance.types.${document.title}`);
  if (document.kind === 'consent' && document.title) return document.title;
  return t(`home.documents.kinds.${document.kind}`);
}

function DocumentRow({ document, currency }: { document: PortalDocument; currency: PortalBalance['currency'] | null }) {
  const { t, i18n } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const name = [documentTitle(document, t), document.number].filter(Boolean).join(' ');
  const download = async () => {
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      const { blob, fileName } = await downloadDocumentPdf({ params: { kind: document.kind, id: document.id } });
      saveFile(blob, fileName ?? `${document.kind}-${document.number ?? document.id}.pdf`);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  return (
    <li
      className="list-group-item d-flex align-items-center justify-content-between gap-2"
      data-testid="portal-document"
    >
      <div className="portal-grow">
        <span className="d-block">{name}</span>
        <span className="small text-body-secondary">
          {formatDay(document.date, i18n.language, 'short')}
          {document.amount && currency ? ` · ${formatMoney(document.amount, currency, i18n.language)}` : ''}
        </span>
        {error ? <span className="d-block small text-danger">{portalErrorText(error)}</span> : null}
      </div>
      <button type="button" className="btn btn-outline-primary btn-sm" onClick={() => void download()} disabled={busy}>
        {busy ? <Busy /> : <Download size={18} aria-hidden="true" />}
        <span className="visually-hidden">{t('home.documents.download', { name })}</span>
      </button>
    </li>
  );
}

/** `/portal`: the signed-in patient's appointments, documents and balance (issue 37). */
export function HomePage() {
  const { t, i18n } = useTranslation();
  const { query, navigate } = useRouter();
  const { me, brand, error, signOut } = usePortalMe();
  const signedIn = me !== null;
  const appointments = useLoad<Appointments>(loadAppointments, signedIn);
  const documents = useLoad(loadDocuments, signedIn);
  const balance = useLoad(loadBalance, signedIn);
  const done = query.get('done');
  const timeZone = me?.clinic.timeZone ?? 'UTC';
  const currency = balance.data?.currency ?? me?.clinic.currency ?? null;

  const changed = (code: string) => {
    navigate(`/portal?done=${code}`, { replace: true });
    appointments.reload();
  };

  return (
    <PortalLayout brand={brand} title={t('home.title')} actions={<SignedInActions me={me} signOut={signOut} />}>
      {error ? (
        <ErrorAlert>{portalErrorText(error)}</ErrorAlert>
      ) : !me ? (
        <Placeholder testId="portal-loading" minHeight="24rem" />
      ) : (
        <div data-testid="portal-home">
          <h1 className="h3 mb-3">{t('home.greeting', { name: me.patient.firstName })}</h1>
          {done && doneCodes.has(done) ? (
            <div className="alert alert-success" role="status" data-testid="portal-done">
              {t(`home.done.${done}`)}
            </div>
          ) : null}
          <Link to="/portal/book" className="btn btn-primary btn-lg w-100 mb-4" testId="portal-book">
            <CalendarPlus size={20} aria-hidden="true" className="me-2" />
            {t('home.book')}
          </Link>

          <PortalSection id="portal-upcoming" title={t('home.appointments.upcoming')}>
            <Loaded state={appointments} minHeight="8rem">
              {({ upcoming }) =>
                upcoming.length === 0 ? (
                  <p className="text-body-secondary">{t('home.appointments.none')}</p>
                ) : (
                  <ul className="list-unstyled mb-0">
                    {upcoming.map((appointment) => (
                      <AppointmentCard
                        key={appointment.id}
                        appointment={appointment}
                        timeZone={timeZone}
                        onChanged={changed}
                      />
                    ))}
                  </ul>
                )
              }
            </Loaded>
          </PortalSection>

          {appointments.data?.past.length ? (
            <PortalSection id="portal-past" title={t('home.appointments.past')}>
              <ul className="list-group">
                {appointments.data.past.map((appointment) => (
                  <li key={appointment.id} className="list-group-item">
                    <span className="d-block">{formatWhen(appointment.startsAt, timeZone, i18n.language)}</span>
                    <span className="small text-body-secondary">
                      {[appointment.treatmentName ?? appointment.reason, appointment.professionalName]
                        .filter(Boolean)
                        .join(' · ')}
                      {' · '}
                      {t(`home.appointments.status.${appointment.status}`)}
                    </span>
                  </li>
                ))}
              </ul>
            </PortalSection>
          ) : null}

          <PortalSection id="portal-balance" title={t('home.balance.title')}>
            <Loaded state={balance} minHeight="6rem">
              {(owed) => <BalanceView balance={owed} />}
            </Loaded>
          </PortalSection>

          <PortalSection id="portal-documents" title={t('home.documents.title')}>
            <Loaded state={documents} minHeight="6rem">
              {(list) =>
                list.length === 0 ? (
                  <p className="text-body-secondary">{t('home.documents.none')}</p>
                ) : (
                  <ul className="list-group">
                    {list.map((document) => (
                      <DocumentRow key={`${document.kind}-${document.id}`} document={document} currency={currency} />
                    ))}
                  </ul>
                )
              }
            </Loaded>
          </PortalSection>

          <RecordCopySection />

          <PortalSection id="portal-password-section" title={t('home.password.title')}>
            <p className="text-body-secondary">
              {t(me.signIn.hasPassword ? 'home.password.has' : 'home.password.none', { email: me.signIn.email })}
            </p>
            <Link to="/portal/password" className="btn btn-outline-primary" testId="portal-password">
              <KeyRound size={18} aria-hidden="true" className="me-1" />
              {t(me.signIn.hasPassword ? 'home.password.change' : 'home.password.set')}
            </Link>
          </PortalSection>
        </div>
      )}
    </PortalLayout>
  );
}

/** What the patient owes: the total, each open document, and how the clinic takes payments. */
function BalanceView({ balance }: { balance: PortalBalance }) {
  const { t, i18n } = useTranslation();
  return (
    <div data-testid="portal-balance">
      <p className={Number(balance.balance) > 0 ? 'fs-4 fw-semibold mb-2' : 'mb-2'}>
        {Number(balance.balance) > 0
          ? t('home.balance.owed', {
              amount: formatMoney(balance.balance, balance.currency, i18n.language),
            })
          : t('home.balance.none')}
      </p>
      {balance.documents.length ? (
        <ul className="list-group mb-3">
          {balance.documents.map((open) => (
            <li key={open.id} className="list-group-item d-flex justify-content-between gap-2">
              <span>
                {t(`home.balance.types.${open.documentType}`, { defaultValue: open.documentType })}{' '}
                {[open.pointOfService, open.documentNumber].filter(Boolean).join('-')}
                <span className="d-block small text-body-secondary">
                  {open.dueDate
                    ? t('home.balance.due', { day: formatDay(open.dueDate, i18n.language, 'short') })
                    : formatDay(open.date, i18n.language, 'short')}
                </span>
              </span>
              <span className="fw-semibold text-nowrap">
                {formatMoney(open.openAmount, open.currency, i18n.language)}
              </span>
            </li>
          ))}
        </ul>
      ) : null}
      {balance.paymentInstructions ? (
        <>
          <h3 className="h6">{t('home.balance.howToPay')}</h3>
          <p className="mb-0" style={{ whiteSpace: 'pre-line' }} data-testid="payment-instructions">
            {balance.paymentInstructions}
          </p>
        </>
      ) : null}
    </div>
  );
}
