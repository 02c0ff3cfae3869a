import type { SaleDocumentType } from '@odontia/shared/commercial';
import { saleRoutes } from '@odontia/shared/routes/sales';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
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

/** A submission the authority has not answered yet: the open sale is read again every 2 s until it has. */
const einvoiceWaiting = (sale: SaleAnswer['data'] | undefined) =>
  sale?.einvoice?.status === 'pending' || sale?.einvoice?.status === 'sending';

/**
 * One sale (`saleQueries.useOne`'s key): while its e-invoice waits for the authority it is read
 * again every 2 s (in the background: a poll keeps no screen unlocked), so the CAE or the
 * rejection shows when it arrives.
 */
export function useSale(id: string) {
  const queryKey = [...salesKey, 'one', id];
  return useQuery({
    queryKey,
    queryFn: () => {
      const background = einvoiceWaiting(queryClient.getQueryData<SaleAnswer['data']>(queryKey));
      return salesApi.get({ params: { id }, background }).then((answer) => answer.data);
    },
    enabled: isRecordId(id),
    refetchOnWindowFocus: false,
    refetchInterval: (query) => (einvoiceWaiting(query.state.data) ? 2000 : false),
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

type CreateBody = CallInput<typeof saleRoutes.create>['body'];
type UpdateBody = CallInput<typeof saleRoutes.update>['body'];

/** A new sale's fields, or an edit's (with the version it started from). */
export type SaleBody = CreateBody | UpdateBody;

/** Saving (and issuing with it), issuing and correcting are user actions with their Idempotency-Key (useAction). */
const saleActions = documentActions({
  create: (body: CreateBody, idempotencyKey) => salesApi.create({ body, idempotencyKey }),
  update: (id, body: UpdateBody, idempotencyKey) => salesApi.update({ params: { id }, body, idempotencyKey }),
  finalize: (id, { version, registerId }, idempotencyKey) =>
    salesApi.issue({ params: { id }, body: { version, ...(registerId ? { registerId } : {}) }, idempotencyKey }),
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

/** Sends a rejected submission again, or asks at once about one without an answer (issue 39). */
export function useRetryEinvoice(id: string) {
  return useMutation({
    mutationFn: () => salesApi.retryEinvoice({ params: { id } }),
    onSuccess: (answer) => {
      queryClient.setQueryData([...salesKey, 'one', id], answer.data);
      void queryClient.invalidateQueries({ queryKey: [...salesKey, 'list'] });
    },
  });
}

export const salePath = (id: string) => `/sales/view/${encodeURIComponent(id)}`;
