import type { Patient } from '@odontia/shared/schemas/patients';
import { AlertTriangle, HeartPulse, Pill } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

type Alerts = Pick<Patient, 'allergies' | 'chronicConditions' | 'currentMedication'>;

function Alert({
  kind,
  variant,
  icon,
  label,
  text,
}: {
  kind: keyof Alerts;
  variant: 'danger' | 'warning';
  icon: ReactNode;
  label: string;
  text: string;
}) {
  return (
    <div className={`patient-alert alert alert-${variant} mb-0`} data-testid={`alert-${kind}`}>
      <span className="patient-alert-icon" aria-hidden="true">
        {icon}
      </span>
      <div className="min-w-0">
        <div className="patient-alert-label">{label}</div>
        <div className="patient-alert-text">{text}</div>
      </div>
    </div>
  );
}

/**
 * The patient's clinical alerts, shown on every clinical screen of the patient: allergies in red,
 * chronic conditions and current medication in amber. Nothing when the patient has none
 * (`showEmpty`: a quiet line saying so, for the medical history header).
 */
export function PatientAlertsBanner({ patient, showEmpty = false }: { patient: Alerts; showEmpty?: boolean }) {
  const { t } = useTranslation('patients');
  const allergies = patient.allergies?.trim();
  const chronic = patient.chronicConditions?.trim();
  const medication = patient.currentMedication?.trim();
  if (!allergies && !chronic && !medication) {
    return showEmpty ? (
      <p className="small text-body-secondary mb-0" data-testid="patient-no-alerts">
        {t('alerts.none')}
      </p>
    ) : null;
  }
  return (
    <section className="patient-alerts" aria-label={t('alerts.title')} data-testid="patient-alerts">
      {allergies ? (
        <Alert
          kind="allergies"
          variant="danger"
          icon={<AlertTriangle size={18} />}
          label={t('fields.allergies')}
          text={allergies}
        />
      ) : null}
      {chronic ? (
        <Alert
          kind="chronicConditions"
          variant="warning"
          icon={<HeartPulse size={18} />}
          label={t('fields.chronicConditions')}
          text={chronic}
        />
      ) : null}
      {medication ? (
        <Alert
          kind="currentMedication"
          variant="warning"
          icon={<Pill size={18} />}
          label={t('fields.currentMedication')}
          text={medication}
        />
      ) : null}
    </section>
  );
}
