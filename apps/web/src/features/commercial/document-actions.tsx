import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { IconLink } from '../../components/icon-link';

/** The small buttons of a document's header (edit, notes, bill, pay): outlined, a 14 px icon before the text. */
const actionClass = 'btn btn-outline-secondary btn-sm';

/** A header action that opens another screen (edit the draft, type a note, pay the provider). */
export function DocumentActionLink({
  to,
  icon,
  testId,
  children,
}: {
  to: string;
  icon: LucideIcon;
  testId?: string;
  children: ReactNode;
}) {
  return (
    <IconLink to={to} className={actionClass} icon={icon} size={14} iconClassName="me-1" testId={testId}>
      {children}
    </IconLink>
  );
}

/** A header action done in place (issue a note; `danger`: delete the draft; `primary`: the next step). */
export function DocumentActionButton({
  icon: Icon,
  onClick,
  disabled,
  tone = 'outline-secondary',
  testId,
  children,
}: {
  icon: LucideIcon;
  onClick: () => void;
  disabled?: boolean;
  tone?: 'outline-secondary' | 'outline-danger' | 'primary';
  testId: string;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      className={`btn btn-${tone} btn-sm`}
      onClick={onClick}
      disabled={disabled}
      data-testid={testId}
    >
      <Icon size={14} aria-hidden="true" className="me-1" />
      {children}
    </button>
  );
}
