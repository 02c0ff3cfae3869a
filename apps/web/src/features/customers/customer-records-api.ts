import type { Page } from '@odontia/shared/schemas/common';
import type { CustomerRecord, customerRecordContracts } from '@odontia/shared/schemas/customer-records';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { http } from '../../lib/http';
import { queryClient } from '../../lib/query-client';

/** The customers' screen (issue 18): /customers on /api/customers. */

export interface CustomerFilters {
  q: string;
  sort: string;
  kind: string;
  active: string;
}

const customersKey = ['customers'] as const;
export type CustomerAnswer = { data: CustomerRecord; code?: 'customer_created' | 'customer_updated' };

export function useCustomerRecords(query: CustomerFilters & { page: number; pageSize: number }) {
  const params = new URLSearchParams({ page: String(query.page), pageSize: String(query.pageSize) });
  if (query.q.trim()) params.set('q', query.q.trim());
  if (query.sort) params.set('sort', query.sort);
  if (query.kind) params.set('kind', query.kind);
  if (query.active) params.set('active', query.active);
  return useQuery({
    queryKey: [...customersKey, 'records', query],
    queryFn: () => http.get<Page<CustomerRecord>>(`customers?${params}`),
    placeholderData: keepPreviousData,
  });
}

const refresh = () => queryClient.invalidateQueries({ queryKey: customersKey });

export function useSaveCustomer(id: string | null) {
  return useMutation({
    mutationFn: (
      body: z.input<typeof customerRecordContracts.create> | z.input<typeof customerRecordContracts.update>,
    ) =>
      id
        ? http.put<CustomerAnswer>(`customers/${encodeURIComponent(id)}`, body)
        : http.post<CustomerAnswer>('customers', body),
    onSuccess: refresh,
  });
}

export function useDeleteCustomer(id: string) {
  return useMutation({
    mutationFn: () => http.delete<{ code: 'customer_deleted' }>(`customers/${encodeURIComponent(id)}`),
    onSuccess: refresh,
  });
}
