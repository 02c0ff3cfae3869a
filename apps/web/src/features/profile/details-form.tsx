import { zodResolver } from '@hookform/resolvers/zod';
import type { Profile } from '@odontia/shared/schemas/auth';
import { Save } from 'lucide-react';
import { useId } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { describedField, FormField } from '../../components/form-field';
import { PasswordInput } from '../../components/password-input';
import { toastApiError, toastSuccess } from '../../lib/api-toast';
import { useUpdateProfile } from './api';
import { detailsFormSchema } from './forms';
import { placeServerErrors } from './server-errors';

/** Name and e-mail; changing the e-mail asks for the current password. */
export function DetailsForm({ profile }: { profile: Profile }) {
  const { t } = useTranslation('profile');
  const id = useId();
  const update = useUpdateProfile();
  const {
    register,
    handleSubmit,
    setError,
    reset,
    control,
    formState: { errors, isSubmitting, isDirty },
  } = useForm({
    resolver: zodResolver(detailsFormSchema(profile.email)),
    defaultValues: { completeName: profile.completeName, email: profile.email, currentPassword: '' },
  });
  const email = useWatch({ control, name: 'email' });
  const emailChanged = email.trim().toLowerCase() !== profile.email.toLowerCase();

  const onSubmit = handleSubmit(async (values) => {
    const body = emailChanged
      ? { completeName: values.completeName, email: values.email, currentPassword: values.currentPassword }
      : { completeName: values.completeName };
    try {
      const answer = await update.mutateAsync(body);
      reset({ completeName: answer.data.completeName, email: answer.data.email, currentPassword: '' });
      toastSuccess(answer.code);
    } catch (error) {
      const placed = placeServerErrors(error, setError, ['completeName', 'email', 'currentPassword'], {
        current_password_incorrect: 'currentPassword',
        email_already_exists: 'email',
      });
      if (!placed) toastApiError(error);
    }
  });

  const nameId = `${id}-name`;
  const emailId = `${id}-email`;
  const passwordId = `${id}-current-password`;
  return (
    <form noValidate onSubmit={(event) => void onSubmit(event)} data-testid="profile-details">
      <FormField id={nameId} label={t('details.completeName')} error={errors.completeName?.message}>
        <input
          {...register('completeName')}
          {...describedField(nameId, errors.completeName?.message)}
          className={`form-control${errors.completeName ? ' is-invalid' : ''}`}
          autoComplete="name"
        />
      </FormField>
      <FormField id={emailId} label={t('details.email')} error={errors.email?.message} hint={t('details.emailHint')}>
        <input
          {...register('email')}
          {...describedField(emailId, errors.email?.message, true)}
          type="email"
          className={`form-control${errors.email ? ' is-invalid' : ''}`}
          autoComplete="email"
        />
      </FormField>
      {emailChanged ? (
        <FormField
          id={passwordId}
          label={t('details.currentPassword')}
          error={errors.currentPassword?.message}
          hint={t('details.currentPasswordHint')}
        >
          <PasswordInput
            {...register('currentPassword')}
            {...describedField(passwordId, errors.currentPassword?.message, true)}
            invalid={Boolean(errors.currentPassword)}
            autoComplete="current-password"
          />
        </FormField>
      ) : null}
      <div className="d-flex justify-content-end">
        <button type="submit" className="btn btn-primary" disabled={isSubmitting || !isDirty}>
          {isSubmitting ? (
            <span className="spinner-border spinner-border-sm me-2" aria-hidden="true" />
          ) : (
            <Save size={16} aria-hidden="true" className="me-2" />
          )}
          {t('details.save')}
        </button>
      </div>
    </form>
  );
}
