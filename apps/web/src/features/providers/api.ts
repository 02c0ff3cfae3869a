import { providerRoutes } from '@odontia/shared/routes/parties';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { apiClient, type CallAnswer, type CallInput } from '../../lib/api-client';
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

export type ProviderAnswer = CallAnswer<typeof providerRoutes.get>;

export const providersApi = apiClient(providerRoutes);

/** The list's filters as the routes' query ("all" is no filter). */
function listQuery({ active, ...rest }: ProviderFilters) {
  return { ...rest, ...(active === 'all' ? {} : { active }) };
}

const providersKey = ['providers'] as const;
export const providerKey = (id: string) => [...providersKey, 'one', id] as const;

export function useProvidersList(query: ProviderFilters & { page: number; pageSize: number }) {
  return useQuery({
    queryKey: [...providersKey, 'list', query],
    queryFn: () => providersApi.list({ query: { ...listQuery(query), page: query.page, pageSize: query.pageSize } }),
    placeholderData: keepPreviousData,
  });
}

export function useProvider(id: string) {
  return useQuery({
    queryKey: providerKey(id),
    queryFn: () => providersApi.get({ params: { id } }).then((answer) => answer.data),
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
export type ProviderBody =
  | CallInput<typeof providerRoutes.create>['body']
  | CallInput<typeof providerRoutes.update>['body'];

export function useSaveProvider(id?: string) {
  return useMutation({
    mutationFn: (body: ProviderBody) =>
      id
        ? providersApi.update({ params: { id }, body: body as CallInput<typeof providerRoutes.update>['body'] })
        : providersApi.create({ body: body as CallInput<typeof providerRoutes.create>['body'] }),
    onSuccess: (answer) => {
      queryClient.setQueryData(providerKey(answer.data.id), answer.data);
      return refreshProviders();
    },
  });
}

export function useDeleteProvider(id: string) {
  return useMutation({
    mutationFn: () => providersApi.remove({ params: { id } }),
    onSuccess: () => refreshProviders(),
  });
}

/** The CSV of the list as filtered and sorted, every page. */
export function exportProviders(filters: ProviderFilters) {
  return providersApi.exportCsv({ query: listQuery(filters) });
}

/** Forgets a deleted provider (after leaving its page). */
export function forgetProvider(id: string): void {
  queryClient.removeQueries({ queryKey: providerKey(id) });
}
