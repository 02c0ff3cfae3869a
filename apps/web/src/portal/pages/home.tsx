import { CalendarPlus, LogOut } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { portalErrorText } from '../errors';
import { PortalLayout } from '../layout';
import { usePortalMe } from '../portal-session';
import { Link } from '../router';
import { ErrorAlert, Placeholder } from '../ui';

/** `/portal`: the signed-in patient's appointments, documents and balance (issue 37). */
export function HomePage() {
  const { t } = useTranslation();
  const { me, brand, error, signOut } = usePortalMe();
  const signOutButton = me ? (
    <button
      type="button"
      className="btn btn-sm portal-icon-button"
      onClick={() => void signOut()}
      data-testid="sign-out"
    >
      <LogOut size={18} aria-hidden="true" />
      <span className="ms-1 d-none d-sm-inline">{t('home.signOut')}</span>
      <span className="visually-hidden d-sm-none">{t('home.signOut')}</span>
    </button>
  ) : null;
  return (
    <PortalLayout brand={brand} title={t('home.title')} actions={signOutButton}>
      {error ? (
        <ErrorAlert>{portalErrorText(error)}</ErrorAlert>
      ) : !me ? (
        <Placeholder testId="portal-loading" minHeight="24rem" />
      ) : (
        <div data-testid="portal-home">
          <h1 className="h3 mb-3">{t('home.greeting', { name: me.patient.firstName })}</h1>
          <Link to="/portal/book" className="btn btn-primary btn-lg w-100 mb-4" testId="portal-book">
            <CalendarPlus size={20} aria-hidden="true" className="me-2" />
            {t('home.book')}
          </Link>
          {me.settings.paymentInstructions ? (
            <section className="portal-section" aria-labelledby="portal-pay">
              <h2 id="portal-pay" className="h5">
                {t('home.howToPay')}
              </h2>
              <p className="mb-0" style={{ whiteSpace: 'pre-line' }} data-testid="payment-instructions">
                {me.settings.paymentInstructions}
              </p>
            </section>
          ) : null}
        </div>
      )}
    </PortalLayout>
  );
}
