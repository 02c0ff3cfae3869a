import type { SpinnerSize } from '@odontia/shared/enums';
import { useTranslation } from 'react-i18next';

interface SpinnerProps {
  /** Spec §9 sizes; the rendered diameter is size × 0.25rem (classes in styles/_components.scss). */
  size?: SpinnerSize;
  variant?: 'primary' | 'secondary' | 'light';
  className?: string;
}

export function Spinner({ size = 8, variant = 'primary', className }: SpinnerProps) {
  const { t } = useTranslation('common');
  return (
    <div
      className={`spinner-border od-spinner od-spinner-${size} text-${variant}${className ? ` ${className}` : ''}`}
      role="status"
    >
      <span className="visually-hidden">{t('loading')}</span>
    </div>
  );
}

export function FullScreenSpinner() {
  return (
    <div className="full-screen-spinner" data-testid="session-check">
      <Spinner size={12} />
    </div>
  );
}
