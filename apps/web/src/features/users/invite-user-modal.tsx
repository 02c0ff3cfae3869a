import '../../lib/zod-setup';
import { staffLevels } from '@odontia/shared/enums';
import { inviteUserRequestSchema } from '@odontia/shared/schemas/users';
import { Send } from 'lucide-react';
import { useId } from 'react';
import Modal from 'react-bootstrap/Modal';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { SelectField, TextField } from '../../components/bound-fields';
import { BusyIcon } from '../../components/busy-icon';
import { toastApiError, toastSuccess } from '../../lib/api-toast';
import { formResolver, useFormErrors } from '../../lib/form-errors';
import { useInviteUser } from './api';

/** Invite by e-mail: the invitation link lets the new user choose a password and activates them. */
export function InviteUserModal({ show, onClose }: { show: boolean; onClose: () => void }) {
  const { t } = useTranslation(['users', 'layout', 'common']);
  const id = useId();
  const invite = useInviteUser();
  const formErrors = useFormErrors();
  const form = useForm({
    resolver: formResolver(inviteUserRequestSchema),
    defaultValues: { completeName: '', email: '', level: 'user' as const },
  });
  const {
    handleSubmit,
    setError,
    reset,
    formState: { isSubmitting },
  } = form;

  const close = () => {
    reset();
    onClose();
  };

  const onSubmit = handleSubmit(async (values) => {
    try {
      const answer = await invite.mutateAsync(values);
      toastSuccess(answer.code);
      close();
    } catch (error) {
      const placed = formErrors.place(error, setError, {
        fields: ['completeName', 'email', 'level'],
        codeFields: { email_already_exists: 'email' },
      });
      if (!placed) toastApiError(error);
    }
  }, formErrors.onInvalid);

  return (
    <Modal show={show} onHide={close} centered aria-labelledby={`${id}-title`}>
      <form ref={formErrors.ref} noValidate onSubmit={(event) => void onSubmit(event)} data-testid="invite-user">
        <Modal.Header closeButton closeLabel={t('common:close')}>
          <Modal.Title id={`${id}-title`} as="h2" className="h5">
            {t('users:invite.title')}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <p className="text-body-secondary small">{t('users:invite.text')}</p>
          <TextField form={form} name="completeName" label={t('users:invite.completeName')} className="mb-3" />
          <TextField form={form} name="email" label={t('users:invite.email')} type="email" className="mb-3" />
          <SelectField
            form={form}
            name="level"
            label={t('users:invite.level')}
            options={staffLevels.map((level) => ({ value: level, label: t(`layout:levels.${level}`) }))}
          />
        </Modal.Body>
        <Modal.Footer>
          <button type="button" className="btn btn-outline-secondary" onClick={close}>
            {t('users:cancel')}
          </button>
          <button type="submit" className="btn btn-primary" disabled={isSubmitting}>
            <BusyIcon busy={isSubmitting} icon={Send} />
            {t('users:invite.submit')}
          </button>
        </Modal.Footer>
      </form>
    </Modal>
  );
}
