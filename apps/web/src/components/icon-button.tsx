import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';

/** A button that shows only its icon: `label` is its accessible name and its tooltip. */
export function IconButton({
  icon: Icon,
  label,
  onClick,
  className = 'btn btn-sm btn-outline-secondary',
  size = 16,
  disabled,
  testId,
}: {
  icon: LucideIcon;
  label: string;
  onClick: () => void;
  className?: string;
  size?: number;
  disabled?: boolean | undefined;
  testId?: string | undefined;
}) {
  return (
    <button
      type="button"
      className={className}
      onClick={onClick}
      title={label}
      aria-label={label}
      disabled={disabled}
      data-testid={testId}
    >
      <Icon size={size} aria-hidden="true" />
    </button>
  );
}

/**
 * A button with its icon before its text (the text is its accessible name). `small`: the icon of a
 * `btn-sm` (14 px, me-1).
 */
export function IconTextButton({
  icon: Icon,
  className,
  onClick,
  disabled,
  testId,
  small = false,
  size = small ? 14 : 16,
  iconClassName = small ? 'me-1' : 'me-2',
  children,
}: {
  icon: LucideIcon;
  className: string;
  onClick: () => void;
  disabled?: boolean | undefined;
  testId?: string | undefined;
  small?: boolean;
  size?: number;
  iconClassName?: string;
  children: ReactNode;
}) {
  return (
    <button type="button" className={className} onClick={onClick} disabled={disabled} data-testid={testId}>
      <Icon size={size} aria-hidden="true" className={iconClassName} />
      {children}
    </button>
  );
}
