import { ShieldX } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { PageTitle } from '../components/page-title';
import { RefusalCard } from '../components/record-not-found';

/** 403 inside the layout: the user's level may not open this page. */
export function ForbiddenPage({ homePath }: { homePath: string }) {
  const { t } = useTranslation('common');
  return (
    <>
      <PageTitle title={t('forbidden.title')} />
      <RefusalCard
        icon={ShieldX}
        eyebrow={t('forbidden.code')}
        title={t('forbidden.title')}
        text={t('forbidden.text')}
        back={{
          to: homePath,
          label: homePath === '/dashboard' ? t('comingSoon.backToDashboard') : t('forbidden.toProfile'),
        }}
        testId="forbidden"
      />
    </>
  );
}
