import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { BusyIcon } from '../../components/busy-icon';

/** The wide submit button of an auth screen: spinner and `busyLabel` while the request runs. */
export function AuthSubmit({
  busy,
  icon,
  label,
  busyLabel,
}: {
  busy: boolean;
  icon: LucideIcon;
  label: string;
  busyLabel: string;
}) {
  return (
    <button type="submit" className="btn btn-primary btn-lg w-100" disabled={busy}>
      <BusyIcon busy={busy} icon={icon} size={18} />
      {busy ? busyLabel : label}
    </button>
  );
}

/** The answer screen of an auth step (mail sent, link expired…): icon, title, then `children`. */
export function AuthResult({
  testId,
  tone,
  icon: Icon,
  title,
  children,
}: {
  testId: string;
  tone: 'success' | 'danger';
  icon: LucideIcon;
  title: string;
  children: ReactNode;
}) {
  return (
    <div className="auth-result" data-testid={testId}>
      <span className={`auth-result-icon auth-result-icon-${tone}`}>
        <Icon size={28} aria-hidden="true" />
      </span>
      <h1 className="auth-title">{title}</h1>
      {children}
    </div>
  );
}
