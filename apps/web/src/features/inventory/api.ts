import type { ApprovalStatus, InventoryKind, ProductStatus } from '@odontia/shared/enums';
import type {
  createMedicationRequestSchema,
  createSupplyRequestSchema,
  InventoryImportResult,
  InventoryItem,
  StockAdjustmentRequest,
  StockMovement,
  updateMedicationRequestSchema,
  updateSupplyRequestSchema,
} from '@odontia/shared/schemas/inventory';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { http } from '../../lib/http';
import { queryClient } from '../../lib/query-client';
import { isRecordId } from '../../lib/record-id';

/** Where each kind lives: its API collection, its web pages and the id parameter of its item page. */
export const kindPaths = {
  medication: { api: 'medications', web: '/medications', idParam: 'id_pharmacy' },
  supply: { api: 'supplies', web: '/supplies', idParam: 'id_supplie' },
} as const satisfies Record<InventoryKind, { api: string; web: string; idParam: string }>;

export const itemPath = (kind: InventoryKind, id: string) => `${kindPaths[kind].web}/edit/${encodeURIComponent(id)}`;

import type { Page } from '@odontia/shared/schemas/common';

export type { Page };

export interface InventoryFilters {
  q: string;
  sort: string;
  lowStock: boolean;
  approvalStatus: ApprovalStatus | '';
  productStatus: ProductStatus | '';
}

export interface InventoryListQuery extends InventoryFilters {
  page: number;
  pageSize: number;
}

export type ReorderItem = InventoryItem & { suggestedQuantity: number };

/** The list's search, filters and sort as query parameters (the export takes the same). */
export function filterParams(filters: InventoryFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.q.trim()) params.set('q', filters.q.trim());
  if (filters.sort) params.set('sort', filters.sort);
  if (filters.lowStock) params.set('lowStock', 'true');
  if (filters.approvalStatus) params.set('approvalStatus', filters.approvalStatus);
  if (filters.productStatus) params.set('productStatus', filters.productStatus);
  return params;
}

const base = (kind: InventoryKind) => kindPaths[kind].api;
const one = (kind: InventoryKind, id: string) => `${base(kind)}/${encodeURIComponent(id)}`;

export type ItemAnswer = { data: InventoryItem; code?: string };

export const inventoryApi = {
  list: (kind: InventoryKind, query: InventoryListQuery) => {
    const params = filterParams(query);
    params.set('page', String(query.page));
    params.set('pageSize', String(query.pageSize));
    return http.get<Page<InventoryItem>>(`${base(kind)}?${params}`);
  },
  get: (kind: InventoryKind, id: string) => http.get<ItemAnswer>(one(kind, id)),
  create: (kind: InventoryKind, body: ItemBody) => http.post<ItemAnswer>(base(kind), body),
  update: (kind: InventoryKind, id: string, body: ItemBody) => http.put<ItemAnswer>(one(kind, id), body),
  movements: (kind: InventoryKind, id: string, page: number, pageSize: number) =>
    http.get<Page<StockMovement>>(`${one(kind, id)}/stock-movements?page=${page}&pageSize=${pageSize}`),
  adjust: (kind: InventoryKind, id: string, body: StockAdjustmentRequest) =>
    http.post<{ data: { item: InventoryItem; movement: StockMovement }; code: string }>(
      `${one(kind, id)}/stock-movements`,
      body,
    ),
  export: (kind: InventoryKind, filters: InventoryFilters) => {
    const params = filterParams(filters).toString();
    return http.download(`${base(kind)}/export${params ? `?${params}` : ''}`);
  },
  import: (kind: InventoryKind, content: string, dryRun: boolean) =>
    http.post<{ data: InventoryImportResult; code?: string }>(`${base(kind)}/import`, { content, dryRun }),
  reorder: (kind: InventoryKind | '', page: number, pageSize: number) => {
    const params = new URLSearchParams({ page: String(page), pageSize: String(pageSize) });
    if (kind) params.set('kind', kind);
    return http.get<Page<ReorderItem>>(`inventory/reorder?${params}`);
  },
};

const inventoryKey = ['inventory'] as const;
export const listKey = (kind: InventoryKind, query: InventoryListQuery) =>
  [...inventoryKey, kind, 'list', query] as const;
export const itemKey = (kind: InventoryKind, id: string) => [...inventoryKey, kind, 'item', id] as const;

export function useInventoryList(kind: InventoryKind, query: InventoryListQuery) {
  return useQuery({
    queryKey: listKey(kind, query),
    queryFn: () => inventoryApi.list(kind, query),
    placeholderData: keepPreviousData,
  });
}

export function useInventoryItem(kind: InventoryKind, id: string) {
  return useQuery({
    queryKey: itemKey(kind, id),
    queryFn: () => inventoryApi.get(kind, id).then((answer) => answer.data),
    enabled: isRecordId(id),
    // An item open in a form is not refetched under the user's feet.
    refetchOnWindowFocus: false,
  });
}

export function useStockMovements(kind: InventoryKind, id: string, page: number, pageSize: number) {
  return useQuery({
    queryKey: [...inventoryKey, kind, 'movements', id, page, pageSize],
    queryFn: () => inventoryApi.movements(kind, id, page, pageSize),
    placeholderData: keepPreviousData,
  });
}

export function useReorderList(kind: InventoryKind | '', page: number, pageSize: number) {
  return useQuery({
    queryKey: [...inventoryKey, 'reorder', kind, page, pageSize],
    queryFn: () => inventoryApi.reorder(kind, page, pageSize),
    placeholderData: keepPreviousData,
  });
}

/** Every inventory list, item and history is refetched after a change. */
export function refreshInventory(): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: inventoryKey });
}

/** A medicine's or a supply's fields, new or edited (with the version the edit started from). */
export type ItemBody =
  | z.input<typeof createMedicationRequestSchema>
  | z.input<typeof updateMedicationRequestSchema>
  | z.input<typeof createSupplyRequestSchema>
  | z.input<typeof updateSupplyRequestSchema>;

export function useSaveItem(kind: InventoryKind, id?: string) {
  return useMutation({
    mutationFn: (body: ItemBody) => (id ? inventoryApi.update(kind, id, body) : inventoryApi.create(kind, body)),
    onSuccess: () => refreshInventory(),
  });
}

export function useAdjustStock(kind: InventoryKind, id: string) {
  return useMutation({
    mutationFn: (body: StockAdjustmentRequest) => inventoryApi.adjust(kind, id, body),
    onSuccess: () => refreshInventory(),
  });
}

export function useImportItems(kind: InventoryKind) {
  return useMutation({
    mutationFn: ({ content, dryRun }: { content: string; dryRun: boolean }) =>
      inventoryApi.import(kind, content, dryRun),
    onSuccess: (_answer, variables) => (variables.dryRun ? undefined : refreshInventory()),
  });
}
