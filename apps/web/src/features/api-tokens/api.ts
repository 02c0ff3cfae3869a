import { clinicTokenRoutes, memberTokenRoutes, personalTokenRoutes } from '@odontia/shared/routes/api-tokens';
import type { CreateApiToken } from '@odontia/shared/schemas/api-tokens';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../lib/api-client';
import { toastApiError, toastSuccess } from '../../lib/api-toast';
import { queryClient } from '../../lib/query-client';
import { useAction } from '../../lib/use-action';

/** API tokens (issue 42): a person's own (/profile/api-tokens) or the clinic's (/settings/api-tokens). */
export type TokenKind = 'personal' | 'clinic';

const clients = { personal: apiClient(personalTokenRoutes), clinic: apiClient(clinicTokenRoutes) };
const tokensKey = (kind: TokenKind) => ['api-tokens', kind] as const;

export function useApiTokens(kind: TokenKind, page: number, pageSize = 20) {
  return useQuery({
    queryKey: [...tokensKey(kind), page, pageSize],
    queryFn: () => clients[kind].list({ query: { page, pageSize } }),
    placeholderData: keepPreviousData,
  });
}

/** Makes a token: its secret is in this answer only (the screen shows it once). */
export function useCreateApiToken(kind: TokenKind) {
  return useAction({
    mutationFn: (body: CreateApiToken, idempotencyKey) => clients[kind].create({ body, idempotencyKey }),
    onSuccess: async (answer) => {
      toastSuccess(answer.code);
      await queryClient.invalidateQueries({ queryKey: tokensKey(kind) });
    },
    onError: toastApiError,
  });
}

export function useRevokeApiToken(kind: TokenKind) {
  return useAction({
    mutationFn: (tokenId: string) => clients[kind].revoke({ params: { tokenId } }),
    onSuccess: async (answer) => {
      toastSuccess(answer.code);
      await queryClient.invalidateQueries({ queryKey: tokensKey(kind) });
    },
    onError: toastApiError,
  });
}

const members = apiClient(memberTokenRoutes);
const membersKey = ['api-tokens', 'members'] as const;

/** The team's personal tokens (tokens.manage: the clinic's administrator). */
export function useMemberApiTokens(page: number, pageSize = 20, enabled = true) {
  return useQuery({
    queryKey: [...membersKey, page, pageSize],
    queryFn: () => members.list({ query: { page, pageSize } }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** Revokes a member's personal token (audited on the server as the administrator's act). */
export function useRevokeMemberApiToken() {
  return useAction({
    mutationFn: (tokenId: string) => members.revoke({ params: { tokenId } }),
    onSuccess: async (answer) => {
      toastSuccess(answer.code);
      await queryClient.invalidateQueries({ queryKey: ['api-tokens'] });
    },
    onError: toastApiError,
  });
}
