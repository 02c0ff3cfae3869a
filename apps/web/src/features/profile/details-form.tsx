import type { Profile } from '@odontia/shared/schemas/auth';
import { Save } from 'lucide-react';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { BoundFields } from '../../components/bound-fields';
import { BusyIcon } from '../../components/busy-icon';
import { toastApiError, toastSuccess } from '../../lib/api-toast';
import { formResolver, useFormErrors } from '../../lib/form-errors';
import { useUpdateProfile } from './api';
import { detailsFormSchema } from './forms';

/** Name and e-mail; changing the e-mail asks for the current password. */
export function DetailsForm({ profile }: { profile: Profile }) {
  const { t } = useTranslation('profile');
  const update = useUpdateProfile();
  const formErrors = useFormErrors();
  const form = useForm({
    resolver: formResolver(detailsFormSchema(profile.email)),
    defaultValues: {
      completeName: profile.completeName,
      email: profile.email,
      currentPassword: '',
      licenseNumber: profile.licenseNumber ?? '',
      specialty: profile.specialty ?? '',
    },
  });
  const {
    handleSubmit,
    setError,
    reset,
    control,
    formState: { isSubmitting, isDirty },
  } = form;
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

  return (
    <form ref={formErrors.ref} noValidate onSubmit={(event) => void onSubmit(event)} data-testid="profile-details">
      <BoundFields
        form={form}
        fields={[
          { name: 'completeName', label: t('details.completeName'), autoComplete: 'name', className: 'mb-3' },
          {
            name: 'email',
            label: t('details.email'),
            hint: t('details.emailHint'),
            type: 'email',
            autoComplete: 'email',
            className: 'mb-3',
          },
          ...(emailChanged
            ? [
                {
                  password: true as const,
                  name: 'currentPassword' as const,
                  label: t('details.currentPassword'),
                  hint: t('details.currentPasswordHint'),
                  autoComplete: 'current-password' as const,
                  className: 'mb-3',
                },
              ]
            : []),
        ]}
      />
      <div className="row g-3 mb-3">
        <BoundFields
          form={form}
          fields={[
            {
              name: 'licenseNumber',
              label: t('details.licenseNumber'),
              testId: 'profile-license',
              className: 'col-sm-5',
            },
            { name: 'specialty', label: t('details.specialty'), testId: 'profile-specialty', className: 'col-sm-7' },
          ]}
        />
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
