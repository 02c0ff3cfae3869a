import type { LucideIcon } from 'lucide-react';
import type { FormEvent, ReactNode, RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { FormAlert } from '../../components/form-feedback';
import { AuthSubmit } from './auth-parts';

/** The auth screens with a form of their own (their texts: `<step>.title`, `.subtitle`, `.submit`, `.submitting`). */
export type AuthStep = 'signUp' | 'forgot' | 'reset' | 'lock';

/**
 * An auth screen's form: title, subtitle and the answer's problem above the fields (`children`),
 * then its submit button and the line under it (`footer`). `form` is useAuthForm's answer (its
 * ref, submit, problem and busy state).
 */
export function AuthForm({
  form: { formErrors, onSubmit, problem, form },
  step,
  icon,
  subtitle,
  header,
  footer,
  children,
}: {
  form: {
    formErrors: { ref: RefObject<HTMLFormElement | null> };
    onSubmit: (event: FormEvent<HTMLFormElement>) => Promise<void>;
    problem: ReactNode;
    form: { formState: { isSubmitting: boolean } };
  };
  step: AuthStep;
  icon: LucideIcon;
  /** Instead of `<step>.subtitle`. */
  subtitle?: string;
  /** Above the title (the lock screen's user). */
  header?: ReactNode;
  footer: ReactNode;
  children: ReactNode;
}) {
  const { t } = useTranslation('auth');
  const busy = form.formState.isSubmitting;
  return (
    <form ref={formErrors.ref} noValidate onSubmit={(event) => void onSubmit(event)} className="auth-form">
      {header}
      <h1 className="auth-title">{t(`${step}.title`)}</h1>
      <p className="auth-subtitle">{subtitle ?? t(`${step}.subtitle`)}</p>
      {problem ? <FormAlert testId="form-error">{problem}</FormAlert> : null}
      {children}
      <AuthSubmit busy={busy} icon={icon} label={t(`${step}.submit`)} busyLabel={t(`${step}.submitting`)} />
      <p className="auth-footer-text">{footer}</p>
    </form>
  );
}

/** The footer link of the screens reached from the sign-in. */
export function BackToSignIn() {
  const { t } = useTranslation('auth');
  return <Link to="/auth/sign-in">{t('common.backToSignIn')}</Link>;
}
