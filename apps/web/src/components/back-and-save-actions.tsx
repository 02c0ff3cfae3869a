import { Save } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { BusyIcon } from './busy-icon';

/**
 * A record page's form foot: what else it offers (`children`), the way back and the save, which
 * waits while saving and, on an edit, until something changed.
 */
export function BackAndSaveActions({
  className,
  backTo,
  backText,
  saving,
  editing,
  dirty,
  saveText,
  testId,
  children,
}: {
  className: string;
  backTo: string;
  backText: string;
  saving: boolean;
  editing: boolean;
  dirty: boolean;
  saveText: string;
  testId: string;
  children?: ReactNode;
}) {
  return (
    <div className={className}>
      {children}
      <Link to={backTo} className="btn btn-outline-secondary">
        {backText}
      </Link>
      <button type="submit" className="btn btn-primary" disabled={saving || (editing && !dirty)} data-testid={testId}>
        <BusyIcon busy={saving} icon={Save} />
        {saveText}
      </button>
    </div>
  );
}
