import type { ApprovalStatus, InventoryKind, ProductStatus } from '@odontia/shared/enums';
import {
  type CatalogueRoutes,
  inventoryRoutes,
  medicationRoutes,
  supplyRoutes,
} from '@odontia/shared/routes/inventory';
import type { StockAdjustmentRequest } from '@odontia/shared/schemas/inventory';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { apiClient, type CallAnswer, type CallInput } from '../../lib/api-client';
import { queryClient } from '../../lib/query-client';
import { isRecordId } from '../../lib/record-id';

/** Where each kind lives: its API collection (the export's file name), its web pages and the id parameter of its item page. */
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

export type ReorderItem = CallAnswer<typeof inventoryRoutes.reorder>['data'][number];

const catalogues = { medication: apiClient(medicationRoutes), supply: apiClient(supplyRoutes) };
const reorderApi = apiClient(inventoryRoutes);

/** The list's search, filters and sort as the routes' query (the export takes the same). */
function filterQuery({ lowStock, approvalStatus, productStatus, ...rest }: InventoryFilters) {
  return {
    ...rest,
    ...(lowStock ? { lowStock: 'true' as const } : {}),
    ...(approvalStatus ? { approvalStatus } : {}),
    ...(productStatus ? { productStatus } : {}),
  };
}

export type ItemAnswer = CallAnswer<CatalogueRoutes['get']>;

export const inventoryApi = {
  list: (kind: InventoryKind, { page, pageSize, ...filters }: InventoryListQuery) =>
    catalogues[kind].list({ query: { ...filterQuery(filters), page, pageSize } }),
  get: (kind: InventoryKind, id: string): Promise<ItemAnswer> => catalogues[kind].get({ params: { id } }),
  create: (kind: InventoryKind, body: ItemBody): Promise<ItemAnswer> =>
    kind === 'medication'
      ? catalogues.medication.create({ body: body as CallInput<typeof medicationRoutes.create>['body'] })
      : catalogues.supply.create({ body: body as CallInput<typeof supplyRoutes.create>['body'] }),
  update: (kind: InventoryKind, id: string, body: ItemBody): Promise<ItemAnswer> =>
    kind === 'medication'
      ? catalogues.medication.update({
          params: { id },
          body: body as CallInput<typeof medicationRoutes.update>['body'],
        })
      : catalogues.supply.update({ params: { id }, body: body as CallInput<typeof supplyRoutes.update>['body'] }),
  movements: (kind: InventoryKind, id: string, page: number, pageSize: number) =>
    catalogues[kind].movements({ params: { id }, query: { page, pageSize } }),
  adjust: (kind: InventoryKind, id: string, body: StockAdjustmentRequest) =>
    catalogues[kind].adjust({ params: { id }, body }),
  export: (kind: InventoryKind, filters: InventoryFilters) => catalogues[kind].export({ query: filterQuery(filters) }),
  import: (kind: InventoryKind, content: string, dryRun: boolean) =>
    catalogues[kind].import({ body: { content, dryRun } }),
  reorder: (kind: InventoryKind | '', page: number, pageSize: number) =>
    reorderApi.reorder({ query: { page, pageSize, ...(kind ? { kind } : {}) } }),
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
  | CallInput<typeof medicationRoutes.create>['body']
  | CallInput<typeof medicationRoutes.update>['body']
  | CallInput<typeof supplyRoutes.create>['body']
  | CallInput<typeof supplyRoutes.update>['body'];

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
