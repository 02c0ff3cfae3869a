import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

/** A link styled as a button, its icon before its text (`iconClassName` spaces them: me-2, or me-1 on small ones). */
export function IconLink({
  to,
  className,
  icon: Icon,
  size = 16,
  iconClassName = 'me-2',
  testId,
  children,
}: {
  to: string;
  className: string;
  icon: LucideIcon;
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
