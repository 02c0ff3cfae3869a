import { useTranslation } from 'react-i18next';
import { useRouteTitleKey } from '../app/route-handle';
import { PageTitle } from '../components/page-title';

/** Authentication screens until the sign-in issue fills them: the screen's title and a notice. */
export function AuthComingSoonPage() {
  const { t } = useTranslation('common');
  const titleKey = useRouteTitleKey();
  const title = titleKey ? t(titleKey) : '';
  return (
    <div data-testid="coming-soon">
      <PageTitle title={title} />
      <h1 className="auth-title">{title}</h1>
      <p className="auth-subtitle">{t('comingSoon.authText')}</p>
      <div className="alert alert-info mb-0" role="status">
        {t('comingSoon.title')}
      </div>
    </div>
  );
}
