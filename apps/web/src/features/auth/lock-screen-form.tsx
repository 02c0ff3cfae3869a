import { LockOpen } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { PasswordField } from '../../components/bound-fields';
import { errorMessage } from '../../lib/api-errors';
import { authFailureOf, isApiError } from '../../lib/http';
import { queryClient } from '../../lib/query-client';
import { tokenStore, userStore } from '../../lib/storage-keys';
import { clearLocalSession, returnPath, sessionQueryKey, useSignOut } from '../../session/session';
import type { SessionUser } from '../../session/types';
import { authApi } from './api';
import { AuthForm } from './auth-form';
import { unlockRequestSchema } from './forms';
import { useAuthForm } from './use-auth-form';

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
  const [user] = useState(() => userStore.get<SessionUser>());
  const auth = useAuthForm(
    unlockRequestSchema,
    { password: '' },
    {
      fields: ['password'],
      send: async ({ password }) => {
        try {
          await authApi.unlock(password);
        } catch (error) {
          if (!isApiError(error) || authFailureOf(error) !== 'signedOut') throw error;
          clearLocalSession();
          queryClient.clear();
          await navigate('/auth/sign-in', { replace: true, state: location.state });
          return;
        }
        const current = queryClient.getQueryData<SessionUser>(sessionQueryKey);
        if (current) {
          queryClient.setQueryData(sessionQueryKey, { ...current, locked: false });
          void queryClient.invalidateQueries({ queryKey: sessionQueryKey });
        } else {
          // The check had failed with session_locked: start it again.
          queryClient.removeQueries({ queryKey: sessionQueryKey });
        }
        await navigate(returnPath(location.state), { replace: true });
      },
      // This screen has no e-mail field: sign-in's "e-mail or password" would not fit.
      problemOf: (error) =>
        isApiError(error) && error.code === 'invalid_credentials' ? t('lock.wrongPassword') : errorMessage(error),
    },
  );

  if (!tokenStore.get()) return <Navigate to="/auth/sign-in" replace state={location.state} />;

  const name = user?.completeName || user?.email || '';
  return (
    <AuthForm
      form={auth}
      step="lock"
      icon={LockOpen}
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
        form={auth.form}
        name="password"
        label={t('common.password')}
        autoComplete="current-password"
        autoFocus
        className="mb-4"
      />
    </AuthForm>
  );
}
