import type { ClinicUser } from '@odontia/shared/schemas/users';
import { UserX } from 'lucide-react';
import { useState } from 'react';
import Modal from 'react-bootstrap/Modal';
import { useTranslation } from 'react-i18next';
import { BusyIcon } from '../../components/busy-icon';
import { FormAlert } from '../../components/form-feedback';
import { errorMessage } from '../../lib/api-errors';
import { toastSuccess } from '../../lib/api-toast';
import { useUpdateUser } from './api';

/** Asks before deactivating: the user can no longer sign in and their open sessions end. */
export function DeactivateUserModal({ user, onClose }: { user: ClinicUser | null; onClose: () => void }) {
  const { t } = useTranslation(['users', 'common']);
  const update = useUpdateUser();
  const [problem, setProblem] = useState<string | null>(null);

  const close = () => {
    setProblem(null);
    update.reset();
    onClose();
  };

  const confirm = async () => {
    if (!user) return;
    setProblem(null);
    try {
      const answer = await update.mutateAsync({ id: user.id, active: false, version: user.version });
      toastSuccess(answer.code);
      close();
    } catch (error) {
      setProblem(errorMessage(error));
    }
  };

  return (
    <Modal show={user !== null} onHide={close} centered aria-labelledby="deactivate-user-title">
      <div data-testid="deactivate-user">
        <Modal.Header closeButton closeLabel={t('common:close')}>
          <Modal.Title id="deactivate-user-title" as="h2" className="h5">
            {t('deactivate.title')}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          {problem ? <FormAlert testId="deactivate-error">{problem}</FormAlert> : null}
          <p className="mb-0">{t('deactivate.text', { name: user?.completeName ?? '' })}</p>
        </Modal.Body>
        <Modal.Footer>
          <button type="button" className="btn btn-outline-secondary" onClick={close}>
            {t('cancel')}
          </button>
          <button type="button" className="btn btn-danger" disabled={update.isPending} onClick={() => void confirm()}>
            <BusyIcon busy={update.isPending} icon={UserX} />
            {t('deactivate.confirm')}
          </button>
        </Modal.Footer>
      </div>
    </Modal>
  );
}
