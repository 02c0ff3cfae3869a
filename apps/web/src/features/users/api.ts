import type { UserLevel } from '@odontia/shared/enums';
import type { ClinicUser } from '@odontia/shared/schemas/users';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { http } from '../../lib/http';
import { queryClient } from '../../lib/query-client';

export interface UsersQuery {
  q: string;
  page: number;
  pageSize: number;
  sort: string;
}

export interface UsersPage {
  data: ClinicUser[];
  total: number;
  page: number;
  pageSize: number;
}

export interface InviteUserRequest {
  completeName: string;
  email: string;
  level: UserLevel;
}

export interface UpdateUserRequest {
  level?: UserLevel;
  active?: boolean;
  licenseNumber?: string;
  specialty?: string;
  version: number;
}

const usersKey = ['users'] as const;

/** Users of the clinic (administrators only): /api/users. */
export const usersApi = {
  list: (query: UsersQuery) => {
    const params = new URLSearchParams({ page: String(query.page), pageSize: String(query.pageSize) });
    if (query.q.trim()) params.set('q', query.q.trim());
    if (query.sort) params.set('sort', query.sort);
    return http.get<UsersPage>(`users?${params}`);
  },
  invite: (body: InviteUserRequest) => http.post<{ data: ClinicUser; code: string }>('users', body),
  update: (id: string, body: UpdateUserRequest) =>
    http.patch<{ data: ClinicUser; code: string }>(`users/${encodeURIComponent(id)}`, body),
};

export function useUsers(query: UsersQuery) {
  return useQuery({
    queryKey: [...usersKey, query],
    queryFn: () => usersApi.list(query),
    placeholderData: keepPreviousData,
  });
}

/** Lists are refetched after any change (and after a stale `version_conflict`). */
export function refreshUsers(): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: usersKey });
}

export function useInviteUser() {
  return useMutation({ mutationFn: usersApi.invite, onSuccess: () => refreshUsers() });
}

export function useUpdateUser() {
  return useMutation({
    mutationFn: ({ id, ...body }: UpdateUserRequest & { id: string }) => usersApi.update(id, body),
    onSettled: () => refreshUsers(),
  });
}
