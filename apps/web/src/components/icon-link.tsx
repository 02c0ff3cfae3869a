import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

/**
 * A link styled as a button, its icon before its text (`iconClassName` spaces them: me-2). `small`:
 * the icon of a `btn-sm` (14 px, me-1).
 */
export function IconLink({
  to,
  className,
  icon: Icon,
  small = false,
  size = small ? 14 : 16,
  iconClassName = small ? 'me-1' : 'me-2',
  testId,
  children,
}: {
  to: string;
  className: string;
  icon: LucideIcon;
  small?: boolean;
  size?: number;
  iconClassName?: string;
  testId?: string | undefined;
  children: ReactNode;
}) {
  return (
    <Link to={to} className={className} data-testid={testId}>
      <Icon size={size} aria-hidden="true" className={iconClassName} />
      {children}
    </Link>
  );
}
