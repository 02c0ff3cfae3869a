import { accountRoutes } from '@odontia/shared/routes/account';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { apiClient, type CallAnswer, type CallInput } from '../../lib/api-client';
import { queryClient } from '../../lib/query-client';
import { sessionQueryKey } from '../../session/session';

/** My account (issue 19): /api/account, its billing data, movements and renewal (routes declared in packages/shared). */

const client = apiClient(accountRoutes);

export const accountKeys = {
  account: ['account'] as const,
  movements: (page: number) => ['account', 'movements', page] as const,
};

export type MovementsPage = CallAnswer<typeof accountRoutes.movements>;
type RenewBody = CallInput<typeof accountRoutes.renew>['body'];

export const movementsPageSize = 10;

export function useAccount() {
  return useQuery({ queryKey: accountKeys.account, queryFn: () => client.get() });
}

export function useMovements(page: number) {
  return useQuery({
    queryKey: accountKeys.movements(page),
    queryFn: () => client.movements({ query: { page, pageSize: movementsPageSize } }),
    placeholderData: keepPreviousData,
  });
}

export function useSaveBilling() {
  return useMutation({
    mutationFn: (body: CallInput<typeof accountRoutes.updateBilling>['body']) => client.updateBilling({ body }),
    onSuccess: async (answer) => {
      queryClient.setQueryData(accountKeys.account, { data: answer.data });
      // The clinic's name shows in the top bar.
      await queryClient.invalidateQueries({ queryKey: sessionQueryKey });
    },
  });
}

export function useRenew() {
  return useMutation({
    mutationFn: ({ body, idempotencyKey }: { body: RenewBody; idempotencyKey: string }) =>
      client.renew({ body, idempotencyKey }),
    onSuccess: async (answer) => {
      queryClient.setQueryData(accountKeys.account, { data: answer.data.account });
      // The banner reads the contract's state from the session.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ['account', 'movements'] }),
        queryClient.invalidateQueries({ queryKey: sessionQueryKey }),
      ]);
    },
  });
}

export const movementPdf = (id: string) => client.movementPdf({ params: { id } });
