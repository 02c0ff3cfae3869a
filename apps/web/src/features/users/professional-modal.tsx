import '../../lib/zod-setup';
import type { ClinicUser } from '@odontia/shared/schemas/users';
import { Save } from 'lucide-react';
import Modal from 'react-bootstrap/Modal';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { TextField } from '../../components/bound-fields';
import { BusyIcon } from '../../components/busy-icon';
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
  const update = useUpdateUser();
  const formErrors = useFormErrors();
  const form = useForm<ProfessionalValues>({
    resolver: formResolver(professionalSchema),
    defaultValues: { licenseNumber: user.licenseNumber ?? '', specialty: user.specialty ?? '' },
  });
  const {
    handleSubmit,
    setError,
    formState: { isSubmitting, isDirty },
  } = form;
  const onSubmit = handleSubmit(async (values) => {
    try {
      const answer = await update.mutateAsync({ id: user.id, version: user.version, ...values });
      toastSuccess(answer.code);
      onClose();
    } catch (error) {
      if (!formErrors.place(error, setError, { fields: ['licenseNumber', 'specialty'] })) toastApiError(error);
    }
  }, formErrors.onInvalid);
  return (
    <form ref={formErrors.ref} noValidate onSubmit={(event) => void onSubmit(event)} data-testid="user-professional">
      <Modal.Header closeButton closeLabel={t('common:close')}>
        <Modal.Title id="user-professional-title" as="h2" className="h5">
          {t('professional.title')}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <p className="text-body-secondary">{t('professional.text', { name: user.completeName })}</p>
        <TextField form={form} name="licenseNumber" label={t('professional.licenseNumber')} className="mb-3" />
        <TextField form={form} name="specialty" label={t('professional.specialty')} className="mb-0" />
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
