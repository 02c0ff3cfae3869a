import { lazy, Suspense } from 'react';
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
const SignInLinkPage = lazy(() =>
  import('./pages/sign-in').then((module) => ({ default: module.SignInLinkPage })),
);
const HomePage = lazy(() => import('./pages/home').then((module) => ({ default: module.HomePage })));
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

/** The page of the address. */
function Page() {
  const { path } = useRouter();
  let params: Record<string, string> | null;
  if ((params = matchPath('/c/:slug', path))) return <ClinicPage slug={params.slug ?? ''} />;
  if ((params = matchPath('/c/:slug/book', path))) return <PublicBookingPage slug={params.slug ?? ''} />;
  if ((params = matchPath('/booking/confirm/:token', path))) return <BookingLinkPage token={params.token ?? ''} />;
  if (matchPath('/portal/sign-in', path)) return <SignInPage />;
  if ((params = matchPath('/portal/sign-in/:token', path))) return <SignInLinkPage token={params.token ?? ''} />;
  if (matchPath('/portal/book', path)) return <PortalBookingPage />;
  if (matchPath('/portal', path)) return <HomePage />;
  return <NotFound />;
}

export function PortalApp() {
  return (
    <Suspense fallback={<Placeholder minHeight="100vh" />}>
      <Page />
    </Suspense>
  );
}
