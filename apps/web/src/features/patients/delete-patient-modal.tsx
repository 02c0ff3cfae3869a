import type { Patient } from '@odontia/shared/schemas/patients';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ConfirmDelete } from '../../components/confirm-delete';
import { errorMessage } from '../../lib/api-errors';
import { toastSuccess } from '../../lib/api-toast';
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
  const { t } = useTranslation('patients');
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
    <ConfirmDelete
      show={show}
      title={t('delete.title')}
      onCancel={close}
      onConfirm={() => void confirm()}
      pending={remove.isPending}
      problem={problem}
      testId="delete-patient"
    >
      <p>{t('delete.text', { name: patientName(patient), sku: patient.skuPatient })}</p>
      <p className="mb-0 fw-semibold text-danger-emphasis">{t('delete.permanent')}</p>
    </ConfirmDelete>
  );
}
