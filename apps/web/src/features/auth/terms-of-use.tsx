import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Spinner } from '../../components/spinner';

/** The sections of the terms, in order (namespace `terms`, loaded only by this page). */
export const termsSections = [
  'service',
  'account',
  'clinicalData',
  'privacy',
  'plans',
  'availability',
  'liability',
  'changes',
] as const;

/** `/auth/terms`: the terms of use a clinic accepts at sign-up. */
export function TermsOfUse() {
  const { t, ready } = useTranslation('terms');
  if (!ready) {
    return (
      <div className="auth-result">
        <Spinner size={8} />
      </div>
    );
  }
  return (
    <article className="terms" data-testid="terms">
      <h1 className="auth-title">{t('title')}</h1>
      <p className="auth-subtitle">{t('updated')}</p>
      <p>{t('intro')}</p>
      <ol className="terms-sections">
        {termsSections.map((section) => (
          <li key={section}>
            <h2 className="terms-heading">{t(`sections.${section}.title`)}</h2>
            <p>{t(`sections.${section}.text`)}</p>
          </li>
        ))}
      </ol>
      <p className="terms-contact">{t('contact')}</p>
      <Link to="/auth/sign-up" className="btn btn-primary w-100">
        {t('backToSignUp')}
      </Link>
    </article>
  );
}
