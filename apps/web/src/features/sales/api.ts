import type { SaleDocumentType } from '@odontia/shared/commercial';
import { saleRoutes } from '@odontia/shared/routes/sales';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiClient, type CallAnswer, type CallInput } from '../../lib/api-client';
import { queryClient } from '../../lib/query-client';
import { isRecordId } from '../../lib/record-id';
import { useAction } from '../../lib/use-action';
import { withoutBlanks } from '../commercial/list-query';

/** Sales (issue 18): the API's hooks over the routes declared in packages/shared. */

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

export type SaleAnswer = CallAnswer<typeof saleRoutes.get>;

export const salesApi = apiClient(saleRoutes);

const salesKey = ['sales'] as const;

export function useSaleList(query: SaleFilters & { page: number; pageSize: number }) {
  return useQuery({
    queryKey: [...salesKey, 'list', query],
    queryFn: () => salesApi.list({ query: withoutBlanks(query) }),
    placeholderData: keepPreviousData,
  });
}

export function useSale(id: string) {
  return useQuery({
    queryKey: [...salesKey, 'one', id],
    queryFn: () => salesApi.get({ params: { id } }).then((answer) => answer.data),
    enabled: isRecordId(id),
    refetchOnWindowFocus: false,
  });
}

export function useSaleIntegrity() {
  return useQuery({
    queryKey: [...salesKey, 'integrity'],
    queryFn: () => salesApi.integrity().then((answer) => answer.data),
  });
}

/** The customer's issued documents a new one may name (the document a note corrects, the delivery note an invoice bills). */
export function useRelatedSales(customerId: string, patientId: string, enabled: boolean) {
  return useQuery({
    queryKey: [...salesKey, 'related', customerId, patientId],
    queryFn: () =>
      salesApi.list({
        query: {
          ...(customerId ? { customerId } : { patientId }),
          status: 'issued',
          page: 1,
          pageSize: 100,
          sort: '-date',
        },
      }),
    enabled: enabled && (isRecordId(customerId) || isRecordId(patientId)),
  });
}

export function useBillables(q: string, enabled: boolean) {
  return useQuery({
    queryKey: ['billables', q],
    queryFn: () => salesApi.billables({ query: { q } }).then((answer) => answer.data),
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
export type SaleBody = CallInput<typeof saleRoutes.create>['body'] | CallInput<typeof saleRoutes.update>['body'];

/** Saving (and issuing with it), issuing and correcting are user actions with their Idempotency-Key (useAction). */
export function useSaveSale(id?: string) {
  return useAction({
    mutationFn: (body: SaleBody, idempotencyKey) =>
      id
        ? salesApi.update({
            params: { id },
            body: body as CallInput<typeof saleRoutes.update>['body'],
            idempotencyKey,
          })
        : salesApi.create({ body: body as CallInput<typeof saleRoutes.create>['body'], idempotencyKey }),
    onSuccess: () => refreshSales(),
  });
}

export function useIssueSale(id: string) {
  return useAction({
    mutationFn: (version: number, idempotencyKey) =>
      salesApi.issue({ params: { id }, body: { version }, idempotencyKey }),
    onSuccess: () => refreshSales(),
  });
}

export function useCorrectSale(id: string) {
  return useAction({
    mutationFn: (documentType: 'credit_note' | 'debit_note', idempotencyKey) =>
      salesApi.correct({ params: { id }, body: { documentType }, idempotencyKey }),
    onSuccess: () => refreshSales(),
  });
}

export function useSendSale(id: string) {
  return useAction({ mutationFn: () => salesApi.send({ params: { id } }) });
}

export function useDeleteSale(id: string) {
  return useAction({ mutationFn: () => salesApi.remove({ params: { id } }), onSuccess: () => refreshSales() });
}

export const salePath = (id: string) => `/sales/view/${encodeURIComponent(id)}`;
