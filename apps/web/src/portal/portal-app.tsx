import { type JSX, lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
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

type Params = Record<string, string>;

/** The portal's pages by path, first match wins. */
const pages: readonly [pattern: string, page: (params: Params) => JSX.Element][] = [
  ['/c/:slug', (params) => <ClinicPage slug={params.slug ?? ''} />],
  ['/c/:slug/book', (params) => <PublicBookingPage slug={params.slug ?? ''} />],
  ['/booking/confirm/:token', (params) => <BookingLinkPage token={params.token ?? ''} />],
  ['/portal/sign-in', () => <SignInPage />],
  ['/p/:slug', (params) => <SignInPage slug={params.slug ?? ''} />],
  ['/p/:slug/link/:token', (params) => <SignInLinkPage slug={params.slug ?? ''} token={params.token ?? ''} />],
  ['/portal/book', () => <PortalBookingPage />],
  ['/portal/clinics', () => <ClinicChoicePage />],
  ['/portal/password', () => <PasswordPage />],
  ['/portal', () => <HomePage />],
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
