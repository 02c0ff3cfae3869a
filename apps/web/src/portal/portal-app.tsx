import { type JSX, lazy, Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { tokenStore } from '../lib/storage-keys';
import { PortalLayout } from './layout';
import { matchPath, useRouter } from './router';
import { Placeholder } from './ui';

// Each page is its own chunk: a patient opening the clinic's page does not download the booking's.
const ClinicPage = lazy(() => import('./pages/clinic').then((module) => ({ default: module.ClinicPage })));
const PublicBookingPage = lazy(() =>
  import('./pages/public-booking').then((module) => ({ default: module.PublicBookingPage })),
);
const BookingLinkPage = lazy(() =>
  import('./pages/booking-link').then((module) => ({ default: module.BookingLinkPage })),
);
const SignInPage = lazy(() => import('./pages/sign-in').then((module) => ({ default: module.SignInPage })));
const SignInLinkPage = lazy(() => import('./pages/sign-in').then((module) => ({ default: module.SignInLinkPage })));
const HomePage = lazy(() => import('./pages/home').then((module) => ({ default: module.HomePage })));
const ClinicChoicePage = lazy(() => import('./pages/clinics').then((module) => ({ default: module.ClinicChoicePage })));
const PasswordPage = lazy(() => import('./pages/password').then((module) => ({ default: module.PasswordPage })));
const PortalBookingPage = lazy(() =>
  import('./pages/portal-booking').then((module) => ({ default: module.PortalBookingPage })),
);

function NotFound() {
  const { t } = useTranslation();
  return (
    <PortalLayout brand={null} title={t('notFound.title')}>
      <h1 className="h3" data-testid="portal-not-found">
        {t('notFound.title')}
      </h1>
      <p>{t('notFound.text')}</p>
    </PortalLayout>
  );
}

/**
 * A signed-in page opened without a session goes straight to the sign-in page, before its chunk is
 * downloaded: the patient following an old bookmark to /portal loads one page, not two (the page
 * itself still sends them there when the server ends the session, usePortalMe).
 */
function SignedIn({ page }: { page: JSX.Element }) {
  const { navigate } = useRouter();
  const signedOut = !tokenStore.get();
  useEffect(() => {
    if (signedOut) navigate('/portal/sign-in', { replace: true });
  }, [signedOut, navigate]);
  return signedOut ? <Placeholder minHeight="100vh" /> : page;
}

type Params = Record<string, string>;

/** The portal's pages by path, first match wins. */
const pages: readonly [pattern: string, page: (params: Params) => JSX.Element][] = [
  ['/c/:slug', (params) => <ClinicPage slug={params.slug ?? ''} />],
  ['/c/:slug/book', (params) => <PublicBookingPage slug={params.slug ?? ''} />],
  ['/booking/confirm/:token', (params) => <BookingLinkPage token={params.token ?? ''} />],
  ['/portal/sign-in', () => <SignInPage />],
  ['/p/:slug', (params) => <SignInPage slug={params.slug ?? ''} />],
  ['/p/:slug/link/:token', (params) => <SignInLinkPage slug={params.slug ?? ''} token={params.token ?? ''} />],
  ['/portal/book', () => <SignedIn page={<PortalBookingPage />} />],
  ['/portal/clinics', () => <SignedIn page={<ClinicChoicePage />} />],
  ['/portal/password', () => <SignedIn page={<PasswordPage />} />],
  ['/portal', () => <SignedIn page={<HomePage />} />],
];

/** The page of the address. */
function Page() {
  const { path } = useRouter();
  for (const [pattern, page] of pages) {
    const params = matchPath(pattern, path);
    if (params) return page(params);
  }
  return <NotFound />;
}

export function PortalApp() {
  return (
    <Suspense fallback={<Placeholder minHeight="100vh" />}>
      <Page />
    </Suspense>
  );
}
