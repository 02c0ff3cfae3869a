import type { Profile } from '@odontia/shared/schemas/auth';
import { Save } from 'lucide-react';
import { useId } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { BusyIcon } from '../../components/busy-icon';
import { describedField, FormField } from '../../components/form-field';
import { PasswordInput } from '../../components/password-input';
import { toastApiError, toastSuccess } from '../../lib/api-toast';
import { formResolver, useFormErrors } from '../../lib/form-errors';
import { useUpdateProfile } from './api';
import { detailsFormSchema } from './forms';

/** Name and e-mail; changing the e-mail asks for the current password. */
export function DetailsForm({ profile }: { profile: Profile }) {
  const { t } = useTranslation('profile');
  const id = useId();
  const update = useUpdateProfile();
  const formErrors = useFormErrors();
  const {
    register,
    handleSubmit,
    setError,
    reset,
    control,
    formState: { errors, isSubmitting, isDirty },
  } = useForm({
    resolver: formResolver(detailsFormSchema(profile.email)),
    defaultValues: {
      completeName: profile.completeName,
      email: profile.email,
      currentPassword: '',
      licenseNumber: profile.licenseNumber ?? '',
      specialty: profile.specialty ?? '',
    },
  });
  const email = useWatch({ control, name: 'email' });
  const emailChanged = email.trim().toLowerCase() !== profile.email.toLowerCase();

  const onSubmit = handleSubmit(async (values) => {
    const professional = { licenseNumber: values.licenseNumber, specialty: values.specialty };
    const body = emailChanged
      ? {
          completeName: values.completeName,
          email: values.email,
          currentPassword: values.currentPassword,
          ...professional,
        }
      : { completeName: values.completeName, ...professional };
    try {
      const answer = await update.mutateAsync(body);
      reset({
        completeName: answer.data.completeName,
        email: answer.data.email,
        currentPassword: '',
        licenseNumber: answer.data.licenseNumber ?? '',
        specialty: answer.data.specialty ?? '',
      });
      toastSuccess(answer.code);
    } catch (error) {
      const placed = formErrors.place(error, setError, {
        fields: ['completeName', 'email', 'currentPassword', 'licenseNumber', 'specialty'],
        codeFields: { current_password_incorrect: 'currentPassword', email_already_exists: 'email' },
      });
      if (!placed) toastApiError(error);
    }
  }, formErrors.onInvalid);

  const nameId = `${id}-name`;
  const emailId = `${id}-email`;
  const passwordId = `${id}-current-password`;
  const licenseId = `${id}-license`;
  const specialtyId = `${id}-specialty`;
  return (
    <form ref={formErrors.ref} noValidate onSubmit={(event) => void onSubmit(event)} data-testid="profile-details">
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
      <div className="row g-3 mb-3">
        <div className="col-sm-5">
          <FormField
            id={licenseId}
            label={t('details.licenseNumber')}
            error={errors.licenseNumber?.message}
            className="mb-0"
          >
            <input
              {...register('licenseNumber')}
              {...describedField(licenseId, errors.licenseNumber?.message)}
              className={`form-control${errors.licenseNumber ? ' is-invalid' : ''}`}
              autoComplete="off"
              data-testid="profile-license"
            />
          </FormField>
        </div>
        <div className="col-sm-7">
          <FormField id={specialtyId} label={t('details.specialty')} error={errors.specialty?.message} className="mb-0">
            <input
              {...register('specialty')}
              {...describedField(specialtyId, errors.specialty?.message)}
              className={`form-control${errors.specialty ? ' is-invalid' : ''}`}
              autoComplete="off"
              data-testid="profile-specialty"
            />
          </FormField>
        </div>
        <div className="col-12 form-text mt-1">{t('details.professionalHint')}</div>
      </div>
      <div className="d-flex justify-content-end">
        <button type="submit" className="btn btn-primary" disabled={isSubmitting || !isDirty}>
          <BusyIcon busy={isSubmitting} icon={Save} />
          {t('details.save')}
        </button>
      </div>
    </form>
  );
}
