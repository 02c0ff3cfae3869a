import type { Page } from '@odontia/shared/schemas/common';
import type {
  CustomerAccount,
  CustomerLedger,
  ProviderAccount,
  ProviderLedger,
} from '@odontia/shared/schemas/current-accounts';
import type { UseQueryResult } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import type { AccountFigures } from './account-figures';
import {
  type AccountListFilters,
  customerAccountFiles,
  providerAccountFiles,
  useCustomerAccounts,
  useCustomerLedger,
  useProviderAccounts,
  useProviderLedger,
} from './api';

type FileAnswer = Promise<{ blob: Blob; fileName: string | null }>;

export type { AccountListFilters };

/** A row of an accounts list: the party's figures, name and state. */
export type AccountRow = AccountFigures & Pick<ProviderAccount, 'name' | 'active' | 'currency' | 'lastMovementOn'>;

/**
 * One side of the current accounts (customers, who owe the clinic; providers, whom it owes):
 * what its list says, where it goes and what it calls.
 */
export interface AccountListSide<Account extends AccountRow> {
  /** `/cc-customers`, `/cc-providers`: the list; a ledger is at `<path>/<partyId>`. */
  path: string;
  partyIdOf: (account: Account) => string;
  testId: string;
  /** The translation keys of the list's texts (customers have their own). */
  texts: Record<'party' | 'search' | 'searchPlaceholder' | 'caption' | 'empty' | 'emptyFiltered', string>;
  exportName: string;
  /** The kinds the list filters by (customers: patient, company, insurer); none for providers. */
  kinds?: readonly NonNullable<AccountListFilters['kind']>[];
  /** The small line under the party's name: its kind and tax id. */
  detail: (account: Account, t: TFunction<['currentAccounts', 'common']>) => string;
  useAccounts: (
    filters: AccountListFilters,
    page: number,
    pageSize: number,
  ) => UseQueryResult<Page<Account> & { totals: AccountFigures }>;
  exportList: (filters: AccountListFilters) => FileAnswer;
}

/** One side's ledger: its party's heading, the movement of money it starts, its files. */
export interface LedgerSide<Ledger extends ProviderLedger | CustomerLedger> {
  /** The accounts list the ledger goes back to. */
  path: string;
  /** The route's parameter that holds the party's id. */
  param: 'customerId' | 'providerId';
  notFoundCode: string;
  testId: string;
  nameTestId: string;
  pageTitleKey: string;
  detail: (ledger: Ledger, t: TFunction<['currentAccounts', 'common']>) => string;
  /** Where a new movement of money starts, preset to the party (its id is appended). */
  newMovement: { path: string; testId: string; textKey: string };
  /** Where a ledger entry's movement is viewed (its id is appended). */
  movementPath: string;
  useLedger: (partyId: string, startDate: string, endDate: string) => UseQueryResult<Ledger>;
  file: (partyId: string, kind: 'csv' | 'pdf', startDate: string, endDate: string) => FileAnswer;
  /** The statement by e-mail, when the side sends one. */
  sendStatement?: (partyId: string, startDate: string, endDate: string) => Promise<{ code: string }>;
}

const customerDetail = (account: CustomerAccount, t: TFunction<['currentAccounts', 'common']>) =>
  [t(`customers.kinds.${account.kind}`), account.taxId].filter(Boolean).join(' · ');

export const customerAccounts: AccountListSide<CustomerAccount> = {
  path: '/cc-customers',
  partyIdOf: (account) => account.customerId,
  testId: 'customer-accounts-list',
  texts: {
    party: 'customers.customer',
    search: 'customers.search',
    searchPlaceholder: 'customers.searchPlaceholder',
    caption: 'customers.caption',
    empty: 'customers.empty',
    emptyFiltered: 'customers.emptyFiltered',
  },
  exportName: 'cuentas-corrientes-clientes.csv',
  kinds: ['patient', 'company', 'insurer'],
  detail: customerDetail,
  useAccounts: useCustomerAccounts,
  exportList: customerAccountFiles.exportList,
};

export const providerAccounts: AccountListSide<ProviderAccount> = {
  path: '/cc-providers',
  partyIdOf: (account) => account.providerId,
  testId: 'accounts-list',
  texts: {
    party: 'fields.provider',
    search: 'list.search',
    searchPlaceholder: 'list.searchPlaceholder',
    caption: 'list.caption',
    empty: 'list.empty',
    emptyFiltered: 'list.emptyFiltered',
  },
  exportName: 'cuentas-corrientes-proveedores.csv',
  detail: (account) => account.nif ?? '',
  useAccounts: useProviderAccounts,
  exportList: providerAccountFiles.exportList,
};

export const customerLedger: LedgerSide<CustomerLedger> = {
  path: '/cc-customers',
  param: 'customerId',
  notFoundCode: 'customer_not_found',
  testId: 'customer-ledger',
  nameTestId: 'ledger-customer',
  pageTitleKey: 'common:pages.ccCustomerLedger',
  detail: (ledger, t) => customerDetail(ledger.account, t),
  newMovement: {
    path: '/collections/create?customerId=',
    testId: 'ledger-new-collection',
    textKey: 'customers.newCollection',
  },
  movementPath: '/collections/view/',
  useLedger: useCustomerLedger,
  file: customerAccountFiles.ledger,
  sendStatement: customerAccountFiles.sendStatement,
};

export const providerLedger: LedgerSide<ProviderLedger> = {
  path: '/cc-providers',
  param: 'providerId',
  notFoundCode: 'provider_not_found',
  testId: 'provider-ledger',
  nameTestId: 'ledger-provider',
  pageTitleKey: 'common:pages.ccProviderLedger',
  detail: (ledger) => ledger.account.nif ?? '',
  newMovement: { path: '/payments/create?providerId=', testId: 'ledger-new-payment', textKey: 'ledger.newPayment' },
  movementPath: '/payments/view/',
  useLedger: useProviderLedger,
  file: providerAccountFiles.ledger,
};
