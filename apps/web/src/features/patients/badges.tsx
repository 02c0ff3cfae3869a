import type { Patient } from '@odontia/shared/schemas/patients';
import { AlertTriangle } from 'lucide-react';
import { useTranslation } from 'react-i18next';

export function PatientStatusBadge({ active }: { active: boolean }) {
  const { t } = useTranslation('patients');
  return (
    <span
      className={`badge ${active ? 'bg-success-subtle text-success-emphasis' : 'bg-secondary-subtle text-secondary-emphasis'}`}
      data-testid="patient-status"
    >
      {t(active ? 'status.active' : 'status.inactive')}
    </span>
  );
}

/**
 * A patient with clinical alerts, at a glance in lists: red with allergies, amber otherwise; the
 * alerts' names in the tooltip and for screen readers.
 */
export function AlertsBadge({
  patient,
}: {
  patient: Pick<Patient, 'allergies' | 'chronicConditions' | 'currentMedication'>;
}) {
  const { t } = useTranslation('patients');
  const kinds = (['allergies', 'chronicConditions', 'currentMedication'] as const).filter((key) =>
    patient[key]?.trim(),
  );
  if (!kinds.length) return null;
  const text = `${t('alerts.title')}: ${kinds.map((key) => t(`fields.${key}`)).join(', ')}`;
  return (
    <span
      className={`badge patient-alerts-badge ${patient.allergies?.trim() ? 'text-bg-danger' : 'text-bg-warning'}`}
      title={text}
      data-testid="alerts-badge"
    >
      <AlertTriangle size={12} aria-hidden="true" />
      <span className="visually-hidden">{text}</span>
    </span>
  );
}
