import type { Account, AccountMovement, RenewAccount, UpdateAccountBilling } from '@odontia/shared/schemas/account';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { http } from '../../lib/http';
import { queryClient } from '../../lib/query-client';
import { sessionQueryKey } from '../../session/session';

/** My account (issue 19): /api/account, its billing data, movements and renewal. */

export const accountKeys = {
  account: ['account'] as const,
  movements: (page: number) => ['account', 'movements', page] as const,
};

type AccountAnswer = { data: Account; code?: string };
export type MovementsPage = { data: AccountMovement[]; total: number; page: number; pageSize: number };

export const movementsPageSize = 10;

export function useAccount() {
  return useQuery({ queryKey: accountKeys.account, queryFn: () => http.get<AccountAnswer>('account') });
}

export function useMovements(page: number) {
  return useQuery({
    queryKey: accountKeys.movements(page),
    queryFn: () => http.get<MovementsPage>(`account/movements?page=${page}&pageSize=${movementsPageSize}`),
    placeholderData: keepPreviousData,
  });
}

export function useSaveBilling() {
  return useMutation({
    mutationFn: (body: UpdateAccountBilling) => http.put<AccountAnswer>('account/billing', body),
    onSuccess: async (answer) => {
      queryClient.setQueryData(accountKeys.account, { data: answer.data });
      // The clinic's name shows in the top bar.
      await queryClient.invalidateQueries({ queryKey: sessionQueryKey });
    },
  });
}

export function useRenew() {
  return useMutation({
    mutationFn: ({ body, idempotencyKey }: { body: RenewAccount; idempotencyKey: string }) =>
      http.post<{ data: { movement: AccountMovement; account: Account }; code: string }>('account/renew', body, {
        headers: { 'Idempotency-Key': idempotencyKey },
      }),
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

export const movementPdf = (id: string) => http.download(`account/movements/${id}/pdf`);
