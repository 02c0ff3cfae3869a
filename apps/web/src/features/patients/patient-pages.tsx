import '../../lib/zod-setup';
import type { Patient } from '@odontia/shared/schemas/patients';
import { ArrowLeft, Trash2 } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { IconTextButton } from '../../components/icon-button';
import { IconLink } from '../../components/icon-link';
import { PageTitle } from '../../components/page-title';
import { RecordQueryStates } from '../../components/record-query-states';
import { useStaleSaveNotice } from '../../components/stale-save-notice';
import { patientKey, patientPaths, usePatient } from './api';
import { DeletePatientModal } from './delete-patient-modal';
import { patientName } from './format';
import { PatientForm } from './patient-form';
import { PortalAccessCard } from './portal-access';
import { RecordExportCard } from './record-export';

export function BackToPatients() {
  const { t } = useTranslation('common');
  return (
    <IconLink
      to={patientPaths.list}
      className="btn btn-link px-0 mb-2 patients-back"
      icon={ArrowLeft}
      iconClassName="me-1"
    >
      {t('pages.patients')}
    </IconLink>
  );
}

/** Loads one patient: a spinner, "not found" (also a deleted one or another clinic's), or `children(patient)`. */
export function PatientLoader({
  id,
  title,
  children,
}: {
  id: string;
  /** The tab title until the patient is there (the route's title). */
  title?: string;
  children: (patient: Patient, reload: () => void) => ReactNode;
}) {
  const { t } = useTranslation(['patients', 'common']);
  const query = usePatient(id);
  return (
    <RecordQueryStates
      id={id}
      query={query}
      title={title}
      notFound={{
        code: 'patient_not_found',
        backTo: patientPaths.list,
        backLabel: t('common:recordNotFound.back', { place: t('common:pages.patients') }),
      }}
      loadError={{
        text: t('patients:list.loadError'),
        retry: t('patients:list.retry'),
        testId: 'patient-load-error',
        frame: (alert) => (
          <div className="patients-page">
            {title ? <PageTitle title={title} /> : null}
            <BackToPatients />
            {alert}
          </div>
        ),
      }}
    >
      {(patient) => children(patient, () => void query.refetch())}
    </RecordQueryStates>
  );
}

/** `/patients/create` (patients.write). */
export function CreatePatientPage() {
  return (
    <div className="patients-page" data-testid="patient-create">
      <BackToPatients />
      <PatientForm patient={null} />
    </div>
  );
}

function EditPatient({ patient }: { patient: Patient }) {
  const { t } = useTranslation('patients');
  const staleSave = useStaleSaveNotice();
  const [deleting, setDeleting] = useState(false);
  return (
    <>
      <PageTitle title={`${t('edit.title')}: ${patientName(patient)}`} />
      <div className="patients-page d-flex flex-column gap-3" data-testid="patient-edit">
        <div>
          <IconLink
            to={patientPaths.history(patient.id)}
            className="btn btn-link px-0 mb-2 patients-back"
            icon={ArrowLeft}
            iconClassName="me-1"
          >
            {t('edit.backToHistory')}
          </IconLink>
          <div className="d-flex flex-wrap align-items-baseline gap-2">
            <h1 className="h3 mb-0" data-testid="patient-name">
              {patientName(patient)}
            </h1>
            <span className="text-body-secondary">{patient.skuPatient}</span>
          </div>
        </div>
        {staleSave.notice(t('form.conflict'))}
        <PatientForm
          key={patient.version}
          patient={patient}
          onConflict={(current) => staleSave.onConflict(patientKey(patient.id), current)}
          actions={
            <IconTextButton
              icon={Trash2}
              className="btn btn-outline-danger"
              onClick={() => setDeleting(true)}
              testId="patient-delete"
            >
              {t('delete.open')}
            </IconTextButton>
          }
        />
        <PortalAccessCard patientId={patient.id} />
        <RecordExportCard patientId={patient.id} />
        <DeletePatientModal patient={patient} show={deleting} onClose={() => setDeleting(false)} />
      </div>
    </>
  );
}

/** `/patients/edit/:patientId` (patients.write): the form with the current values, and delete. */
export function EditPatientPage({ id }: { id: string }) {
  const { t } = useTranslation('common');
  return (
    <PatientLoader id={id} title={t('pages.patientEdit')}>
      {(patient) => <EditPatient patient={patient} />}
    </PatientLoader>
  );
}
