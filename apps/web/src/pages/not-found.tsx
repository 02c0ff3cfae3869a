import { House } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { IconLink } from '../components/icon-link';
import { OdontiaWordmark } from '../components/odontia-logo';
import { PageTitle } from '../components/page-title';

export function NotFoundPage() {
  const { t } = useTranslation('common');
  return (
    <main className="status-page" data-testid="not-found">
      <PageTitle title={t('pages.notFound')} />
      <div className="status-card">
        <OdontiaWordmark size={36} />
        <p className="status-code" aria-hidden="true">
          404
        </p>
        <h1 className="status-title">{t('notFound.title')}</h1>
        <p className="status-text">{t('notFound.text')}</p>
        <IconLink to="/" className="btn btn-primary btn-lg" icon={House} size={18}>
          {t('notFound.home')}
        </IconLink>
      </div>
    </main>
  );
}
