import '../auth/zod-setup';
import type { ClinicUser } from '@odontia/shared/schemas/users';
import { Save } from 'lucide-react';
import { useId } from 'react';
import Modal from 'react-bootstrap/Modal';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { BusyIcon } from '../../components/busy-icon';
import { describedField, FormField } from '../../components/form-field';
import { toastApiError, toastSuccess } from '../../lib/api-toast';
import { formResolver, useFormErrors } from '../../lib/form-errors';
import { useUpdateUser } from './api';

const professionalSchema = z.object({
  licenseNumber: z.string().trim().max(60, 'too_long'),
  specialty: z.string().trim().max(120, 'too_long'),
});
type ProfessionalValues = z.infer<typeof professionalSchema>;

/** An administrator edits a user's licence (matrícula) and specialty, printed on their prescriptions. */
export function ProfessionalModal({ user, onClose }: { user: ClinicUser | null; onClose: () => void }) {
  return (
    <Modal show={user !== null} onHide={onClose} centered aria-labelledby="user-professional-title">
      {user ? <ProfessionalForm key={`${user.id}-${user.version}`} user={user} onClose={onClose} /> : null}
    </Modal>
  );
}

function ProfessionalForm({ user, onClose }: { user: ClinicUser; onClose: () => void }) {
  const { t } = useTranslation(['users', 'common']);
  const id = useId();
  const update = useUpdateUser();
  const formErrors = useFormErrors();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<ProfessionalValues>({
    resolver: formResolver(professionalSchema),
    defaultValues: { licenseNumber: user.licenseNumber ?? '', specialty: user.specialty ?? '' },
  });
  const onSubmit = handleSubmit(async (values) => {
    try {
      const answer = await update.mutateAsync({ id: user.id, version: user.version, ...values });
      toastSuccess(answer.code);
      onClose();
    } catch (error) {
      if (!formErrors.place(error, setError, { fields: ['licenseNumber', 'specialty'] })) toastApiError(error);
    }
  }, formErrors.onInvalid);
  const licenseId = `${id}-license`;
  const specialtyId = `${id}-specialty`;
  return (
    <form ref={formErrors.ref} noValidate onSubmit={(event) => void onSubmit(event)} data-testid="user-professional">
      <Modal.Header closeButton closeLabel={t('common:close')}>
        <Modal.Title id="user-professional-title" as="h2" className="h5">
          {t('professional.title')}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <p className="text-body-secondary">{t('professional.text', { name: user.completeName })}</p>
        <FormField id={licenseId} label={t('professional.licenseNumber')} error={errors.licenseNumber?.message}>
          <input
            {...register('licenseNumber')}
            {...describedField(licenseId, errors.licenseNumber?.message)}
            className={`form-control${errors.licenseNumber ? ' is-invalid' : ''}`}
            autoComplete="off"
          />
        </FormField>
        <FormField
          id={specialtyId}
          label={t('professional.specialty')}
          error={errors.specialty?.message}
          className="mb-0"
        >
          <input
            {...register('specialty')}
            {...describedField(specialtyId, errors.specialty?.message)}
            className={`form-control${errors.specialty ? ' is-invalid' : ''}`}
            autoComplete="off"
          />
        </FormField>
      </Modal.Body>
      <Modal.Footer>
        <button type="button" className="btn btn-outline-secondary" onClick={onClose}>
          {t('cancel')}
        </button>
        <button type="submit" className="btn btn-primary" disabled={isSubmitting || !isDirty}>
          <BusyIcon busy={isSubmitting} icon={Save} />
          {t('professional.save')}
        </button>
      </Modal.Footer>
    </form>
  );
}
