import { CircleAlert, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { BusyIcon } from '../../components/busy-icon';
import { Spinner } from '../../components/spinner';

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

/**
 * A public link's page before it can show the link: while it loads, or when the link is unknown or
 * spent (`invalid`) or the server failed (`problem`), in the words `says` gives for each.
 */
export function LinkPageStatus({
  step,
  testId,
  says,
}: {
  step: 'loading' | 'invalid' | 'problem';
  testId: string;
  says: (step: 'invalid' | 'problem') => { title: string; text: string };
}) {
  if (step === 'loading') {
    return (
      <div className="text-center py-5" data-testid={`${testId}-loading`}>
        <Spinner size={8} />
      </div>
    );
  }
  const { title, text } = says(step);
  return (
    <AuthResult testId={`${testId}-${step}`} tone="danger" icon={CircleAlert} title={title}>
      <p className="auth-subtitle">{text}</p>
    </AuthResult>
  );
}
