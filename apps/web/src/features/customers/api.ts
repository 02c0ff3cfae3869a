import { customerRoutes } from '@odontia/shared/routes/parties';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { callApi } from '../../lib/api-client';

/** GET /api/customers/lookup: patients, companies and insurers as you type (issue 18). */
export function useCustomerLookup(q: string, enabled: boolean) {
  return useQuery({
    queryKey: ['customers', 'lookup', q],
    queryFn: () => callApi(customerRoutes.lookup, { query: { q, limit: 10 } }),
    enabled,
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
}
