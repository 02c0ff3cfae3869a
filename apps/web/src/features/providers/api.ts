import type { Page } from '@odontia/shared/schemas/common';
import type { Provider, providerContracts } from '@odontia/shared/schemas/providers';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { http } from '../../lib/http';
import { queryClient } from '../../lib/query-client';
import { isRecordId } from '../../lib/record-id';

/** The providers' screens (issue 17): /providers, /providers/create, /providers/edit/:providerId. */

export const providerPaths = {
  list: '/providers',
  create: '/providers/create',
  edit: (id: string) => `/providers/edit/${encodeURIComponent(id)}`,
};

/** The list's "active" filter: all (default), active only, inactive only. */
export type ActiveFilter = 'all' | 'true' | 'false';

export interface ProviderFilters {
  q: string;
  sort: string;
  active: ActiveFilter;
}

export type ProviderAnswer = { data: Provider; code?: 'provider_created' | 'provider_updated' };

function filterParams(filters: ProviderFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.q.trim()) params.set('q', filters.q.trim());
  if (filters.sort) params.set('sort', filters.sort);
  if (filters.active !== 'all') params.set('active', filters.active);
  return params;
}

const one = (id: string) => `providers/${encodeURIComponent(id)}`;

export const providersApi = {
  list: (query: ProviderFilters & { page: number; pageSize: number }) => {
    const params = filterParams(query);
    params.set('page', String(query.page));
    params.set('pageSize', String(query.pageSize));
    return http.get<Page<Provider>>(`providers?${params}`);
  },
  get: (id: string) => http.get<ProviderAnswer>(one(id)),
  create: (body: z.input<typeof providerContracts.create>) => http.post<ProviderAnswer>('providers', body),
  update: (id: string, body: z.input<typeof providerContracts.update>) => http.put<ProviderAnswer>(one(id), body),
  remove: (id: string) => http.delete<{ code: 'provider_deleted' }>(one(id)),
  export: (filters: ProviderFilters) => {
    const params = filterParams(filters).toString();
    return http.download(`providers/export.csv${params ? `?${params}` : ''}`);
  },
};

const providersKey = ['providers'] as const;
export const providerKey = (id: string) => [...providersKey, 'one', id] as const;

export function useProvidersList(query: ProviderFilters & { page: number; pageSize: number }) {
  return useQuery({
    queryKey: [...providersKey, 'list', query],
    queryFn: () => providersApi.list(query),
    placeholderData: keepPreviousData,
  });
}

export function useProvider(id: string) {
  return useQuery({
    queryKey: providerKey(id),
    queryFn: () => providersApi.get(id).then((answer) => answer.data),
    enabled: isRecordId(id),
    // A provider open in a form is not refetched under the user's feet.
    refetchOnWindowFocus: false,
    retry: (count, error) => count < 2 && !(error as { status?: number }).status,
  });
}

export function refreshProviders(): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: [...providersKey, 'list'] });
}

/** A new provider's fields, or an edit's (with the version it started from). */
export type ProviderBody = z.input<typeof providerContracts.create> | z.input<typeof providerContracts.update>;

export function useSaveProvider(id?: string) {
  return useMutation({
    mutationFn: (body: ProviderBody) =>
      id
        ? providersApi.update(id, body as z.input<typeof providerContracts.update>)
        : providersApi.create(body as z.input<typeof providerContracts.create>),
    onSuccess: (answer) => {
      queryClient.setQueryData(providerKey(answer.data.id), answer.data);
      return refreshProviders();
    },
  });
}

export function useDeleteProvider(id: string) {
  return useMutation({
    mutationFn: () => providersApi.remove(id),
    onSuccess: () => refreshProviders(),
  });
}

/** Forgets a deleted provider (after leaving its page). */
export function forgetProvider(id: string): void {
  queryClient.removeQueries({ queryKey: providerKey(id) });
}
