import type { AuthorizationDetail } from '@odontia/shared/schemas/authorizations';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { RecordQueryStates } from '../../components/record-query-states';
import { ReadOnlyNotice, useCanWriteClinical } from '../medical-history/clinical-frame';
import { authorizationPaths, useAuthorization } from './api';
import { AuthorizationForm, EditAuthorizationForm } from './authorization-form';
import { AuthorizationView } from './authorization-view';
import { AuthorizationFrame } from './frame';

function Loader({
  patientId,
  id,
  children,
}: {
  patientId: string;
  id: string;
  children: (record: AuthorizationDetail) => ReactNode;
}) {
  const { t } = useTranslation(['authorizations', 'common', 'clinical']);
  return (
    <RecordQueryStates
      id={id}
      query={useAuthorization(patientId, id)}
      notFound={{
        code: 'authorization_not_found',
        backTo: authorizationPaths.tab(patientId),
        backLabel: t('clinical:common.backToHistory'),
      }}
      loadError={{ text: t('common.loadError'), retry: t('common.retry'), testId: 'record-load-error' }}
    >
      {children}
    </RecordQueryStates>
  );
}

/** `…/mh/authorization/new` (clinical.write). */
export function NewAuthorization({ patientId }: { patientId: string }) {
  const { t } = useTranslation('common');
  const canWrite = useCanWriteClinical();
  return (
    <AuthorizationFrame patientId={patientId} title={t('pages.authorizationNew')} testId="authorization-new">
      {(patient) => (canWrite ? <AuthorizationForm patient={patient} record={null} /> : <ReadOnlyNotice />)}
    </AuthorizationFrame>
  );
}

/** `…/mh/authorization/show/:id_authorization` (patients.read). */
export function ShowAuthorization({ patientId, id }: { patientId: string; id: string }) {
  const { t } = useTranslation('common');
  const canWrite = useCanWriteClinical();
  return (
    <AuthorizationFrame patientId={patientId} title={t('pages.authorizationShow')} testId="authorization-show">
      {(patient) => (
        <Loader patientId={patientId} id={id}>
          {(record) => <AuthorizationView patient={patient} record={record} canWrite={canWrite} />}
        </Loader>
      )}
    </AuthorizationFrame>
  );
}

/** `…/mh/authorization/edit/:id_authorization` (clinical.write; only while unsigned). */
export function EditAuthorization({ patientId, id }: { patientId: string; id: string }) {
  const { t } = useTranslation('common');
  const canWrite = useCanWriteClinical();
  return (
    <AuthorizationFrame patientId={patientId} title={t('pages.authorizationEdit')} testId="authorization-edit">
      {(patient) =>
        canWrite ? (
          <Loader patientId={patientId} id={id}>
            {(record) => <EditAuthorizationForm patient={patient} record={record} />}
          </Loader>
        ) : (
          <ReadOnlyNotice />
        )
      }
    </AuthorizationFrame>
  );
}
