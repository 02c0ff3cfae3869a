import type { SaleDocumentType } from '@odontia/shared/commercial';
import { saleRoutes } from '@odontia/shared/routes/sales';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiClient, type CallAnswer, type CallInput } from '../../lib/api-client';
import { queryClient } from '../../lib/query-client';
import { isRecordId } from '../../lib/record-id';
import { useAction } from '../../lib/use-action';
import { withoutBlanks } from '../commercial/list-query';
import { documentActions, sideQueries } from '../commercial/side-queries';

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

const saleQueries = sideQueries('sales', {
  list: (filters: SaleFilters, page, pageSize) =>
    salesApi.list({ query: { ...withoutBlanks(filters), page, pageSize } }),
  one: (id) => salesApi.get({ params: { id } }).then((answer) => answer.data),
});

export function useSaleList({ page, pageSize, ...filters }: SaleFilters & { page: number; pageSize: number }) {
  return saleQueries.useList(filters, page, pageSize);
}

export const useSale = saleQueries.useOne;

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

type CreateBody = CallInput<typeof saleRoutes.create>['body'];
type UpdateBody = CallInput<typeof saleRoutes.update>['body'];

/** A new sale's fields, or an edit's (with the version it started from). */
export type SaleBody = CreateBody | UpdateBody;

/** Saving (and issuing with it), issuing and correcting are user actions with their Idempotency-Key (useAction). */
const saleActions = documentActions({
  create: (body: CreateBody, idempotencyKey) => salesApi.create({ body, idempotencyKey }),
  update: (id, body: UpdateBody, idempotencyKey) => salesApi.update({ params: { id }, body, idempotencyKey }),
  finalize: (id, version, idempotencyKey) => salesApi.issue({ params: { id }, body: { version }, idempotencyKey }),
  remove: (id) => salesApi.remove({ params: { id } }),
  refresh: refreshSales,
});

export const useSaveSale = saleActions.useSave;
export const useIssueSale = saleActions.useFinalize;
export const useDeleteSale = saleActions.useDelete;

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

export const salePath = (id: string) => `/sales/view/${encodeURIComponent(id)}`;
