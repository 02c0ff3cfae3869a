import type { PurchaseDocumentType } from '@odontia/shared/commercial';
import { medicationRoutes, supplyRoutes } from '@odontia/shared/routes/inventory';
import { purchaseRoutes } from '@odontia/shared/routes/purchases';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiClient, type CallAnswer, type CallInput, callApi } from '../../lib/api-client';
import { queryClient } from '../../lib/query-client';
import { isRecordId } from '../../lib/record-id';
import { useAction } from '../../lib/use-action';
import { withoutBlanks } from '../commercial/list-query';
import { documentActions, sideQueries } from '../commercial/side-queries';
import { providersApi } from '../providers/api';

/** Purchases (issue 17): the API's hooks over the routes declared in packages/shared. */

export interface PurchaseFilters {
  q: string;
  sort: string;
  providerId: string;
  documentType: PurchaseDocumentType | '';
  status: 'draft' | 'registered' | '';
  from: string;
  to: string;
}

export type PurchaseAnswer = CallAnswer<typeof purchaseRoutes.get>;

/** "Recibir": the kind of receipt and, line by line, how much arrived. */
export type ReceiveOrderBody = CallInput<typeof purchaseRoutes.receive>['body'];

export const purchasesApi = {
  ...apiClient(purchaseRoutes),
  // The purchase line's picker: the catalogue's active items by name.
  items: (kind: 'supply' | 'medication', q: string) =>
    callApi(kind === 'supply' ? supplyRoutes.list : medicationRoutes.list, {
      query: { q, page: 1, pageSize: 6, productStatus: 'active', sort: 'name' },
    }),
};

const purchasesKey = ['purchases'] as const;

const purchaseQueries = sideQueries('purchases', {
  list: (filters: PurchaseFilters, page, pageSize) =>
    purchasesApi.list({ query: { ...withoutBlanks(filters), page, pageSize } }),
  one: (id) => purchasesApi.get({ params: { id } }).then((answer) => answer.data),
});

export function usePurchaseList({ page, pageSize, ...filters }: PurchaseFilters & { page: number; pageSize: number }) {
  return purchaseQueries.useList(filters, page, pageSize);
}

export const usePurchase = purchaseQueries.useOne;

/** The provider's registered documents a new one may name (its related document). */
export function useRelatedCandidates(providerId: string, enabled: boolean) {
  return useQuery({
    queryKey: [...purchasesKey, 'related', providerId],
    queryFn: () =>
      purchasesApi.list({ query: { providerId, status: 'registered', page: 1, pageSize: 100, sort: '-date' } }),
    enabled: enabled && isRecordId(providerId),
  });
}

export function useProviderSearch(q: string, enabled: boolean) {
  return useQuery({
    queryKey: ['providers', 'picker', q],
    queryFn: () => providersApi.list({ query: { q, page: 1, pageSize: 8, active: 'true' } }),
    enabled,
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
}

export function useCatalogueSearch(q: string, enabled: boolean) {
  return useQuery({
    queryKey: ['inventory', 'purchase-picker', q],
    queryFn: async () => {
      const [supplies, medications] = await Promise.all([
        purchasesApi.items('supply', q),
        purchasesApi.items('medication', q),
      ]);
      return [...supplies.data, ...medications.data];
    },
    enabled,
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
}

/** Purchases, the inventory (stock and costs) and the providers' accounts change together. */
export function refreshPurchases(): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: purchasesKey }),
    queryClient.invalidateQueries({ queryKey: ['inventory'] }),
  ]);
}

type CreateBody = CallInput<typeof purchaseRoutes.create>['body'];
type UpdateBody = CallInput<typeof purchaseRoutes.update>['body'];

/** A new purchase's fields, or an edit's (with the version it started from). */
export type PurchaseBody = CreateBody | UpdateBody;

/** Saving (and registering with it) and registering are user actions with their Idempotency-Key (useAction). */
const purchaseActions = documentActions({
  create: (body: CreateBody, idempotencyKey) => purchasesApi.create({ body, idempotencyKey }),
  update: (id, body: UpdateBody, idempotencyKey) => purchasesApi.update({ params: { id }, body, idempotencyKey }),
  finalize: (id, { version }, idempotencyKey) =>
    purchasesApi.register({ params: { id }, body: { version }, idempotencyKey }),
  remove: (id) => purchasesApi.remove({ params: { id } }),
  refresh: refreshPurchases,
});

export const useSavePurchase = purchaseActions.useSave;
export const useRegisterPurchase = purchaseActions.useFinalize;
export const useDeletePurchase = purchaseActions.useDelete;

/** E-mailing an order to its provider and receiving it are user actions with their Idempotency-Key. */
export function useSendPurchaseOrder(id: string) {
  return useAction({
    mutationFn: (_nothing: undefined, idempotencyKey) => purchasesApi.send({ params: { id }, idempotencyKey }),
    onSuccess: () => refreshPurchases(),
  });
}

export function useReceivePurchaseOrder(id: string) {
  return useAction({
    mutationFn: (body: ReceiveOrderBody, idempotencyKey) =>
      purchasesApi.receive({ params: { id }, body, idempotencyKey }),
    onSuccess: () => refreshPurchases(),
  });
}

export const purchasePath = (id: string) => `/purchases/view/${encodeURIComponent(id)}`;
