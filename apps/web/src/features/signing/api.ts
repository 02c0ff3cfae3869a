import {
  authorizationSigningRoutes,
  budgetSigningRoutes,
  signingLinkRoutes,
} from '@odontia/shared/routes/signing-requests';
import type { RemoteSignRequest } from '@odontia/shared/schemas/signing-requests';
import { useMutation, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../lib/api-client';
import { queryClient } from '../../lib/query-client';
import { isRecordId } from '../../lib/record-id';

/** Remote signing (issue 37): a document's signing request (staff) and the patient's link (public). */

const linksApi = apiClient(signingLinkRoutes);
const authorizationApi = apiClient(authorizationSigningRoutes);
const budgetApi = apiClient(budgetSigningRoutes);

export const signingLinkApi = {
  show: (token: string) => linksApi.show({ params: { token } }),
  sign: (token: string, body: RemoteSignRequest) => linksApi.sign({ params: { token }, body }),
};

/** The document a request is about: a patient's consent or a budget. */
export type SigningTarget = { kind: 'authorization'; patientId: string; id: string } | { kind: 'budget'; id: string };

type Action = 'show' | 'send' | 'resend' | 'cancel';

function call(target: SigningTarget, action: Action) {
  return target.kind === 'authorization'
    ? authorizationApi[action]({ params: { patientId: target.patientId, id: target.id } })
    : budgetApi[action]({ params: { id: target.id } });
}

const signingKey = (target: SigningTarget) => ['signing-request', target.kind, target.id] as const;

/**
 * The document's newest request. While one is pending it is asked again every 15 seconds and when
 * the tab comes back, so an open view sees the patient's signature without a reload.
 */
export function useSigningRequest(target: SigningTarget, enabled = true) {
  return useQuery({
    queryKey: signingKey(target),
    queryFn: () => call(target, 'show').then((answer) => answer.data),
    enabled: enabled && isRecordId(target.id),
    refetchOnWindowFocus: 'always',
    refetchInterval: (query) => (query.state.data?.status === 'pending' ? 15_000 : false),
  });
}

export function useSigningAction(target: SigningTarget) {
  return useMutation({
    mutationFn: (action: Exclude<Action, 'show'>) => call(target, action),
    onSuccess: (answer) => queryClient.setQueryData(signingKey(target), answer.data),
  });
}
