import { useTranslation } from 'react-i18next';
import { ToastContainer } from 'react-toastify/unstyled';
import { useThemeSettings } from '../lib/theme-context';

/** Spec §9: toasts top-right, closing after 5000 ms. Loaded after the first paint (see providers). */
export default function Toasts() {
  const { settings } = useThemeSettings();
  const { t } = useTranslation('common');
  return (
    <ToastContainer
      position="top-right"
      autoClose={5000}
      theme={settings.theme}
      newestOnTop
      closeButton
      aria-label={t('notifications')}
    />
  );
}
