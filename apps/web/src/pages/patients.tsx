import { can } from '@odontia/shared/permissions';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { PageTitle, TitledPage } from '../components/page-title';
import { MedicalHistory } from '../features/patient-record/medical-history';
import { FhirImportButton } from '../features/patients/fhir-import';
import { CreatePatientPage, EditPatientPage, PatientLoader } from '../features/patients/patient-pages';
import { PatientsList } from '../features/patients/patients-list';
import { VerifyPrescriptionButton } from '../features/prescriptions/verify-modal';
import { useSessionUser } from '../session/session';

function useCanWritePatients(): boolean {
  const user = useSessionUser();
  return user ? can(user.level, 'patients.write') : false;
}

/** `/patients` (patients.read; "Nuevo paciente" with patients.write). */
export function PatientsPage() {
  const { t } = useTranslation('common');
  const canWrite = useCanWritePatients();
  return (
    <>
      <PageTitle title={t('pages.patients')} />
      <PatientsList
        canWrite={canWrite}
        tools={
          <>
            <VerifyPrescriptionButton />
            <FhirImportButton />
          </>
        }
      />
    </>
  );
}

/** `/patients/create` (patients.write). */
export const PatientCreatePage = () => <TitledPage page="patientCreate" screen={<CreatePatientPage />} />;

/** `/patients/edit/:patientId` (patients.write). */
export function PatientEditPage() {
  const { patientId = '' } = useParams();
  return <EditPatientPage key={patientId} id={patientId} />;
}

/** `/patients/:patientId/mh` (patients.read): the medical history. */
export function MedicalHistoryPage() {
  const { patientId = '' } = useParams();
  const canWrite = useCanWritePatients();
  const { t } = useTranslation('common');
  return (
    <PatientLoader key={patientId} id={patientId} title={t('pages.medicalHistory')}>
      {(patient) => <MedicalHistory patient={patient} canWrite={canWrite} />}
    </PatientLoader>
  );
}
