import { MailCheck, Send } from 'lucide-react';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { BusyIcon } from '../../components/busy-icon';
import { FormAlert } from '../../components/form-feedback';
import { describedField, FormField, inputClass } from '../../components/form-field';
import { formResolver, useFormErrors } from '../../lib/form-errors';
import { authApi } from './api';
import { errorMessage } from './api-errors';
import { forgotPasswordRequestSchema } from './forms';

/** `/auth/forgot-password`: the same answer whether or not the e-mail has an account. */
export function ForgotPasswordForm() {
  const { t } = useTranslation('auth');
  const id = useId();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const formErrors = useFormErrors();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm({ resolver: formResolver(forgotPasswordRequestSchema), defaultValues: { email: '' } });

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
      <div className="auth-result" data-testid="forgot-password-sent">
        <span className="auth-result-icon auth-result-icon-success">
          <MailCheck size={28} aria-hidden="true" />
        </span>
        <h1 className="auth-title">{t('forgot.sentTitle')}</h1>
        <p className="auth-subtitle">
          <Trans t={t} i18nKey="forgot.sentText" values={{ email: sentTo }} components={{ strong: <strong /> }} />
        </p>
        <Link to="/auth/sign-in" className="btn btn-primary w-100">
          {t('common.backToSignIn')}
        </Link>
      </div>
    );
  }

  const emailId = `${id}-email`;
  return (
    <form ref={formErrors.ref} noValidate onSubmit={(event) => void onSubmit(event)} className="auth-form">
      <h1 className="auth-title">{t('forgot.title')}</h1>
      <p className="auth-subtitle">{t('forgot.subtitle')}</p>
      {problem ? <FormAlert testId="form-error">{problem}</FormAlert> : null}
      <FormField id={emailId} label={t('common.email')} error={errors.email?.message} className="mb-4">
        <input
          {...register('email')}
          {...describedField(emailId, errors.email?.message)}
          type="email"
          inputMode="email"
          autoComplete="email"
          placeholder={t('common.emailPlaceholder')}
          className={inputClass(errors.email?.message)}
        />
      </FormField>
      <button type="submit" className="btn btn-primary btn-lg w-100" disabled={isSubmitting}>
        <BusyIcon busy={isSubmitting} icon={Send} size={18} />
        {isSubmitting ? t('forgot.submitting') : t('forgot.submit')}
      </button>
      <p className="auth-footer-text">
        <Link to="/auth/sign-in">{t('common.backToSignIn')}</Link>
      </p>
    </form>
  );
}
