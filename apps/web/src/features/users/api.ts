import { userRoutes } from '@odontia/shared/routes/users';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { apiClient, type CallInput } from '../../lib/api-client';
import { queryClient } from '../../lib/query-client';

export interface UsersQuery {
  q: string;
  page: number;
  pageSize: number;
  sort: string;
}

export type InviteUserRequest = CallInput<typeof userRoutes.invite>['body'];
export type UpdateUserRequest = CallInput<typeof userRoutes.update>['body'];

const usersKey = ['users'] as const;

/** Users of the clinic (administrators only): /api/users. */
const usersApi = apiClient(userRoutes);

export function useUsers(query: UsersQuery) {
  return useQuery({
    queryKey: [...usersKey, query],
    queryFn: () => usersApi.list({ query }),
    placeholderData: keepPreviousData,
  });
}

/** Lists are refetched after any change (and after a stale `version_conflict`). */
export function refreshUsers(): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: usersKey });
}

export function useInviteUser() {
  return useMutation({
    mutationFn: (body: InviteUserRequest) => usersApi.invite({ body }),
    onSuccess: () => refreshUsers(),
  });
}

export function useUpdateUser() {
  return useMutation({
    mutationFn: ({ id, ...body }: UpdateUserRequest & { id: string }) => usersApi.update({ params: { id }, body }),
    onSettled: () => refreshUsers(),
  });
}
