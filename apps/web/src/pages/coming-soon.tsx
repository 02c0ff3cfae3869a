import { ArrowLeft, Hammer } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useRouteTitleKey } from '../app/route-handle';
import { PageTitle } from '../components/page-title';

/** Every area not built yet: the area's title (route handle) and an honest "being prepared" card. */
export function ComingSoonPage() {
  const { t } = useTranslation('common');
  const titleKey = useRouteTitleKey();
  const title = titleKey ? t(titleKey) : '';

  return (
    <>
      <PageTitle title={title} />
      <section className="card coming-soon" data-testid="coming-soon" aria-labelledby="coming-soon-title">
        <div className="card-body">
          <span className="coming-soon-icon">
            <Hammer size={26} aria-hidden="true" />
          </span>
          <p className="coming-soon-eyebrow">{title}</p>
          <h2 id="coming-soon-title" className="coming-soon-title">
            {t('comingSoon.title')}
          </h2>
          <p className="coming-soon-text">{t('comingSoon.text', { area: title })}</p>
          <Link to="/dashboard" className="btn btn-primary">
            <ArrowLeft size={16} aria-hidden="true" className="me-2" />
            {t('comingSoon.backToDashboard')}
          </Link>
        </div>
      </section>
    </>
  );
}
