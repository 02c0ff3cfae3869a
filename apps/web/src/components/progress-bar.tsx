import { useTranslation } from 'react-i18next';

/** Thin indeterminate bar across the top while a page (or its code) loads. Pure CSS animation. */
export function ProgressBar() {
  const { t } = useTranslation('common', { useSuspense: false });
  return (
    <div className="top-progress" role="progressbar" aria-label={t('loadingPage', 'Loading…')} aria-busy="true">
      <div className="top-progress-bar" />
    </div>
  );
}
