import type { Patient } from '@odontia/shared/schemas/patients';
import { Trash2 } from 'lucide-react';
import { useState } from 'react';
import Modal from 'react-bootstrap/Modal';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { FormAlert } from '../../components/form-feedback';
import { toastSuccess } from '../../lib/api-toast';
import { errorMessage } from '../auth/api-errors';
import { forgetPatient, patientPaths, useDeletePatient } from './api';
import { patientName } from './format';

/** Asks before deleting a patient (spec §8: "deletion is permanent"), then back to the list. */
export function DeletePatientModal({
  patient,
  show,
  onClose,
}: {
  patient: Patient;
  show: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation(['patients', 'common']);
  const navigate = useNavigate();
  const remove = useDeletePatient(patient.id);
  const [problem, setProblem] = useState<string | null>(null);

  const close = () => {
    setProblem(null);
    remove.reset();
    onClose();
  };

  const confirm = async () => {
    setProblem(null);
    try {
      const answer = await remove.mutateAsync();
      toastSuccess(answer.code);
      await navigate(patientPaths.list, { replace: true });
      forgetPatient(patient.id);
    } catch (error) {
      setProblem(errorMessage(error));
    }
  };

  return (
    <Modal show={show} onHide={close} centered aria-labelledby="delete-patient-title">
      <div data-testid="delete-patient">
        <Modal.Header closeButton closeLabel={t('common:close')}>
          <Modal.Title id="delete-patient-title" as="h2" className="h5">
            {t('delete.title')}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          {problem ? <FormAlert testId="delete-error">{problem}</FormAlert> : null}
          <p>{t('delete.text', { name: patientName(patient), sku: patient.skuPatient })}</p>
          <p className="mb-0 fw-semibold text-danger-emphasis">{t('delete.permanent')}</p>
        </Modal.Body>
        <Modal.Footer>
          <button type="button" className="btn btn-outline-secondary" onClick={close}>
            {t('delete.cancel')}
          </button>
          <button
            type="button"
            className="btn btn-danger"
            disabled={remove.isPending}
            onClick={() => void confirm()}
            data-testid="delete-confirm"
          >
            {remove.isPending ? (
              <span className="spinner-border spinner-border-sm me-2" aria-hidden="true" />
            ) : (
              <Trash2 size={16} aria-hidden="true" className="me-2" />
            )}
            {t('delete.confirm')}
          </button>
        </Modal.Footer>
      </div>
    </Modal>
  );
}
