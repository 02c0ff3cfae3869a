import { customerAccountRoutes, providerAccountRoutes } from '@odontia/shared/routes/current-accounts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../lib/api-client';
import { isRecordId } from '../../lib/record-id';
import { withoutBlanks } from '../commercial/list-query';

/**
 * The current accounts of both sides (issues 17, 18) over the routes declared once in
 * packages/shared (`partyAccountRoutes`): each side's list, export, ledger and its files. The
 * customers' accounts refresh with their collections, the providers' with their payments.
 */

export const customerAccountsApi = apiClient(customerAccountRoutes);
export const providerAccountsApi = apiClient(providerAccountRoutes);

export const customerAccountsKey = ['customer-accounts'] as const;
export const providerAccountsKey = ['current-accounts'] as const;

/** What every accounts list filters by; customers add their kind. */
export interface AccountListFilters {
  q: string;
  sort: string;
  withBalance: boolean;
  kind?: 'patient' | 'company' | 'insurer' | '';
}

/** The list's filters as the routes' query (the balance filter only when it is on). */
function accountsQuery({ withBalance, ...filters }: AccountListFilters) {
  return { ...withoutBlanks(filters), ...(withBalance ? { withBalance: 'true' as const } : {}) };
}

/** A ledger is read for a party and a period that makes sense. */
const ledgerReady = (partyId: string, startDate: string, endDate: string) =>
  isRecordId(partyId) && Boolean(startDate && endDate) && startDate <= endDate;

export function useCustomerAccounts(filters: AccountListFilters, page: number, pageSize: number) {
  return useQuery({
    queryKey: [...customerAccountsKey, 'list', filters, page, pageSize],
    queryFn: () => customerAccountsApi.list({ query: { ...accountsQuery(filters), page, pageSize } }),
    placeholderData: keepPreviousData,
  });
}

export function useProviderAccounts(filters: AccountListFilters, page: number, pageSize: number) {
  const { kind: _customersOnly, ...providerFilters } = filters;
  return useQuery({
    queryKey: [...providerAccountsKey, 'list', providerFilters, page, pageSize],
    queryFn: () => providerAccountsApi.list({ query: { ...accountsQuery(providerFilters), page, pageSize } }),
    placeholderData: keepPreviousData,
  });
}

/** A party's ledger for a period: read once the period makes sense, the last one kept while the next loads. */
function useLedger<T>(
  side: readonly string[],
  partyId: string,
  startDate: string,
  endDate: string,
  read: () => Promise<T>,
) {
  return useQuery({
    queryKey: [...side, 'ledger', partyId, startDate, endDate],
    queryFn: read,
    enabled: ledgerReady(partyId, startDate, endDate),
    placeholderData: keepPreviousData,
  });
}

export function useCustomerLedger(customerId: string, startDate: string, endDate: string) {
  return useLedger(customerAccountsKey, customerId, startDate, endDate, () =>
    customerAccountsApi.ledger({ params: { customerId }, query: { startDate, endDate } }).then((answer) => answer.data),
  );
}

export function useProviderLedger(providerId: string, startDate: string, endDate: string) {
  return useLedger(providerAccountsKey, providerId, startDate, endDate, () =>
    providerAccountsApi.ledger({ params: { providerId }, query: { startDate, endDate } }).then((answer) => answer.data),
  );
}

/** Each side's files: the list as CSV, a ledger as CSV or PDF, and the customers' statement by e-mail. */
export const customerAccountFiles = {
  exportList: (filters: AccountListFilters) => customerAccountsApi.exportCsv({ query: accountsQuery(filters) }),
  ledger: (customerId: string, kind: 'csv' | 'pdf', startDate: string, endDate: string) =>
    customerAccountsApi[kind === 'csv' ? 'ledgerCsv' : 'ledgerPdf']({
      params: { customerId },
      query: { startDate, endDate },
    }),
  sendStatement: (customerId: string, startDate: string, endDate: string) =>
    customerAccountsApi.sendStatement({ params: { customerId }, body: { startDate, endDate } }),
};

export const providerAccountFiles = {
  exportList: ({ kind: _customersOnly, ...filters }: AccountListFilters) =>
    providerAccountsApi.exportCsv({ query: accountsQuery(filters) }),
  ledger: (providerId: string, kind: 'csv' | 'pdf', startDate: string, endDate: string) =>
    providerAccountsApi[kind === 'csv' ? 'ledgerCsv' : 'ledgerPdf']({
      params: { providerId },
      query: { startDate, endDate },
    }),
};
