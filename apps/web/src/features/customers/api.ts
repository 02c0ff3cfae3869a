import type { CustomerLookupItem } from '@odontia/shared/schemas/customers';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { http } from '../../lib/http';

/** GET /api/customers/lookup: patients, companies and insurers as you type (issue 18). */
export function useCustomerLookup(q: string, enabled: boolean) {
  return useQuery({
    queryKey: ['customers', 'lookup', q],
    queryFn: () =>
      http.get<{ data: CustomerLookupItem[] }>(`customers/lookup?${new URLSearchParams({ q, limit: '10' })}`),
    enabled,
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
}
