import { can } from '@odontia/shared/permissions';
import type { Provider } from '@odontia/shared/schemas/providers';
import { formatTaxId } from '@odontia/shared/tax-ids';
import { ArrowLeft, Ban, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { BusyButton } from '../../components/busy-button';
import { ConfirmDelete } from '../../components/confirm-delete';
import { FormAlert } from '../../components/form-feedback';
import { IconTextButton } from '../../components/icon-button';
import { IconLink } from '../../components/icon-link';
import { PageTitle } from '../../components/page-title';
import { RecordNotFound } from '../../components/record-not-found';
import { Spinner } from '../../components/spinner';
import { useStaleSaveNotice } from '../../components/stale-save-notice';
import { errorMessage } from '../../lib/api-errors';
import { toastApiError, toastSuccess } from '../../lib/api-toast';
import { isApiError } from '../../lib/http';
import { queryClient } from '../../lib/query-client';
import { isNotFoundError, isRecordId } from '../../lib/record-id';
import { useSessionUser } from '../../session/session';
import {
  forgetProvider,
  providerKey,
  providerPaths,
  providersApi,
  refreshProviders,
  useDeleteProvider,
  useProvider,
} from './api';
import { ProviderForm } from './provider-form';
import { ProvidersList } from './providers-list';

function useCan(action: 'commercial.write' | 'commercial.delete'): boolean {
  const user = useSessionUser();
  return user ? can(user.level, action) : false;
}

function BackLink() {
  const { t } = useTranslation('common');
  return (
    <IconLink
      to={providerPaths.list}
      className="btn btn-link px-0 mb-2 align-self-start"
      icon={ArrowLeft}
      iconClassName="me-1"
    >
      {t('pages.providers')}
    </IconLink>
  );
}

/** `/providers` (commercial.read; "Nuevo proveedor" with commercial.write). */
export function ProvidersPage() {
  const { t } = useTranslation('common');
  const canWrite = useCan('commercial.write');
  return (
    <>
      <PageTitle title={t('pages.providers')} />
      <ProvidersList canWrite={canWrite} />
    </>
  );
}

/** `/providers/create` (commercial.write). */
export function ProviderCreatePage() {
  const { t } = useTranslation('common');
  return (
    <>
      <PageTitle title={t('pages.providerCreate')} />
      <div className="d-flex flex-column gap-3" data-testid="provider-create-page">
        <BackLink />
        <ProviderForm provider={null} />
      </div>
    </>
  );
}

/**
 * Delete (commercial.delete) when no document or payment names the provider; otherwise the
 * screen offers "Desactivar" (an edit of `active`), as the server would refuse the delete.
 */
function ProviderActions({ provider }: { provider: Provider }) {
  const { t } = useTranslation('providers');
  const navigate = useNavigate();
  const canDelete = useCan('commercial.delete');
  const remove = useDeleteProvider(provider.id);
  const [confirming, setConfirming] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [deactivating, setDeactivating] = useState(false);
  // The server may refuse a delete this screen did not expect (a purchase typed meanwhile).
  const [refused, setRefused] = useState(false);
  const hasDocuments = provider.hasDocuments || refused;

  const deactivate = async () => {
    setDeactivating(true);
    try {
      const { hasDocuments: _has, id, createdAt, createdByName, updatedAt, updatedByName, ...fields } = provider;
      const answer = await providersApi.update({ params: { id }, body: { ...fields, active: false } });
      queryClient.setQueryData(providerKey(id), answer.data);
      await refreshProviders();
      toastSuccess('provider_updated');
      setConfirming(false);
    } catch (error) {
      toastApiError(error);
    } finally {
      setDeactivating(false);
    }
  };

  const confirm = async () => {
    setProblem(null);
    try {
      const answer = await remove.mutateAsync();
      toastSuccess(answer.code);
      await navigate(providerPaths.list, { replace: true });
      forgetProvider(provider.id);
    } catch (error) {
      if (isApiError(error) && error.code === 'provider_has_documents') setRefused(true);
      setProblem(errorMessage(error));
    }
  };

  const deactivateButton = provider.active ? (
    <BusyButton
      className="btn btn-outline-warning"
      icon={Ban}
      busy={deactivating}
      onClick={() => void deactivate()}
      testId="provider-deactivate"
    >
      {t('edit.deactivate')}
    </BusyButton>
  ) : null;

  if (hasDocuments) {
    return (
      <>
        {deactivateButton}
        <span className="small text-body-secondary align-self-center" data-testid="provider-has-documents">
          {t('edit.hasDocuments')}
        </span>
      </>
    );
  }
  if (!canDelete) return null;
  return (
    <>
      <IconTextButton
        icon={Trash2}
        className="btn btn-outline-danger"
        onClick={() => setConfirming(true)}
        testId="provider-delete"
      >
        {t('edit.delete')}
      </IconTextButton>
      <ConfirmDelete
        show={confirming}
        title={t('delete.title')}
        onCancel={() => {
          setProblem(null);
          remove.reset();
          setConfirming(false);
        }}
        onConfirm={() => void confirm()}
        pending={remove.isPending}
        problem={problem}
        testId="delete-provider"
      >
        <p className="mb-0">{t('delete.text', { name: provider.fantasyName })}</p>
      </ConfirmDelete>
    </>
  );
}

/** `/providers/edit/:providerId` (commercial.write; read-only fields otherwise are not offered: the menu hides it). */
export function ProviderEditPage() {
  const { providerId = '' } = useParams();
  const { t } = useTranslation(['providers', 'common']);
  const query = useProvider(providerId);
  const staleSave = useStaleSaveNotice();
  const provider = query.data;

  if (!isRecordId(providerId) || (query.isError && isNotFoundError(query.error))) {
    return (
      <RecordNotFound
        title={t('common:pages.notFound')}
        code="provider_not_found"
        backTo={providerPaths.list}
        backLabel={t('common:recordNotFound.back', { place: t('common:pages.providers') })}
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
  if (query.isError || !provider) {
    return (
      <div className="d-flex flex-column gap-3">
        <BackLink />
        <FormAlert testId="provider-load-error">
          {t('list.loadError')}
          <button type="button" className="btn btn-link" onClick={() => void query.refetch()}>
            {t('list.retry')}
          </button>
        </FormAlert>
      </div>
    );
  }
  return (
    <>
      <PageTitle title={`${t('common:pages.providerEdit')}: ${provider.fantasyName}`} />
      <div className="d-flex flex-column gap-3" data-testid="provider-edit">
        <div className="d-flex flex-column">
          <BackLink />
          <div className="d-flex flex-wrap align-items-baseline gap-2">
            <h2 className="h3 mb-0" data-testid="provider-name">
              {provider.fantasyName}
            </h2>
            {provider.nif ? (
              <span className="text-body-secondary">{formatTaxId(provider.taxIdKind, provider.nif)}</span>
            ) : null}
            {provider.active ? null : <span className="badge text-bg-secondary">{t('badge.inactive')}</span>}
          </div>
        </div>
        {staleSave.notice(t('form.conflict'))}
        <ProviderForm
          key={provider.version}
          provider={provider}
          onConflict={(current) => staleSave.onConflict(providerKey(provider.id), current)}
          actions={<ProviderActions provider={provider} />}
        />
      </div>
    </>
  );
}
