import { paymentRoutes } from '@odontia/shared/routes/money';
import type { Provider } from '@odontia/shared/schemas/providers';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../lib/api-client';
import { queryClient } from '../../lib/query-client';
import { isRecordId } from '../../lib/record-id';
import { withoutBlanks } from '../commercial/list-query';
import type { MovementListFilters } from '../commercial/movement-list';
import { sideQueries } from '../commercial/side-queries';
import { providerAccountsKey } from '../current-accounts/api';
import { providersApi } from '../providers/api';

/** Payments to providers (issue 17): the API's hooks over the routes declared in packages/shared. */

/** A provider the payment form offers. */
export type ProviderHit = Provider;

export interface PaymentFilters extends MovementListFilters {
  providerId: string;
}

export const paymentsApi = apiClient(paymentRoutes);

const paymentsKey = ['payments'] as const;

const paymentQueries = sideQueries('payments', {
  list: (filters: PaymentFilters, page, pageSize) =>
    paymentsApi.list({ query: { ...withoutBlanks(filters), page, pageSize } }),
  one: (id) => paymentsApi.get({ params: { id } }).then((answer) => answer.data),
});

export const usePayments = paymentQueries.useList;
export const usePayment = paymentQueries.useOne;

export function useOpenDocuments(providerId: string) {
  return useQuery({
    queryKey: [...paymentsKey, 'open-documents', providerId],
    queryFn: () => paymentsApi.openDocuments({ params: { id: providerId } }).then((answer) => answer.data),
    enabled: isRecordId(providerId),
    refetchOnWindowFocus: false,
  });
}

export function useProviderSearch(q: string, enabled: boolean) {
  return useQuery({
    queryKey: ['providers', 'search', q],
    queryFn: () => providersApi.list({ query: { q, pageSize: 10, active: 'true' } }),
    enabled,
    placeholderData: keepPreviousData,
  });
}

/** The provider a payment starts from (a ledger's "new payment"). */
export function providerOf(id: string) {
  return providersApi.get({ params: { id } });
}

/** After a payment changes: its lists, the documents it touched and every current account. */
export function invalidateMoney(): Promise<void> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: paymentsKey }),
    queryClient.invalidateQueries({ queryKey: providerAccountsKey }),
    queryClient.invalidateQueries({ queryKey: ['purchases'] }),
  ]).then(() => undefined);
}
