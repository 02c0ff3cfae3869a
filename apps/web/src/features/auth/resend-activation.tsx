import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormAlert } from '../../components/form-feedback';
import { errorMessage } from '../../lib/api-errors';
import { authApi } from './api';

/** "Didn't get it? Send it again": POST /api/auth/resend-activation. */
export function ResendActivation({ email }: { email: string }) {
  const { t } = useTranslation('auth');
  const [state, setState] = useState<'idle' | 'sending' | 'sent'>('idle');
  const [problem, setProblem] = useState<string | null>(null);

  const send = async () => {
    setState('sending');
    setProblem(null);
    try {
      await authApi.resendActivation(email);
      setState('sent');
    } catch (error) {
      setProblem(errorMessage(error));
      setState('idle');
    }
  };

  if (state === 'sent') {
    return <FormAlert variant="success">{t('signIn.activationSent', { email })}</FormAlert>;
  }
  return (
    <>
      {problem ? <FormAlert>{problem}</FormAlert> : null}
      <button
        type="button"
        className="btn btn-outline-secondary w-100"
        onClick={() => void send()}
        disabled={state === 'sending'}
      >
        {t('signUp.resend')}
      </button>
    </>
  );
}
