import { ArrowLeft, CircleCheck, KeyRound } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { portalErrorText } from '../errors';
import { PortalLayout } from '../layout';
import { portalPasswordApi, usePortalMe } from '../portal-session';
import { Link } from '../router';
import { SignedInActions } from '../signed-in';
import { ErrorAlert, Placeholder, PortalForm } from '../ui';
import { useFormSubmit } from '../use-submit';

/** The new password and its confirmation, as every password form of the app names them. */
const newPasswordFields = ['password', 'passwordConfirmation'] as const;

/**
 * `/portal/password` (issue 37): the patient's own password. Who entered by a link chooses one
 * (`PUT /portal/password`), then signs in with e-mail and password; who has one changes it with the
 * current one, as the staff do (`POST /auth/system/password`; the person's other sessions end). The
 * server checks the rules of the shared contract (at least 10 characters, not a common password,
 * both the same) and its codes show on their fields.
 */
export function PasswordPage() {
  const { t } = useTranslation();
  const { me, brand, error, signOut } = usePortalMe();
  const [done, setDone] = useState<'set' | 'changed' | null>(null);
  const firstPassword = useFormSubmit(newPasswordFields, async (values) => {
    await portalPasswordApi.setPassword({ body: values });
    setDone('set');
  });
  const change = useFormSubmit(
    ['currentPassword', ...newPasswordFields],
    async (values) => {
      await portalPasswordApi.changePassword({ body: values });
      setDone('changed');
    },
    { current_password_incorrect: 'currentPassword' },
  );
  const newFields = [
    {
      name: 'password',
      type: 'password',
      autoComplete: 'new-password',
      label: t('password.new'),
      hint: t('password.hint'),
    },
    { name: 'passwordConfirmation', type: 'password', autoComplete: 'new-password', label: t('password.confirmation') },
  ] as const;

  const hasPassword = me?.signIn.hasPassword ?? false;
  const title = hasPassword && done !== 'set' ? t('password.changeTitle') : t('password.setTitle');
  return (
    <PortalLayout brand={brand} title={title} actions={<SignedInActions me={me} signOut={signOut} />}>
      <h1 className="h3 mb-3">{title}</h1>
      {error ? (
        <ErrorAlert>{portalErrorText(error)}</ErrorAlert>
      ) : !me ? (
        <Placeholder testId="password-loading" minHeight="20rem" />
      ) : done ? (
        <div className="alert alert-success d-flex gap-2" role="status" data-testid="password-done">
          <CircleCheck size={20} aria-hidden="true" className="flex-shrink-0 mt-1" />
          <span>{t(`password.done.${done}`, { email: me.signIn.email })}</span>
        </div>
      ) : hasPassword ? (
        <>
          <p>{t('password.changeText')}</p>
          <PortalForm
            form={change}
            testId="password-form"
            submitTestId="password-save"
            fields={[
              {
                name: 'currentPassword',
                type: 'password',
                autoComplete: 'current-password',
                label: t('password.current'),
              },
              ...newFields,
            ]}
            submitLabel={t('password.save')}
            icon={KeyRound}
          />
        </>
      ) : (
        <>
          <p>{t('password.setText', { email: me.signIn.email })}</p>
          <PortalForm
            form={firstPassword}
            testId="password-form"
            submitTestId="password-save"
            fields={newFields}
            submitLabel={t('password.save')}
            icon={KeyRound}
          />
        </>
      )}
      {me ? (
        <p className="mt-4">
          <Link to="/portal" testId="password-back">
            <ArrowLeft size={18} aria-hidden="true" className="me-1" />
            {t('password.back')}
          </Link>
        </p>
      ) : null}
    </PortalLayout>
  );
}
