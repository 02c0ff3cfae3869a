import { LockOpen } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { PasswordField } from '../../components/bound-fields';
import { errorMessage } from '../../lib/api-errors';
import { formResolver, useFormErrors } from '../../lib/form-errors';
import { authFailureOf, isApiError } from '../../lib/http';
import { queryClient } from '../../lib/query-client';
import { tokenStore, userStore } from '../../lib/storage-keys';
import { clearLocalSession, returnPath, sessionQueryKey, useSignOut } from '../../session/session';
import type { SessionUser } from '../../session/types';
import { authApi } from './api';
import { AuthForm } from './auth-parts';
import { unlockRequestSchema } from './forms';

function initialsOf(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  const letters = parts.length > 1 ? `${parts[0]?.[0] ?? ''}${parts.at(-1)?.[0] ?? ''}` : (parts[0]?.slice(0, 2) ?? '');
  return letters.toUpperCase() || '?';
}

/** `/auth/lock-screen`: the user's name and the password; then back to where they were. */
export function LockScreenForm() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const location = useLocation();
  const signOut = useSignOut();
  const [problem, setProblem] = useState<string | null>(null);
  const [user] = useState(() => userStore.get<SessionUser>());
  const formErrors = useFormErrors();
  const form = useForm({ resolver: formResolver(unlockRequestSchema), defaultValues: { password: '' } });
  const {
    handleSubmit,
    setError,
    formState: { isSubmitting },
  } = form;

  const onSubmit = handleSubmit(
    async ({ password }) => {
      setProblem(null);
      try {
        await authApi.unlock(password);
        const current = queryClient.getQueryData<SessionUser>(sessionQueryKey);
        if (current) {
          queryClient.setQueryData(sessionQueryKey, { ...current, locked: false });
          void queryClient.invalidateQueries({ queryKey: sessionQueryKey });
        } else {
          // The check had failed with session_locked: start it again.
          queryClient.removeQueries({ queryKey: sessionQueryKey });
        }
        await navigate(returnPath(location.state), { replace: true });
      } catch (error) {
        if (isApiError(error) && authFailureOf(error) === 'signedOut') {
          clearLocalSession();
          queryClient.clear();
          await navigate('/auth/sign-in', { replace: true, state: location.state });
          return;
        }
        if (formErrors.place(error, setError, { fields: ['password'] })) return;
        // This screen has no e-mail field: sign-in's "e-mail or password" would not fit.
        setProblem(
          isApiError(error) && error.code === 'invalid_credentials' ? t('lock.wrongPassword') : errorMessage(error),
        );
      }
    },
    () => {
      // A new mistake replaces the last answer: no stale message beside it.
      setProblem(null);
      formErrors.onInvalid();
    },
  );

  if (!tokenStore.get()) return <Navigate to="/auth/sign-in" replace state={location.state} />;

  const name = user?.completeName || user?.email || '';
  return (
    <AuthForm
      ref={formErrors.ref}
      onSubmit={onSubmit}
      title={t('lock.title')}
      subtitle={t('lock.subtitle')}
      problem={problem}
      header={
        <div className="lock-user">
          <span className="avatar avatar-lg" aria-hidden="true">
            {initialsOf(name)}
          </span>
          <p className="lock-user-name" data-testid="lock-user-name">
            {name}
          </p>
          {user?.email && user.email !== name ? <p className="lock-user-email">{user.email}</p> : null}
        </div>
      }
      submit={{ busy: isSubmitting, icon: LockOpen, label: t('lock.submit'), busyLabel: t('lock.submitting') }}
      footer={
        <>
          {name ? t('lock.notYou', { name }) : null}{' '}
          <button type="button" className="btn btn-link p-0 align-baseline" onClick={() => void signOut()}>
            {t('lock.signOut')}
          </button>
        </>
      }
    >
      {/* For password managers: the account being unlocked. */}
      <input type="email" name="username" autoComplete="username" value={user?.email ?? ''} readOnly hidden />
      <PasswordField
        form={form}
        name="password"
        label={t('common.password')}
        autoComplete="current-password"
        autoFocus
        className="mb-4"
      />
    </AuthForm>
  );
}
