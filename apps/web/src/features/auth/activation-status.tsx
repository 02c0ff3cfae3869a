import { CircleAlert, CircleCheck, RotateCw } from 'lucide-react';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Spinner } from '../../components/spinner';
import { errorMessage } from '../../lib/api-errors';
import { isApiError } from '../../lib/http';
import { authApi } from './api';
import { AuthResult } from './auth-parts';

type ActivationState =
  | { status: 'loading' }
  | { status: 'success' }
  | { status: 'alreadyActivated' }
  | { status: 'error'; message: string };

// One call per token and page load, even when React mounts the component twice (StrictMode).
const inFlight = new Map<string, Promise<unknown>>();

function activate(token: string): Promise<unknown> {
  let call = inFlight.get(token);
  if (!call) {
    call = authApi.activate(token);
    inFlight.set(token, call);
  }
  return call;
}

/** `/auth/activation/:token`: loading, success, already activated, or error with retry (spec §4). */
export function ActivationStatus({ token }: { token: string }) {
  const { t } = useTranslation('auth');
  const [state, setState] = useState<ActivationState>({ status: 'loading' });

  const run = useCallback(() => {
    let current = true;
    setState({ status: 'loading' });
    activate(token).then(
      () => current && setState({ status: 'success' }),
      (error: unknown) => {
        inFlight.delete(token);
        if (!current) return;
        if (isApiError(error) && error.code === 'account_already_activated') setState({ status: 'alreadyActivated' });
        else setState({ status: 'error', message: errorMessage(error) });
      },
    );
    return () => {
      current = false;
    };
  }, [token]);

  useEffect(() => run(), [run]);

  if (state.status === 'loading') {
    return (
      <div className="auth-result" data-testid="activation-loading" aria-busy="true">
        <Spinner size={8} />
        <h1 className="auth-title mt-3">{t('activation.loading')}</h1>
      </div>
    );
  }

  if (state.status === 'error') {
    return (
      <AuthResult testId="activation-error" tone="danger" icon={CircleAlert} title={t('activation.errorTitle')}>
        <p className="auth-subtitle mb-2">{state.message}</p>
        <p className="auth-subtitle">{t('activation.errorText')}</p>
        <button type="button" className="btn btn-primary w-100" onClick={() => run()}>
          <RotateCw size={18} aria-hidden="true" className="me-2" />
          {t('activation.retry')}
        </button>
        <Link to="/auth/sign-in" className="btn btn-link w-100 mt-2">
          {t('common.backToSignIn')}
        </Link>
      </AuthResult>
    );
  }

  const already = state.status === 'alreadyActivated';
  return (
    <AuthResult
      testId={already ? 'activation-already' : 'activation-success'}
      tone="success"
      icon={CircleCheck}
      title={already ? t('activation.alreadyTitle') : t('activation.successTitle')}
    >
      <p className="auth-subtitle">{already ? t('activation.alreadyText') : t('activation.successText')}</p>
      <Link to="/auth/sign-in" className="btn btn-primary btn-lg w-100">
        {t('activation.signIn')}
      </Link>
    </AuthResult>
  );
}
