import { LogIn, MailCheck } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { FieldFeedback, FormAlert } from '../../components/form-feedback';
import { PasswordInput } from '../../components/password-input';
import { errorMessage, fieldErrorsOf, fieldMessage } from '../../lib/api-errors';
import { isApiError } from '../../lib/http';
import { returnPath, storeSession } from '../../session/session-store';
import { authApi } from './api';
import { AuthSubmit } from './auth-parts';
import { type SignInErrors, type SignInValues, signInBody, validateSignIn } from './sign-in-validation';

type ServerProblem = { code: string; text: string } | null;

/** `/auth/sign-in`: e-mail, password, remember me (spec §2); then the page first asked for. */
export function SignInForm() {
  const { t } = useTranslation('auth');
  const id = useId();
  const navigate = useNavigate();
  const location = useLocation();
  const [values, setValues] = useState<SignInValues>({ email: '', password: '', remember: false });
  const [errors, setErrors] = useState<SignInErrors>({});
  const [submitted, setSubmitted] = useState(false);
  const [pending, setPending] = useState(false);
  const [problem, setProblem] = useState<ServerProblem>(null);
  const [resend, setResend] = useState<'idle' | 'sending' | 'sent'>('idle');

  const update = <K extends keyof SignInValues>(field: K, value: SignInValues[K]) => {
    const next = { ...values, [field]: value };
    setValues(next);
    // After the first attempt, messages follow the typing.
    if (submitted) setErrors(validateSignIn(next));
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    const found = validateSignIn(values);
    setErrors(found);
    if (Object.keys(found).length > 0) {
      document.getElementById(`${id}-${Object.keys(found)[0]}`)?.focus();
      return;
    }
    setPending(true);
    setProblem(null);
    setResend('idle');
    try {
      const answer = await authApi.signIn(signInBody(values));
      storeSession(answer.data, values.remember);
      // The query library is not part of this page: load the cache now and seed the session check.
      const { queryClient, sessionQueryKey } = await import('../../lib/query-client');
      queryClient.setQueryData(sessionQueryKey, answer.data.user);
      await navigate(returnPath(location.state), { replace: true });
    } catch (error) {
      const fields = fieldErrorsOf(error);
      if (fields.length > 0) {
        setErrors(Object.fromEntries(fields.map((field) => [field.path, field.code])));
      } else {
        setProblem({ code: isApiError(error) ? error.code : 'systemError', text: errorMessage(error) });
      }
      setPending(false);
    }
  };

  const resendActivation = async () => {
    setResend('sending');
    try {
      await authApi.resendActivation(signInBody(values).email);
      setResend('sent');
    } catch (error) {
      setResend('idle');
      setProblem({ code: isApiError(error) ? error.code : 'systemError', text: errorMessage(error) });
    }
  };

  const emailId = `${id}-email`;
  const passwordId = `${id}-password`;

  return (
    <form noValidate onSubmit={onSubmit} className="auth-form" aria-describedby={problem ? `${id}-problem` : undefined}>
      <h1 className="auth-title">{t('signIn.title')}</h1>
      <p className="auth-subtitle">{t('signIn.subtitle')}</p>

      {problem ? (
        <div id={`${id}-problem`}>
          <FormAlert testId="form-error">
            <span>{problem.text}</span>
            {problem.code === 'account_not_activated' && resend !== 'sent' ? (
              <button
                type="button"
                className="btn btn-link alert-link p-0 mt-1 d-block text-start"
                onClick={() => void resendActivation()}
                disabled={resend === 'sending'}
              >
                {t('signIn.resendActivation')}
              </button>
            ) : null}
          </FormAlert>
        </div>
      ) : null}
      {resend === 'sent' ? (
        <FormAlert variant="success" testId="form-success">
          <MailCheck size={18} aria-hidden="true" className="me-2 flex-shrink-0" />
          {t('signIn.activationSent', { email: signInBody(values).email })}
        </FormAlert>
      ) : null}

      <div className="mb-3">
        <label htmlFor={emailId} className="form-label">
          {t('common.email')}
        </label>
        <input
          id={emailId}
          name="email"
          type="email"
          inputMode="email"
          autoComplete="username"
          className={`form-control${errors.email ? ' is-invalid' : ''}`}
          placeholder={t('common.emailPlaceholder')}
          value={values.email}
          onChange={(event) => update('email', event.target.value)}
          aria-invalid={Boolean(errors.email) || undefined}
          aria-describedby={errors.email ? `${emailId}-error` : undefined}
        />
        <FieldFeedback id={`${emailId}-error`} message={fieldMessage(errors.email)} />
      </div>

      <div className="mb-3">
        <div className="d-flex justify-content-between align-items-baseline gap-2">
          <label htmlFor={passwordId} className="form-label">
            {t('common.password')}
          </label>
          <Link to="/auth/forgot-password" className="small auth-inline-link">
            {t('signIn.forgot')}
          </Link>
        </div>
        <PasswordInput
          id={passwordId}
          name="password"
          autoComplete="current-password"
          value={values.password}
          invalid={Boolean(errors.password)}
          onChange={(event) => update('password', event.target.value)}
          aria-describedby={errors.password ? `${passwordId}-error` : undefined}
        />
        <FieldFeedback id={`${passwordId}-error`} message={fieldMessage(errors.password)} />
      </div>

      <div className="form-check mb-4">
        <input
          id={`${id}-remember`}
          type="checkbox"
          className="form-check-input"
          checked={values.remember}
          onChange={(event) => update('remember', event.target.checked)}
        />
        <label htmlFor={`${id}-remember`} className="form-check-label">
          {t('signIn.remember')}
        </label>
      </div>

      <AuthSubmit busy={pending} icon={LogIn} label={t('signIn.submit')} busyLabel={t('signIn.submitting')} />

      <p className="auth-footer-text">
        {t('signIn.noAccount')} <Link to="/auth/sign-up">{t('signIn.signUp')}</Link>
      </p>
    </form>
  );
}
