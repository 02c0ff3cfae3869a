import { KeyRound } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { PasswordField } from '../../components/bound-fields';
import { BusyIcon } from '../../components/busy-icon';
import { toastApiError, toastSuccess } from '../../lib/api-toast';
import { formResolver, useFormErrors } from '../../lib/form-errors';
import { useSessionUser } from '../../session/session';
import { useChangePassword } from './api';
import { passwordFormSchema } from './forms';

/** Current password, new one and its confirmation; the user's other sessions end. */
export function PasswordForm() {
  const { t } = useTranslation('profile');
  const change = useChangePassword();
  // One sign-in across clinics (issue 19): the password is the person's, in every clinic.
  const clinicCount = useSessionUser()?.clinics?.length ?? 1;
  const formErrors = useFormErrors();
  const form = useForm({
    resolver: formResolver(passwordFormSchema),
    defaultValues: { currentPassword: '', password: '', passwordConfirmation: '' },
  });
  const {
    handleSubmit,
    setError,
    reset,
    formState: { isSubmitting },
  } = form;

  const onSubmit = handleSubmit(async (values) => {
    try {
      const answer = await change.mutateAsync(values);
      reset();
      toastSuccess(answer.code);
    } catch (error) {
      const placed = formErrors.place(error, setError, {
        fields: ['currentPassword', 'password', 'passwordConfirmation'],
        codeFields: { current_password_incorrect: 'currentPassword' },
      });
      if (!placed) toastApiError(error);
    }
  }, formErrors.onInvalid);

  const fields = [
    { name: 'currentPassword', label: t('password.current'), autoComplete: 'current-password', hint: undefined },
    { name: 'password', label: t('password.new'), autoComplete: 'new-password', hint: t('password.hint') },
    { name: 'passwordConfirmation', label: t('password.confirmation'), autoComplete: 'new-password', hint: undefined },
  ] as const;

  return (
    <form ref={formErrors.ref} noValidate onSubmit={(event) => void onSubmit(event)} data-testid="profile-password">
      <p className="text-body-secondary small">{t('password.otherSessions')}</p>
      {clinicCount > 1 ? (
        <p className="text-body-secondary small" data-testid="profile-password-all-clinics">
          {t('password.allClinics', { count: clinicCount })}
        </p>
      ) : null}
      {fields.map((field) => (
        <PasswordField key={field.name} form={form} {...field} className="mb-3" />
      ))}
      <div className="d-flex justify-content-end">
        <button type="submit" className="btn btn-primary" disabled={isSubmitting}>
          <BusyIcon busy={isSubmitting} icon={KeyRound} />
          {t('password.save')}
        </button>
      </div>
    </form>
  );
}
