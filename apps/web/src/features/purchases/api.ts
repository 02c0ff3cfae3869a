import type { PurchaseDocumentType } from '@odontia/shared/commercial';
import type {
  createPurchaseSchema,
  Purchase,
  PurchaseListItem,
  updatePurchaseSchema,
} from '@odontia/shared/schemas/commercial-documents';
import type { Page } from '@odontia/shared/schemas/common';
import type { InventoryItem } from '@odontia/shared/schemas/inventory';
import type { Provider } from '@odontia/shared/schemas/providers';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { http } from '../../lib/http';
import { queryClient } from '../../lib/query-client';
import { isRecordId } from '../../lib/record-id';
import { useAction } from '../../lib/use-action';

/** Purchases (issue 17): the API's hooks; types are the shared contracts'. */

export interface PurchaseFilters {
  q: string;
  sort: string;
  providerId: string;
  documentType: PurchaseDocumentType | '';
  status: 'draft' | 'registered' | '';
  from: string;
  to: string;
}

export type PurchaseAnswer = { data: Purchase; code?: string };

/** "Recibir": the kind of receipt and, line by line, how much arrived. */
export interface ReceiveOrderBody {
  documentType: 'delivery_note' | 'invoice';
  lines: { sourceLineId: string; quantity: string }[];
}

function listParams(query: Partial<PurchaseFilters> & { page: number; pageSize: number }): URLSearchParams {
  const params = new URLSearchParams({ page: String(query.page), pageSize: String(query.pageSize) });
  for (const name of ['q', 'sort', 'providerId', 'documentType', 'status', 'from', 'to'] as const) {
    const value = query[name]?.trim();
    if (value) params.set(name, value);
  }
  return params;
}

export const purchasesApi = {
  list: (query: Partial<PurchaseFilters> & { page: number; pageSize: number }) =>
    http.get<Page<PurchaseListItem>>(`purchases?${listParams(query)}`),
  get: (id: string) => http.get<PurchaseAnswer>(`purchases/${encodeURIComponent(id)}`),
  create: (body: z.input<typeof createPurchaseSchema>, idempotencyKey: string) =>
    http.post<PurchaseAnswer>('purchases', body, { idempotencyKey }),
  update: (id: string, body: z.input<typeof updatePurchaseSchema>, idempotencyKey: string) =>
    http.put<PurchaseAnswer>(`purchases/${encodeURIComponent(id)}`, body, { idempotencyKey }),
  register: (id: string, version: number, idempotencyKey: string) =>
    http.post<PurchaseAnswer>(`purchases/${encodeURIComponent(id)}/register`, { version }, { idempotencyKey }),
  remove: (id: string) => http.delete<{ code: string }>(`purchases/${encodeURIComponent(id)}`),
  /** A purchase order's PDF (issue 35). */
  pdf: (id: string) => http.download(`purchases/${encodeURIComponent(id)}/pdf`),
  send: (id: string, idempotencyKey: string) =>
    http.post<{ code: string; to: string; sentAt: string }>(
      `purchases/${encodeURIComponent(id)}/send`,
      {},
      { idempotencyKey },
    ),
  receive: (id: string, body: ReceiveOrderBody, idempotencyKey: string) =>
    http.post<PurchaseAnswer>(`purchases/${encodeURIComponent(id)}/receive`, body, { idempotencyKey }),
  providerSku: (providerId: string, sku: string) =>
    http.get<{
      data: { itemId: string; itemName: string; itemKind: 'medication' | 'supply'; lastUnitCost: string | null } | null;
    }>(`purchases/provider-sku?${new URLSearchParams({ providerId, sku })}`),
  providers: (q: string) =>
    http.get<Page<Provider>>(`providers?${new URLSearchParams({ q, page: '1', pageSize: '8', active: 'true' })}`),
  items: (kind: 'supply' | 'medication', q: string) =>
    http.get<Page<InventoryItem>>(
      `${kind === 'supply' ? 'supplies' : 'medications'}?${new URLSearchParams({ q, page: '1', pageSize: '6', productStatus: 'active', sort: 'name' })}`,
    ),
};

const purchasesKey = ['purchases'] as const;

export function usePurchaseList(query: PurchaseFilters & { page: number; pageSize: number }) {
  return useQuery({
    queryKey: [...purchasesKey, 'list', query],
    queryFn: () => purchasesApi.list(query),
    placeholderData: keepPreviousData,
  });
}

export function usePurchase(id: string) {
  return useQuery({
    queryKey: [...purchasesKey, 'one', id],
    queryFn: () => purchasesApi.get(id).then((answer) => answer.data),
    enabled: isRecordId(id),
    refetchOnWindowFocus: false,
  });
}

/** The provider's registered documents a new one may name (its related document). */
export function useRelatedCandidates(providerId: string, enabled: boolean) {
  return useQuery({
    queryKey: [...purchasesKey, 'related', providerId],
    queryFn: () => purchasesApi.list({ providerId, status: 'registered', page: 1, pageSize: 100, sort: '-date' }),
    enabled: enabled && isRecordId(providerId),
  });
}

export function useProviderSearch(q: string, enabled: boolean) {
  return useQuery({
    queryKey: ['providers', 'picker', q],
    queryFn: () => purchasesApi.providers(q),
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

/** A new purchase's fields, or an edit's (with the version it started from). */
export type PurchaseBody = z.input<typeof createPurchaseSchema> | z.input<typeof updatePurchaseSchema>;

/** Saving (and registering with it) and registering are user actions with their Idempotency-Key (useAction). */
export function useSavePurchase(id?: string) {
  return useAction({
    mutationFn: (body: PurchaseBody, idempotencyKey) =>
      id
        ? purchasesApi.update(id, body as z.input<typeof updatePurchaseSchema>, idempotencyKey)
        : purchasesApi.create(body as z.input<typeof createPurchaseSchema>, idempotencyKey),
    onSuccess: () => refreshPurchases(),
  });
}

export function useRegisterPurchase(id: string) {
  return useAction({
    mutationFn: (version: number, idempotencyKey) => purchasesApi.register(id, version, idempotencyKey),
    onSuccess: () => refreshPurchases(),
  });
}

/** E-mailing an order to its provider and receiving it are user actions with their Idempotency-Key. */
export function useSendPurchaseOrder(id: string) {
  return useAction<{ code: string; to: string; sentAt: string }>({
    mutationFn: (_nothing, idempotencyKey) => purchasesApi.send(id, idempotencyKey),
    onSuccess: () => refreshPurchases(),
  });
}

export function useReceivePurchaseOrder(id: string) {
  return useAction({
    mutationFn: (body: ReceiveOrderBody, idempotencyKey) => purchasesApi.receive(id, body, idempotencyKey),
    onSuccess: () => refreshPurchases(),
  });
}

export function useDeletePurchase(id: string) {
  return useAction({ mutationFn: () => purchasesApi.remove(id), onSuccess: () => refreshPurchases() });
}

export const purchasePath = (id: string) => `/purchases/view/${encodeURIComponent(id)}`;
