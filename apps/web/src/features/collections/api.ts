import type { PaymentMethod } from '@odontia/shared/enums';
import { collectionRoutes } from '@odontia/shared/routes/money';
import { useQuery } from '@tanstack/react-query';
import { apiClient } from '../../lib/api-client';
import { queryClient } from '../../lib/query-client';
import { isRecordId } from '../../lib/record-id';
import { withoutBlanks } from '../commercial/list-query';
import type { MovementListFilters } from '../commercial/movement-list';
import { sideQueries } from '../commercial/side-queries';
import { customerAccountsApi, customerAccountsKey } from '../current-accounts/api';

/** Collections (issue 18): the API's hooks over the routes declared in packages/shared. */

export interface CollectionFilters extends MovementListFilters {
  method: PaymentMethod | '';
  customerId: string;
}

export const collectionsApi = apiClient(collectionRoutes);

const collectionsKey = ['collections'] as const;

const collectionQueries = sideQueries('collections', {
  list: (filters: CollectionFilters, page, pageSize) =>
    collectionsApi.list({ query: { ...withoutBlanks(filters), page, pageSize } }),
  one: (id) => collectionsApi.get({ params: { id } }).then((answer) => answer.data),
});

export const useCollections = collectionQueries.useList;
export const useCollection = collectionQueries.useOne;

export function useCustomerOpenDocuments(customerId: string) {
  return useQuery({
    queryKey: [...collectionsKey, 'open-documents', customerId],
    queryFn: () => collectionsApi.openDocuments({ params: { customerId } }).then((answer) => answer.data),
    enabled: isRecordId(customerId),
    refetchOnWindowFocus: false,
  });
}

/** The medical history's badge: the patient's account at a glance. */
export function usePatientBalance(patientId: string, enabled = true) {
  return useQuery({
    queryKey: [...customerAccountsKey, 'patient', patientId],
    queryFn: () => customerAccountsApi.patientBalance({ params: { patientId } }).then((answer) => answer.data),
    enabled: enabled && isRecordId(patientId),
  });
}

/** After a collection changes: its lists, the sales it touched, every customer's account and the lookup. */
export function invalidateCollections(): Promise<void> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: collectionsKey }),
    queryClient.invalidateQueries({ queryKey: customerAccountsKey }),
    queryClient.invalidateQueries({ queryKey: ['customers'] }),
    queryClient.invalidateQueries({ queryKey: ['sales'] }),
  ]).then(() => undefined);
}
