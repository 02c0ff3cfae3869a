import type { LucideIcon } from 'lucide-react';
import type { FormEvent, ReactNode, RefObject } from 'react';
import { BusyIcon } from '../../components/busy-icon';
import { FormAlert } from '../../components/form-feedback';

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
 * An auth screen's form: title, subtitle and the answer's problem above the fields (`children`),
 * then its submit button and the line under it (`footer`).
 */
export function AuthForm({
  ref,
  onSubmit,
  title,
  subtitle,
  problem,
  header,
  submit,
  footer,
  children,
}: {
  ref: RefObject<HTMLFormElement | null>;
  onSubmit: (event: FormEvent<HTMLFormElement>) => Promise<void>;
  title: string;
  subtitle: string;
  /** Shown in the error alert (`form-error`) when set. */
  problem: ReactNode;
  /** Above the title (the lock screen's user). */
  header?: ReactNode;
  submit: { busy: boolean; icon: LucideIcon; label: string; busyLabel: string };
  footer: ReactNode;
  children: ReactNode;
}) {
  return (
    <form ref={ref} noValidate onSubmit={(event) => void onSubmit(event)} className="auth-form">
      {header}
      <h1 className="auth-title">{title}</h1>
      <p className="auth-subtitle">{subtitle}</p>
      {problem ? <FormAlert testId="form-error">{problem}</FormAlert> : null}
      {children}
      <AuthSubmit {...submit} />
      <p className="auth-footer-text">{footer}</p>
    </form>
  );
}
