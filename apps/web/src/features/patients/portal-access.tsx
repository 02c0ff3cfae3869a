import { portalAccessRoutes } from '@odontia/shared/routes/portal';
import type { PortalAccess } from '@odontia/shared/schemas/portal';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Send, UserX } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { IconTextButton } from '../../components/icon-button';
import { apiClient } from '../../lib/api-client';
import { toastApiError, toastSuccess } from '../../lib/api-toast';
import { queryClient } from '../../lib/query-client';
import { useDateTimeFormat } from '../../session/clinic-time';

/**
 * The patient's portal access on their page (issue 37): none, invited (a link sent, not used yet)
 * or active; invite (again: a new link), or take it away.
 */

const portalAccessApi = apiClient(portalAccessRoutes);
const portalAccessKey = (patientId: string) => ['patients', 'portal-access', patientId] as const;

const stateBadge = { none: 'text-bg-secondary', invited: 'text-bg-warning', active: 'text-bg-success' } as const;

function usePortalAccessChange(patientId: string, change: 'invite' | 'revoke') {
  return useMutation({
    mutationFn: () => portalAccessApi[change]({ params: { patientId } }),
    onSuccess: (answer) => {
      queryClient.setQueryData(portalAccessKey(patientId), answer.data);
      toastSuccess(answer.code);
    },
    onError: toastApiError,
  });
}

export function PortalAccessCard({ patientId }: { patientId: string }) {
  const { t } = useTranslation('patients');
  const dateTime = useDateTimeFormat();
  const access = useQuery({
    queryKey: portalAccessKey(patientId),
    queryFn: () => portalAccessApi.show({ params: { patientId } }).then((answer) => answer.data),
  });
  const invite = usePortalAccessChange(patientId, 'invite');
  const revoke = usePortalAccessChange(patientId, 'revoke');
  const data: PortalAccess | undefined = access.data;
  if (!data) return null;
  const pending = invite.isPending || revoke.isPending;
  return (
    <section className="card" data-testid="patient-portal-access">
      <div className="card-body d-flex flex-column gap-2">
        <div className="d-flex flex-wrap align-items-center gap-2">
          <h2 className="h5 mb-0">{t('portal.title')}</h2>
          <span className={`badge ${stateBadge[data.state]}`} data-testid="patient-portal-state">
            {t(`portal.states.${data.state}`)}
          </span>
        </div>
        <p className="mb-0 text-body-secondary">
          {data.state === 'none' ? t('portal.intro') : t('portal.email', { email: data.email ?? '' })}
          {data.state === 'invited' && data.invitedAt
            ? ` ${t('portal.invitedAt', { when: dateTime(data.invitedAt) })}`
            : ''}
        </p>
        <div className="d-flex flex-wrap gap-2">
          <IconTextButton
            icon={Send}
            className="btn btn-outline-primary"
            disabled={pending}
            onClick={() => invite.mutate()}
            testId="patient-portal-invite"
          >
            {data.state === 'none' ? t('portal.invite') : t('portal.inviteAgain')}
          </IconTextButton>
          {data.state !== 'none' ? (
            <IconTextButton
              icon={UserX}
              className="btn btn-outline-danger"
              disabled={pending}
              onClick={() => revoke.mutate()}
              testId="patient-portal-revoke"
            >
              {t('portal.revoke')}
            </IconTextButton>
          ) : null}
        </div>
      </div>
    </section>
  );
}
