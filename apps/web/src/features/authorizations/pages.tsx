import type { AuthorizationDetail } from '@odontia/shared/schemas/authorizations';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { FormAlert } from '../../components/form-feedback';
import { RecordNotFound } from '../../components/record-not-found';
import { Spinner } from '../../components/spinner';
import { isNotFoundError, isRecordId } from '../../lib/record-id';
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
  const query = useAuthorization(patientId, id);
  if (!isRecordId(id) || (query.isError && isNotFoundError(query.error))) {
    return (
      <RecordNotFound
        code="authorization_not_found"
        backTo={authorizationPaths.tab(patientId)}
        backLabel={t('clinical:common.backToHistory')}
      />
    );
  }
  if (query.isPending) {
    return (
      <div className="text-center py-5">
        <Spinner size={8} />
      </div>
    );
  }
  if (query.isError || !query.data) {
    return (
      <FormAlert testId="record-load-error">
        {t('common.loadError')}
        <button type="button" className="btn btn-link" onClick={() => void query.refetch()}>
          {t('common.retry')}
        </button>
      </FormAlert>
    );
  }
  return <>{children(query.data)}</>;
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
