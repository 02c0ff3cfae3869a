import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { BusyIcon } from './busy-icon';

/** A button whose action runs in place: its icon turns into a spinner while `busy` (disabled while busy unless told). */
export function BusyButton({
  className,
  icon,
  busy,
  disabled = busy,
  onClick,
  title,
  testId,
  children,
}: {
  className: string;
  icon: LucideIcon;
  busy: boolean;
  disabled?: boolean;
  onClick: () => void;
  title?: string | undefined;
  testId?: string;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      className={className}
      onClick={onClick}
      disabled={disabled}
      title={title}
      data-testid={testId}
    >
      <BusyIcon busy={busy} icon={icon} />
      {children}
    </button>
  );
}
