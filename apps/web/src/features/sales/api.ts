import type { SaleDocumentType } from '@odontia/shared/commercial';
import type { Page } from '@odontia/shared/schemas/common';
import type {
  Billable,
  createSaleSchema,
  Sale,
  SaleIntegrity,
  SaleListItem,
  updateSaleSchema,
} from '@odontia/shared/schemas/sales';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { http } from '../../lib/http';
import { queryClient } from '../../lib/query-client';
import { isRecordId } from '../../lib/record-id';
import { useAction } from '../../lib/use-action';

/** Sales (issue 18): the API's hooks; types are the shared contracts'. */

export interface SaleFilters {
  q: string;
  sort: string;
  customerId: string;
  patientId: string;
  documentType: SaleDocumentType | '';
  status: 'draft' | 'issued' | '';
  dateFrom: string;
  dateTo: string;
}

export type SaleAnswer = { data: Sale; code?: string };

function listParams(query: Partial<SaleFilters> & { page: number; pageSize: number }): URLSearchParams {
  const params = new URLSearchParams({ page: String(query.page), pageSize: String(query.pageSize) });
  for (const name of [
    'q',
    'sort',
    'customerId',
    'patientId',
    'documentType',
    'status',
    'dateFrom',
    'dateTo',
  ] as const) {
    const value = query[name]?.trim();
    if (value) params.set(name, value);
  }
  return params;
}

const one = (id: string) => `sales/${encodeURIComponent(id)}`;

export const salesApi = {
  list: (query: Partial<SaleFilters> & { page: number; pageSize: number }) =>
    http.get<Page<SaleListItem>>(`sales?${listParams(query)}`),
  get: (id: string) => http.get<SaleAnswer>(one(id)),
  create: (body: z.input<typeof createSaleSchema>, idempotencyKey: string) =>
    http.post<SaleAnswer>('sales', body, { idempotencyKey }),
  update: (id: string, body: z.input<typeof updateSaleSchema>, idempotencyKey: string) =>
    http.put<SaleAnswer>(one(id), body, { idempotencyKey }),
  issue: (id: string, version: number, idempotencyKey: string) =>
    http.post<SaleAnswer>(`${one(id)}/issue`, { version }, { idempotencyKey }),
  correct: (id: string, documentType: 'credit_note' | 'debit_note', idempotencyKey: string) =>
    http.post<SaleAnswer>(`${one(id)}/correct`, { documentType }, { idempotencyKey }),
  send: (id: string) => http.post<{ code: string; to: string }>(`${one(id)}/send`, {}),
  remove: (id: string) => http.delete<{ code: string }>(one(id)),
  pdf: (id: string) => http.download(`${one(id)}/pdf`),
  integrity: () => http.get<{ data: SaleIntegrity }>('sales/integrity'),
  billables: (q: string) => http.get<{ data: Billable[] }>(`billables?${new URLSearchParams({ q })}`),
};

const salesKey = ['sales'] as const;

export function useSaleList(query: SaleFilters & { page: number; pageSize: number }) {
  return useQuery({
    queryKey: [...salesKey, 'list', query],
    queryFn: () => salesApi.list(query),
    placeholderData: keepPreviousData,
  });
}

export function useSale(id: string) {
  return useQuery({
    queryKey: [...salesKey, 'one', id],
    queryFn: () => salesApi.get(id).then((answer) => answer.data),
    enabled: isRecordId(id),
    refetchOnWindowFocus: false,
  });
}

export function useSaleIntegrity() {
  return useQuery({ queryKey: [...salesKey, 'integrity'], queryFn: () => salesApi.integrity().then((a) => a.data) });
}

/** The customer's issued documents a new one may name (the document a note corrects, the delivery note an invoice bills). */
export function useRelatedSales(customerId: string, patientId: string, enabled: boolean) {
  return useQuery({
    queryKey: [...salesKey, 'related', customerId, patientId],
    queryFn: () =>
      salesApi.list({
        ...(customerId ? { customerId } : { patientId }),
        status: 'issued',
        page: 1,
        pageSize: 100,
        sort: '-date',
      }),
    enabled: enabled && (isRecordId(customerId) || isRecordId(patientId)),
  });
}

export function useBillables(q: string, enabled: boolean) {
  return useQuery({
    queryKey: ['billables', q],
    queryFn: () => salesApi.billables(q).then((answer) => answer.data),
    enabled,
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
}

/** Sales move the customers' accounts, collections and stock together. */
export function refreshSales(): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: salesKey }),
    queryClient.invalidateQueries({ queryKey: ['customers'] }),
    queryClient.invalidateQueries({ queryKey: ['collections'] }),
    queryClient.invalidateQueries({ queryKey: ['inventory'] }),
  ]);
}

/** A new sale's fields, or an edit's (with the version it started from). */
export type SaleBody = z.input<typeof createSaleSchema> | z.input<typeof updateSaleSchema>;

/** Saving (and issuing with it), issuing and correcting are user actions with their Idempotency-Key (useAction). */
export function useSaveSale(id?: string) {
  return useAction({
    mutationFn: (body: SaleBody, idempotencyKey) =>
      id
        ? salesApi.update(id, body as z.input<typeof updateSaleSchema>, idempotencyKey)
        : salesApi.create(body as z.input<typeof createSaleSchema>, idempotencyKey),
    onSuccess: () => refreshSales(),
  });
}

export function useIssueSale(id: string) {
  return useAction({
    mutationFn: (version: number, idempotencyKey) => salesApi.issue(id, version, idempotencyKey),
    onSuccess: () => refreshSales(),
  });
}

export function useCorrectSale(id: string) {
  return useAction({
    mutationFn: (documentType: 'credit_note' | 'debit_note', idempotencyKey) =>
      salesApi.correct(id, documentType, idempotencyKey),
    onSuccess: () => refreshSales(),
  });
}

export function useSendSale(id: string) {
  return useAction({ mutationFn: () => salesApi.send(id) });
}

export function useDeleteSale(id: string) {
  return useAction({ mutationFn: () => salesApi.remove(id), onSuccess: () => refreshSales() });
}

export const salePath = (id: string) => `/sales/view/${encodeURIComponent(id)}`;
