import type { CustomerKind } from '@odontia/shared/commercial';
import { customerRoutes } from '@odontia/shared/routes/parties';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { apiClient, type CallAnswer, type CallInput } from '../../lib/api-client';
import { queryClient } from '../../lib/query-client';
import { withoutBlanks } from '../commercial/list-query';

/** The customers' screen (issue 18): /customers on /api/customers. */

export interface CustomerFilters {
  q: string;
  sort: string;
  kind: CustomerKind | '';
  active: 'true' | 'false' | '';
}

const customersApi = apiClient(customerRoutes);
const customersKey = ['customers'] as const;
export type CustomerAnswer = CallAnswer<typeof customerRoutes.get>;

export function useCustomerRecords(query: CustomerFilters & { page: number; pageSize: number }) {
  return useQuery({
    queryKey: [...customersKey, 'records', query],
    queryFn: () => customersApi.list({ query: withoutBlanks(query) }),
    placeholderData: keepPreviousData,
  });
}

const refresh = () => queryClient.invalidateQueries({ queryKey: customersKey });

/** A new customer's fields, or an edit's (with the version it started from). */
export type CustomerBody =
  | CallInput<typeof customerRoutes.create>['body']
  | CallInput<typeof customerRoutes.update>['body'];

export function useSaveCustomer(id: string | null) {
  return useMutation({
    mutationFn: (body: CustomerBody) =>
      id
        ? customersApi.update({ params: { id }, body: body as CallInput<typeof customerRoutes.update>['body'] })
        : customersApi.create({ body: body as CallInput<typeof customerRoutes.create>['body'] }),
    onSuccess: refresh,
  });
}

export function useDeleteCustomer(id: string) {
  return useMutation({
    mutationFn: () => customersApi.remove({ params: { id } }),
    onSuccess: refresh,
  });
}
