import { MailCheck, UserPlus } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { BoundFields, TextField } from '../../components/bound-fields';
import { FieldFeedback, FormAlert } from '../../components/form-feedback';
import { errorMessage, fieldMessage } from '../../lib/api-errors';
import { isApiError } from '../../lib/http';
import { supportedLanguage } from '../../lib/i18n';
import { authApi } from './api';
import { AuthForm } from './auth-form';
import { AuthResult } from './auth-parts';
import { signUpFormSchema, signUpRequiredFields } from './forms';
import { ResendActivation } from './resend-activation';
import { useAuthForm } from './use-auth-form';

const formFields = [...signUpRequiredFields, 'promotionalCode', 'acceptTerms'] as const;
/** Two fields a row from `sm` up. */
const half = 'col-sm-6';

/** `/auth/sign-up`: the clinic's account and its administrator; then "check your e-mail". */
export function SignUpForm() {
  const { t, i18n } = useTranslation('auth');
  const id = useId();
  const [createdFor, setCreatedFor] = useState<string | null>(null);
  // The trial is promised only where the server has plans (without them nothing is ever due).
  // A plain request: the signed-out pages have no query client (the sign-in bundle stays small).
  const [trialDays, setTrialDays] = useState<number | null>(null);
  useEffect(() => {
    let live = true;
    authApi
      .signUpTerms()
      .then((answer) => live && setTrialDays(answer.data.trialDays))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);
  const auth = useAuthForm(
    signUpFormSchema,
    {
      completeName: '',
      email: '',
      password: '',
      passwordConfirmation: '',
      clinicName: '',
      contact: '',
      promotionalCode: '',
      hasPromotionalCode: false,
    },
    {
      fields: formFields,
      send: async (values) => {
        const { hasPromotionalCode, promotionalCode, ...rest } = values;
        const code = promotionalCode?.trim();
        await authApi.signUp({
          ...rest,
          ...(hasPromotionalCode && code ? { promotionalCode: code } : {}),
          language: supportedLanguage(i18n.resolvedLanguage ?? i18n.language),
        });
        setCreatedFor(values.email);
      },
      problemOf: (error) => (
        <>
          {errorMessage(error)}{' '}
          {isApiError(error) && error.code === 'email_already_exists' ? (
            <Link to="/auth/sign-in" className="alert-link">
              {t('signUp.signIn')}
            </Link>
          ) : null}
        </>
      ),
    },
  );
  const { form } = auth;
  const {
    register,
    watch,
    formState: { errors, submitCount },
  } = form;
  const values = watch();
  const incomplete =
    submitCount > 0 &&
    Object.keys(errors).length > 0 &&
    (signUpRequiredFields.some((field) => !String(values[field] ?? '').trim()) || !values.acceptTerms);

  if (createdFor) {
    return (
      <AuthResult testId="sign-up-done" tone="success" icon={MailCheck} title={t('signUp.doneTitle')}>
        <p className="auth-subtitle">
          <Trans t={t} i18nKey="signUp.doneText" values={{ email: createdFor }} components={{ strong: <strong /> }} />
        </p>
        <ResendActivation email={createdFor} />
        <Link to="/auth/sign-in" className="btn btn-primary w-100 mt-3">
          {t('common.backToSignIn')}
        </Link>
      </AuthResult>
    );
  }

  const field = (name: (typeof formFields)[number]) => `${id}-${name}`;

  return (
    <AuthForm
      form={auth}
      step="signUp"
      icon={UserPlus}
      subtitle={trialDays ? t('signUp.subtitleTrial', { count: trialDays }) : undefined}
      footer={
        <>
          {t('signUp.haveAccount')} <Link to="/auth/sign-in">{t('signUp.signIn')}</Link>
        </>
      }
    >
      {incomplete ? (
        <FormAlert variant="warning" testId="form-incomplete">
          {fieldMessage('fill_required_fields')}
        </FormAlert>
      ) : null}

      <div className="row g-3 mb-3">
        <BoundFields
          form={form}
          fields={[
            { name: 'completeName', label: t('signUp.completeName'), autoComplete: 'name', className: half },
            {
              name: 'email',
              label: t('common.email'),
              type: 'email',
              inputMode: 'email',
              autoComplete: 'email',
              placeholder: t('common.emailPlaceholder'),
              className: half,
            },
            {
              password: true,
              name: 'password',
              label: t('common.password'),
              hint: t('common.passwordHint'),
              autoComplete: 'new-password',
              className: half,
            },
            {
              password: true,
              name: 'passwordConfirmation',
              label: t('common.passwordConfirmation'),
              autoComplete: 'new-password',
              className: half,
            },
            { name: 'clinicName', label: t('signUp.clinicName'), autoComplete: 'organization', className: half },
            {
              name: 'contact',
              label: t('signUp.contact'),
              type: 'tel',
              inputMode: 'tel',
              autoComplete: 'tel',
              placeholder: t('signUp.contactPlaceholder'),
              className: half,
            },
          ]}
        />
      </div>

      <div className="form-check mb-2">
        <input {...register('hasPromotionalCode')} id={`${id}-hasCode`} type="checkbox" className="form-check-input" />
        <label htmlFor={`${id}-hasCode`} className="form-check-label">
          {t('signUp.hasPromotionalCode')}
        </label>
      </div>
      {values.hasPromotionalCode ? (
        <TextField form={form} name="promotionalCode" label={t('signUp.promotionalCode')} className="mb-3" />
      ) : null}

      <div className="form-check mb-4 mt-3">
        <input
          {...register('acceptTerms')}
          id={field('acceptTerms')}
          type="checkbox"
          className={`form-check-input${errors.acceptTerms ? ' is-invalid' : ''}`}
          aria-invalid={errors.acceptTerms ? true : undefined}
          aria-describedby={errors.acceptTerms ? `${field('acceptTerms')}-error` : undefined}
        />
        <label htmlFor={field('acceptTerms')} className="form-check-label">
          <Trans
            t={t}
            i18nKey="signUp.acceptTerms"
            components={{ termsLink: <Link to="/auth/terms" target="_blank" rel="noopener" /> }}
          />
        </label>
        <FieldFeedback id={`${field('acceptTerms')}-error`} message={fieldMessage(errors.acceptTerms?.message)} />
      </div>
    </AuthForm>
  );
}
