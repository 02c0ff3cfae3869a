import { CircleAlert, CircleCheck, KeyRound } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { BusyIcon } from '../../components/busy-icon';
import { FormAlert } from '../../components/form-feedback';
import { describedField, FormField } from '../../components/form-field';
import { PasswordInput } from '../../components/password-input';
import { Spinner } from '../../components/spinner';
import { formResolver, useFormErrors } from '../../lib/form-errors';
import { isApiError } from '../../lib/http';
import { authApi } from './api';
import { errorMessage } from './api-errors';
import { resetPasswordFormSchema } from './forms';

/** A link that no longer works: unknown, malformed, used or older than 60 minutes. */
function isDeadLink(error: unknown): boolean {
  if (!isApiError(error)) return false;
  return (
    error.status === 400 ||
    error.status === 404 ||
    error.status === 410 ||
    /token|link|expired|not_found|invalid_reset/.test(error.code)
  );
}

/**
 * `/auth/reset_password/:id`: the link is checked as the page opens (a used or expired one says
 * so at once, with a way to ask for a new one, before anyone types a password); then a new
 * password and its confirmation. The link works once. If the check gets no answer, the form shows:
 * the save checks the link again.
 */
export function ResetPasswordForm({ resetId }: { resetId: string }) {
  const { t } = useTranslation('auth');
  const id = useId();
  const [state, setState] = useState<'checking' | 'form' | 'done' | 'deadLink'>('checking');
  useEffect(() => {
    let current = true;
    authApi.checkResetLink(resetId).then(
      () => {
        if (current) setState((state) => (state === 'checking' ? 'form' : state));
      },
      (error: unknown) => {
        if (current) setState((state) => (state === 'checking' ? (isDeadLink(error) ? 'deadLink' : 'form') : state));
      },
    );
    return () => {
      current = false;
    };
  }, [resetId]);
  const [problem, setProblem] = useState<string | null>(null);
  const formErrors = useFormErrors();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: formResolver(resetPasswordFormSchema),
    defaultValues: { password: '', passwordConfirmation: '' },
  });

  const onSubmit = handleSubmit(
    async (values) => {
      setProblem(null);
      try {
        await authApi.resetPassword(resetId, values);
        setState('done');
      } catch (error) {
        if (formErrors.place(error, setError, { fields: ['password', 'passwordConfirmation'] })) return;
        if (isDeadLink(error)) setState('deadLink');
        else setProblem(errorMessage(error));
      }
    },
    () => {
      // A new mistake replaces the last answer: no stale message beside it.
      setProblem(null);
      formErrors.onInvalid();
    },
  );

  if (state === 'checking') {
    return (
      <div className="text-center py-5" data-testid="reset-password-checking">
        <Spinner size={8} />
      </div>
    );
  }

  if (state === 'done') {
    return (
      <div className="auth-result" data-testid="reset-password-done">
        <span className="auth-result-icon auth-result-icon-success">
          <CircleCheck size={28} aria-hidden="true" />
        </span>
        <h1 className="auth-title">{t('reset.doneTitle')}</h1>
        <p className="auth-subtitle">{t('reset.doneText')}</p>
        <Link to="/auth/sign-in" className="btn btn-primary btn-lg w-100">
          {t('activation.signIn')}
        </Link>
      </div>
    );
  }

  if (state === 'deadLink') {
    return (
      <div className="auth-result" data-testid="reset-password-expired">
        <span className="auth-result-icon auth-result-icon-danger">
          <CircleAlert size={28} aria-hidden="true" />
        </span>
        <h1 className="auth-title">{t('reset.expiredTitle')}</h1>
        <p className="auth-subtitle">{t('reset.expiredText')}</p>
        <Link to="/auth/forgot-password" className="btn btn-primary w-100">
          {t('reset.requestNew')}
        </Link>
        <Link to="/auth/sign-in" className="btn btn-link w-100 mt-2">
          {t('common.backToSignIn')}
        </Link>
      </div>
    );
  }

  const passwordId = `${id}-password`;
  const confirmationId = `${id}-confirmation`;
  return (
    <form ref={formErrors.ref} noValidate onSubmit={(event) => void onSubmit(event)} className="auth-form">
      <h1 className="auth-title">{t('reset.title')}</h1>
      <p className="auth-subtitle">{t('reset.subtitle')}</p>
      {problem ? <FormAlert testId="form-error">{problem}</FormAlert> : null}
      <FormField
        id={passwordId}
        label={t('reset.password')}
        error={errors.password?.message}
        hint={t('common.passwordHint')}
      >
        <PasswordInput
          {...register('password')}
          {...describedField(passwordId, errors.password?.message, true)}
          invalid={Boolean(errors.password)}
          autoComplete="new-password"
        />
      </FormField>
      <FormField
        id={confirmationId}
        label={t('common.passwordConfirmation')}
        error={errors.passwordConfirmation?.message}
        className="mb-4"
      >
        <PasswordInput
          {...register('passwordConfirmation')}
          {...describedField(confirmationId, errors.passwordConfirmation?.message)}
          invalid={Boolean(errors.passwordConfirmation)}
          autoComplete="new-password"
        />
      </FormField>
      <button type="submit" className="btn btn-primary btn-lg w-100" disabled={isSubmitting}>
        <BusyIcon busy={isSubmitting} icon={KeyRound} size={18} />
        {isSubmitting ? t('reset.submitting') : t('reset.submit')}
      </button>
      <p className="auth-footer-text">
        <Link to="/auth/sign-in">{t('common.backToSignIn')}</Link>
      </p>
    </form>
  );
}
