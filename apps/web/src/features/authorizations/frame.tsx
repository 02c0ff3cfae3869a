import { can } from '@odontia/shared/permissions';
import type { Patient } from '@odontia/shared/schemas/patients';
import { ArrowLeft } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { FormAlert } from '../../components/form-feedback';
import { PageTitle } from '../../components/page-title';
import { Spinner } from '../../components/spinner';
import { isApiError } from '../../lib/http';
import { useSessionUser } from '../auth/session';
import { usePatient } from '../patients/api';
import { patientName } from '../patients/format';
import { PatientAlertsBanner } from '../patients/patient-alerts-banner';
import { authorizationPaths } from './api';
import './authorizations.css';

/** Whether the signed-in user may write, sign and unsign authorizations (clinical.write). */
export function useCanWriteAuthorizations(): boolean {
  const user = useSessionUser();
  return user ? can(user.level, 'clinical.write') : false;
}

/** Every authorization screen: back to the history's Autorizaciones tab, the patient, alerts, the title and content. */
export function AuthorizationFrame({
  patientId,
  title,
  testId,
  actions,
  children,
}: {
  patientId: string;
  title: string;
  testId: string;
  actions?: ReactNode;
  children: (patient: Patient) => ReactNode;
}) {
  const { t } = useTranslation(['authorizations', 'clinical', 'messages']);
  const query = usePatient(patientId);
  const back = (
    <Link to={authorizationPaths.tab(patientId)} className="btn btn-link px-0 mb-2 clinical-back">
      <ArrowLeft size={16} aria-hidden="true" className="me-1" />
      {t('clinical:common.backToHistory')}
    </Link>
  );
  if (query.isPending) {
    return (
      <div className="text-center py-5">
        <PageTitle title={title} />
        <Spinner size={8} />
      </div>
    );
  }
  if (query.isError || !query.data) {
    const notFound = isApiError(query.error) && query.error.status === 404;
    return (
      <div className="clinical-page">
        <PageTitle title={title} />
        {notFound ? null : back}
        <FormAlert testId="patient-load-error">
          {notFound ? t('messages:patient_not_found') : t('common.loadError')}
        </FormAlert>
      </div>
    );
  }
  const patient = query.data;
  return (
    <>
      <PageTitle title={`${title}: ${patientName(patient)}`} />
      <div className="clinical-page d-flex flex-column gap-3" data-testid={testId}>
        <div>
          {back}
          <div className="d-flex flex-wrap align-items-baseline gap-2">
            <span className="h5 mb-0" data-testid="patient-name">
              {patientName(patient)}
            </span>
            <span className="text-body-secondary">
              {patient.skuPatient} · {t('clinical:common.years', { count: patient.age })}
            </span>
          </div>
        </div>
        <PatientAlertsBanner patient={patient} />
        <div className="d-flex flex-wrap align-items-center gap-2">
          <h1 className="h3 mb-0 me-auto" data-testid="record-title">
            {title}
          </h1>
          {actions}
        </div>
        {children(patient)}
      </div>
    </>
  );
}
