import type {
  allocateCollectionSchema,
  Collection,
  CollectionListItem,
  CustomerOpenDocuments,
  createCollectionSchema,
  markCollectionPaidSchema,
  PatientBalance,
  reverseCollectionSchema,
} from '@odontia/shared/schemas/collections';
import type { Page } from '@odontia/shared/schemas/common';
import type { CustomerAccount, CustomerLedger } from '@odontia/shared/schemas/current-accounts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { http } from '../../lib/http';
import { queryClient } from '../../lib/query-client';
import { isRecordId } from '../../lib/record-id';

/** Collections and customers' current accounts (issue 18): the API calls and their queries. */

export type CollectionAnswer = { data: Collection; code?: string };

export interface CollectionFilters {
  q: string;
  sort: string;
  status: string;
  method: string;
  from: string;
  to: string;
  customerId: string;
}

function filterParams(filters: Partial<Record<string, string>>): URLSearchParams {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(filters)) if (value) params.set(name, String(value).trim());
  return params;
}

export const collectionsApi = {
  list: (filters: CollectionFilters, page: number, pageSize: number) => {
    const params = filterParams({ ...filters });
    params.set('page', String(page));
    params.set('pageSize', String(pageSize));
    return http.get<Page<CollectionListItem>>(`collections?${params}`);
  },
  get: (id: string) => http.get<CollectionAnswer>(`collections/${encodeURIComponent(id)}`),
  create: (body: z.input<typeof createCollectionSchema>, idempotencyKey: string) =>
    http.post<CollectionAnswer>('collections', body, { idempotencyKey }),
  allocate: (id: string, body: z.input<typeof allocateCollectionSchema>, idempotencyKey: string) =>
    http.post<CollectionAnswer>(`collections/${encodeURIComponent(id)}/allocate`, body, { idempotencyKey }),
  reverse: (id: string, body: z.input<typeof reverseCollectionSchema>, idempotencyKey: string) =>
    http.post<CollectionAnswer>(`collections/${encodeURIComponent(id)}/reverse`, body, { idempotencyKey }),
  markPaid: (id: string, body: z.input<typeof markCollectionPaidSchema>, idempotencyKey: string) =>
    http.post<CollectionAnswer>(`collections/${encodeURIComponent(id)}/paid`, body, { idempotencyKey }),
  receipt: (id: string) => http.download(`collections/${encodeURIComponent(id)}/receipt`),
  openDocuments: (customerId: string) =>
    http.get<{ data: CustomerOpenDocuments }>(`customers/${encodeURIComponent(customerId)}/open-documents`),
};

export interface CustomerAccountFilters {
  q: string;
  sort: string;
  withBalance: boolean;
  kind: string;
}

function accountParams(filters: CustomerAccountFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.q.trim()) params.set('q', filters.q.trim());
  if (filters.sort) params.set('sort', filters.sort);
  if (filters.withBalance) params.set('withBalance', 'true');
  if (filters.kind) params.set('kind', filters.kind);
  return params;
}

export type CustomerAccountsPage = Page<CustomerAccount> & {
  totals: Pick<CustomerAccount, 'balance' | 'overdue' | 'onAccount' | 'aging'>;
};

const base = (customerId: string) => `current-accounts/customers/${encodeURIComponent(customerId)}`;

export const customerAccountsApi = {
  list: (filters: CustomerAccountFilters, page: number, pageSize: number) => {
    const params = accountParams(filters);
    params.set('page', String(page));
    params.set('pageSize', String(pageSize));
    return http.get<CustomerAccountsPage>(`current-accounts/customers?${params}`);
  },
  export: (filters: CustomerAccountFilters) => {
    const params = accountParams(filters).toString();
    return http.download(`current-accounts/customers/export.csv${params ? `?${params}` : ''}`);
  },
  ledger: (customerId: string, startDate: string, endDate: string) =>
    http.get<{ data: CustomerLedger }>(`${base(customerId)}/ledger?${new URLSearchParams({ startDate, endDate })}`),
  ledgerFile: (customerId: string, kind: 'csv' | 'pdf', startDate: string, endDate: string) =>
    http.download(`${base(customerId)}/ledger.${kind}?${new URLSearchParams({ startDate, endDate })}`),
  sendStatement: (customerId: string, startDate: string, endDate: string) =>
    http.post<{ data: { to: string }; code: string }>(`${base(customerId)}/statement/send`, { startDate, endDate }),
  patientBalance: (patientId: string) =>
    http.get<{ data: PatientBalance }>(`patients/${encodeURIComponent(patientId)}/balance`),
};

const collectionsKey = ['collections'] as const;
const accountsKey = ['customer-accounts'] as const;

export function useCollections(filters: CollectionFilters, page: number, pageSize: number) {
  return useQuery({
    queryKey: [...collectionsKey, 'list', filters, page, pageSize],
    queryFn: () => collectionsApi.list(filters, page, pageSize),
    placeholderData: keepPreviousData,
  });
}

export function useCollection(id: string) {
  return useQuery({
    queryKey: [...collectionsKey, 'one', id],
    queryFn: () => collectionsApi.get(id).then((answer) => answer.data),
    enabled: isRecordId(id),
    refetchOnWindowFocus: false,
  });
}

export function useCustomerOpenDocuments(customerId: string) {
  return useQuery({
    queryKey: [...collectionsKey, 'open-documents', customerId],
    queryFn: () => collectionsApi.openDocuments(customerId).then((answer) => answer.data),
    enabled: isRecordId(customerId),
    refetchOnWindowFocus: false,
  });
}

export function useCustomerAccounts(filters: CustomerAccountFilters, page: number, pageSize: number) {
  return useQuery({
    queryKey: [...accountsKey, 'list', filters, page, pageSize],
    queryFn: () => customerAccountsApi.list(filters, page, pageSize),
    placeholderData: keepPreviousData,
  });
}

export function useCustomerLedger(customerId: string, startDate: string, endDate: string) {
  return useQuery({
    queryKey: [...accountsKey, 'ledger', customerId, startDate, endDate],
    queryFn: () => customerAccountsApi.ledger(customerId, startDate, endDate).then((answer) => answer.data),
    enabled: isRecordId(customerId) && Boolean(startDate && endDate) && startDate <= endDate,
    placeholderData: keepPreviousData,
  });
}

export function usePatientBalance(patientId: string, enabled = true) {
  return useQuery({
    queryKey: [...accountsKey, 'patient', patientId],
    queryFn: () => customerAccountsApi.patientBalance(patientId).then((answer) => answer.data),
    enabled: enabled && isRecordId(patientId),
  });
}

/** After a collection changes: its lists, the sales it touched, every customer's account and the lookup. */
export function invalidateCollections(): Promise<void> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: collectionsKey }),
    queryClient.invalidateQueries({ queryKey: accountsKey }),
    queryClient.invalidateQueries({ queryKey: ['customers'] }),
    queryClient.invalidateQueries({ queryKey: ['sales'] }),
  ]).then(() => undefined);
}
