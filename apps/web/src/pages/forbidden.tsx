import { ArrowLeft, ShieldX } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { IconLink } from '../components/icon-link';
import { PageTitle } from '../components/page-title';

/** 403 inside the layout: the user's level may not open this page. */
export function ForbiddenPage({ homePath }: { homePath: string }) {
  const { t } = useTranslation('common');
  return (
    <>
      <PageTitle title={t('forbidden.title')} />
      <section className="card coming-soon" data-testid="forbidden" aria-labelledby="forbidden-title">
        <div className="card-body">
          <span className="coming-soon-icon coming-soon-icon-danger">
            <ShieldX size={26} aria-hidden="true" />
          </span>
          <p className="coming-soon-eyebrow text-danger-emphasis">{t('forbidden.code')}</p>
          <h2 id="forbidden-title" className="coming-soon-title">
            {t('forbidden.title')}
          </h2>
          <p className="coming-soon-text">{t('forbidden.text')}</p>
          <IconLink to={homePath} className="btn btn-primary" icon={ArrowLeft}>
            {homePath === '/dashboard' ? t('comingSoon.backToDashboard') : t('forbidden.toProfile')}
          </IconLink>
        </div>
      </section>
    </>
  );
}
