import { MailCheck, Send } from 'lucide-react';
import { useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { TextField } from '../../components/bound-fields';
import { authApi } from './api';
import { AuthForm, BackToSignIn } from './auth-form';
import { AuthResult } from './auth-parts';
import { forgotPasswordRequestSchema } from './forms';
import { useAuthForm } from './use-auth-form';

/** `/auth/forgot-password`: the same answer whether or not the e-mail has an account. */
export function ForgotPasswordForm() {
  const { t } = useTranslation('auth');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const auth = useAuthForm(
    forgotPasswordRequestSchema,
    { email: '' },
    {
      fields: ['email'],
      send: async ({ email }) => {
        await authApi.forgotPassword(email);
        setSentTo(email);
      },
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
    <AuthForm form={auth} step="forgot" icon={Send} footer={<BackToSignIn />}>
      <TextField
        form={auth.form}
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
