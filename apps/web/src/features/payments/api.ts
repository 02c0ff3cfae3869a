import type { Page } from '@odontia/shared/schemas/common';
import type { ProviderAccount, ProviderLedger } from '@odontia/shared/schemas/current-accounts';
import type {
  allocatePaymentSchema,
  createPaymentSchema,
  markPaymentPaidSchema,
  OpenDocument,
  Payment,
  PaymentListItem,
  reversePaymentSchema,
} from '@odontia/shared/schemas/payments';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { http } from '../../lib/http';
import { queryClient } from '../../lib/query-client';
import { isRecordId } from '../../lib/record-id';

/** Payments to providers and provider current accounts (issue 17): the API calls and their queries. */

export type PaymentAnswer = { data: Payment; code?: string };
export interface ProviderHit {
  id: string;
  fantasyName: string;
  nif: string | null;
  currency: string;
  active?: boolean;
}

export interface PaymentFilters {
  q: string;
  sort: string;
  status: string;
  from: string;
  to: string;
  providerId: string;
}

function filterParams(filters: Partial<PaymentFilters>): URLSearchParams {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(filters)) if (value) params.set(name, String(value).trim());
  return params;
}

export const paymentsApi = {
  list: (filters: PaymentFilters, page: number, pageSize: number) => {
    const params = filterParams(filters);
    params.set('page', String(page));
    params.set('pageSize', String(pageSize));
    return http.get<Page<PaymentListItem>>(`payments?${params}`);
  },
  get: (id: string) => http.get<PaymentAnswer>(`payments/${encodeURIComponent(id)}`),
  create: (body: z.input<typeof createPaymentSchema>, idempotencyKey: string) =>
    http.post<PaymentAnswer>('payments', body, { idempotencyKey }),
  allocate: (id: string, body: z.input<typeof allocatePaymentSchema>, idempotencyKey: string) =>
    http.post<PaymentAnswer>(`payments/${encodeURIComponent(id)}/allocations`, body, { idempotencyKey }),
  reverse: (id: string, body: z.input<typeof reversePaymentSchema>, idempotencyKey: string) =>
    http.post<PaymentAnswer>(`payments/${encodeURIComponent(id)}/reverse`, body, { idempotencyKey }),
  markPaid: (id: string, body: z.input<typeof markPaymentPaidSchema>, idempotencyKey: string) =>
    http.post<PaymentAnswer>(`payments/${encodeURIComponent(id)}/paid`, body, { idempotencyKey }),
  proof: (id: string) => http.download(`payments/${encodeURIComponent(id)}/proof.pdf`),
  openDocuments: (providerId: string) =>
    http.get<{ data: OpenDocument[] }>(`providers/${encodeURIComponent(providerId)}/open-documents`),
  providers: (q: string) =>
    http.get<Page<ProviderHit>>(`providers?${new URLSearchParams({ q, pageSize: '10', active: 'true' })}`),
  provider: (id: string) => http.get<{ data: ProviderHit }>(`providers/${encodeURIComponent(id)}`),
};

export interface AccountFilters {
  q: string;
  sort: string;
  withBalance: boolean;
}

function accountParams(filters: AccountFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.q.trim()) params.set('q', filters.q.trim());
  if (filters.sort) params.set('sort', filters.sort);
  if (filters.withBalance) params.set('withBalance', 'true');
  return params;
}

export type AccountsPage = Page<ProviderAccount> & {
  totals: Pick<ProviderAccount, 'balance' | 'overdue' | 'onAccount' | 'aging'>;
};

export const currentAccountsApi = {
  list: (filters: AccountFilters, page: number, pageSize: number) => {
    const params = accountParams(filters);
    params.set('page', String(page));
    params.set('pageSize', String(pageSize));
    return http.get<AccountsPage>(`current-accounts/providers?${params}`);
  },
  export: (filters: AccountFilters) => {
    const params = accountParams(filters).toString();
    return http.download(`current-accounts/providers/export.csv${params ? `?${params}` : ''}`);
  },
  ledger: (providerId: string, startDate: string, endDate: string) =>
    http.get<{ data: ProviderLedger }>(
      `current-accounts/providers/${encodeURIComponent(providerId)}?${new URLSearchParams({ startDate, endDate })}`,
    ),
  ledgerFile: (providerId: string, kind: 'csv' | 'pdf', startDate: string, endDate: string) =>
    http.download(
      `current-accounts/providers/${encodeURIComponent(providerId)}/ledger.${kind}?${new URLSearchParams({ startDate, endDate })}`,
    ),
};

const paymentsKey = ['payments'] as const;
const accountsKey = ['current-accounts'] as const;

export function usePayments(filters: PaymentFilters, page: number, pageSize: number) {
  return useQuery({
    queryKey: [...paymentsKey, 'list', filters, page, pageSize],
    queryFn: () => paymentsApi.list(filters, page, pageSize),
    placeholderData: keepPreviousData,
  });
}

export function usePayment(id: string) {
  return useQuery({
    queryKey: [...paymentsKey, 'one', id],
    queryFn: () => paymentsApi.get(id).then((answer) => answer.data),
    enabled: isRecordId(id),
    refetchOnWindowFocus: false,
  });
}

export function useOpenDocuments(providerId: string) {
  return useQuery({
    queryKey: [...paymentsKey, 'open-documents', providerId],
    queryFn: () => paymentsApi.openDocuments(providerId).then((answer) => answer.data),
    enabled: isRecordId(providerId),
    refetchOnWindowFocus: false,
  });
}

export function useProviderSearch(q: string, enabled: boolean) {
  return useQuery({
    queryKey: ['providers', 'search', q],
    queryFn: () => paymentsApi.providers(q),
    enabled,
    placeholderData: keepPreviousData,
  });
}

export function useAccounts(filters: AccountFilters, page: number, pageSize: number) {
  return useQuery({
    queryKey: [...accountsKey, 'list', filters, page, pageSize],
    queryFn: () => currentAccountsApi.list(filters, page, pageSize),
    placeholderData: keepPreviousData,
  });
}

export function useLedger(providerId: string, startDate: string, endDate: string) {
  return useQuery({
    queryKey: [...accountsKey, 'ledger', providerId, startDate, endDate],
    queryFn: () => currentAccountsApi.ledger(providerId, startDate, endDate).then((answer) => answer.data),
    enabled: isRecordId(providerId) && Boolean(startDate && endDate) && startDate <= endDate,
    placeholderData: keepPreviousData,
  });
}

/** After a payment changes: its lists, the documents it touched and every current account. */
export function invalidateMoney(): Promise<void> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: paymentsKey }),
    queryClient.invalidateQueries({ queryKey: accountsKey }),
    queryClient.invalidateQueries({ queryKey: ['purchases'] }),
  ]).then(() => undefined);
}
