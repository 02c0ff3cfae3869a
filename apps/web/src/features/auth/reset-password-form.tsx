import { CircleAlert, CircleCheck, KeyRound } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PasswordField } from '../../components/bound-fields';
import { Spinner } from '../../components/spinner';
import { errorMessage } from '../../lib/api-errors';
import { isApiError } from '../../lib/http';
import { authApi } from './api';
import { AuthForm, BackToSignIn } from './auth-form';
import { AuthResult } from './auth-parts';
import { resetPasswordFormSchema } from './forms';
import { useAuthForm } from './use-auth-form';

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
  const auth = useAuthForm(
    resetPasswordFormSchema,
    { password: '', passwordConfirmation: '' },
    {
      fields: ['password', 'passwordConfirmation'],
      send: async (values) => {
        await authApi.resetPassword(resetId, values);
        setState('done');
      },
      problemOf: (error) => {
        if (!isDeadLink(error)) return errorMessage(error);
        setState('deadLink');
        return null;
      },
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
      <AuthResult testId="reset-password-done" tone="success" icon={CircleCheck} title={t('reset.doneTitle')}>
        <p className="auth-subtitle">{t('reset.doneText')}</p>
        <Link to="/auth/sign-in" className="btn btn-primary btn-lg w-100">
          {t('activation.signIn')}
        </Link>
      </AuthResult>
    );
  }

  if (state === 'deadLink') {
    return (
      <AuthResult testId="reset-password-expired" tone="danger" icon={CircleAlert} title={t('reset.expiredTitle')}>
        <p className="auth-subtitle">{t('reset.expiredText')}</p>
        <Link to="/auth/forgot-password" className="btn btn-primary w-100">
          {t('reset.requestNew')}
        </Link>
        <Link to="/auth/sign-in" className="btn btn-link w-100 mt-2">
          {t('common.backToSignIn')}
        </Link>
      </AuthResult>
    );
  }

  return (
    <AuthForm form={auth} step="reset" icon={KeyRound} footer={<BackToSignIn />}>
      <PasswordField
        form={auth.form}
        name="password"
        label={t('reset.password')}
        hint={t('common.passwordHint')}
        autoComplete="new-password"
        className="mb-3"
      />
      <PasswordField
        form={auth.form}
        name="passwordConfirmation"
        label={t('common.passwordConfirmation')}
        autoComplete="new-password"
        className="mb-4"
      />
    </AuthForm>
  );
}
