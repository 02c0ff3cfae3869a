import { can } from '@odontia/shared/permissions';
import type { Patient } from '@odontia/shared/schemas/patients';
import { ArrowLeft } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { IconLink } from '../../components/icon-link';
import { PageTitle } from '../../components/page-title';
import { RecordQueryStates } from '../../components/record-query-states';
import { useDateTimeFormat } from '../../session/clinic-time';
import { useSessionUser } from '../../session/session';
import { usePatient } from '../patients/api';
import { patientName } from '../patients/format';
import { PatientAlertsBanner } from '../patients/patient-alerts-banner';
import { historyPath, type RecordKind, type RecordOf, useRecord } from './api';
import { recordKinds } from './records';

/** Whether the signed-in user may write clinical records (clinical.write). */
export function useCanWriteClinical(): boolean {
  const user = useSessionUser();
  return user ? can(user.level, 'clinical.write') : false;
}

export type ClinicalFrameProps = {
  patientId: string;
  title: string;
  testId: string;
  actions?: ReactNode;
  children: (patient: Patient) => ReactNode;
} & ({ kind: RecordKind } | { backTo: string });

/**
 * Every clinical screen of a patient: back to their history (on the record's tab, or `backTo`), the
 * patient's name and number, the clinical alerts banner, then the screen's title and content.
 */
export function ClinicalFrame(props: ClinicalFrameProps) {
  const { patientId, title, testId, actions, children } = props;
  const { t } = useTranslation(['clinical', 'common']);
  const query = usePatient(patientId);
  const backPath = 'backTo' in props ? props.backTo : historyPath(patientId, recordKinds[props.kind].tab);
  const back = (
    <IconLink to={backPath} className="btn btn-link px-0 mb-2 clinical-back" icon={ArrowLeft} iconClassName="me-1">
      {t('common.backToHistory')}
    </IconLink>
  );
  return (
    <RecordQueryStates
      id={patientId}
      query={query}
      title={title}
      notFound={{
        code: 'patient_not_found',
        backTo: '/patients',
        backLabel: t('common:recordNotFound.back', { place: t('common:pages.patients') }),
      }}
      loadError={{
        text: t('clinical:common.loadError'),
        retry: t('clinical:common.retry'),
        testId: 'patient-load-error',
        frame: (alert) => (
          <div className="clinical-page">
            <PageTitle title={title} />
            {back}
            {alert}
          </div>
        ),
      }}
    >
      {(patient) => (
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
                  {patient.skuPatient} · {t('common.years', { count: patient.age })}
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
      )}
    </RecordQueryStates>
  );
}

/** Loads one record of the patient: a spinner, "not found" (also a deleted one), or `children(record)`. */
export function RecordLoader<K extends RecordKind>({
  kind,
  patientId,
  id,
  children,
}: {
  kind: K;
  patientId: string;
  id: string;
  children: (record: RecordOf[K]) => ReactNode;
}) {
  const { t } = useTranslation(['clinical', 'common']);
  return (
    <RecordQueryStates
      id={id}
      query={useRecord(kind, patientId, id)}
      notFound={{
        code: `${kind}_not_found`,
        backTo: historyPath(patientId, recordKinds[kind].tab),
        backLabel: t('clinical:common.backToHistory'),
      }}
      loadError={{
        text: t('clinical:common.loadError'),
        retry: t('clinical:common.retry'),
        testId: 'record-load-error',
      }}
    >
      {(record) => children(record as RecordOf[K])}
    </RecordQueryStates>
  );
}

/** The screen a user without clinical.write sees on a new or edit route. */
export function ReadOnlyNotice() {
  const { t } = useTranslation('clinical');
  return (
    <div className="alert alert-info mb-0" role="status" data-testid="read-only">
      {t('common.readOnly')}
    </div>
  );
}

/** Who created and last changed a record, and when. */
export function RecordStamps({
  record,
}: {
  record: { createdAt: string; createdByName: string | null; updatedAt: string; updatedByName: string | null };
}) {
  const { t } = useTranslation('clinical');
  const dateTime = useDateTimeFormat();
  return (
    <p className="small text-body-secondary mb-0" data-testid="record-stamps">
      {t('common.created', {
        who: record.createdByName ?? t('common.system'),
        when: dateTime(record.createdAt),
      })}
      {record.updatedAt !== record.createdAt
        ? ` · ${t('common.updated', {
            who: record.updatedByName ?? t('common.system'),
            when: dateTime(record.updatedAt),
          })}`
        : null}
    </p>
  );
}
