import type { LucideIcon } from 'lucide-react';

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
