import { MailCheck, Send } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { TextField } from '../../components/bound-fields';
import { errorMessage } from '../../lib/api-errors';
import { formResolver, useFormErrors } from '../../lib/form-errors';
import { authApi } from './api';
import { AuthForm, AuthResult } from './auth-parts';
import { forgotPasswordRequestSchema } from './forms';

/** `/auth/forgot-password`: the same answer whether or not the e-mail has an account. */
export function ForgotPasswordForm() {
  const { t } = useTranslation('auth');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const formErrors = useFormErrors();
  const form = useForm({ resolver: formResolver(forgotPasswordRequestSchema), defaultValues: { email: '' } });
  const {
    handleSubmit,
    setError,
    formState: { isSubmitting },
  } = form;

  const onSubmit = handleSubmit(
    async ({ email }) => {
      setProblem(null);
      try {
        await authApi.forgotPassword(email);
        setSentTo(email);
      } catch (error) {
        if (!formErrors.place(error, setError, { fields: ['email'] })) setProblem(errorMessage(error));
      }
    },
    () => {
      // A new mistake replaces the last answer: no stale message beside it.
      setProblem(null);
      formErrors.onInvalid();
    },
  );

  if (sentTo) {
    return (
      <AuthResult testId="forgot-password-sent" tone="success" icon={MailCheck} title={t('forgot.sentTitle')}>
        <p className="auth-subtitle">
          <Trans t={t} i18nKey="forgot.sentText" values={{ email: sentTo }} components={{ strong: <strong /> }} />
        </p>
        <Link to="/auth/sign-in" className="btn btn-primary w-100">
          {t('common.backToSignIn')}
        </Link>
      </AuthResult>
    );
  }

  return (
    <AuthForm
      ref={formErrors.ref}
      onSubmit={onSubmit}
      title={t('forgot.title')}
      subtitle={t('forgot.subtitle')}
      problem={problem}
      submit={{ busy: isSubmitting, icon: Send, label: t('forgot.submit'), busyLabel: t('forgot.submitting') }}
      footer={<Link to="/auth/sign-in">{t('common.backToSignIn')}</Link>}
    >
      <TextField
        form={form}
        name="email"
        label={t('common.email')}
        type="email"
        inputMode="email"
        autoComplete="email"
        placeholder={t('common.emailPlaceholder')}
        className="mb-4"
      />
    </AuthForm>
  );
}
