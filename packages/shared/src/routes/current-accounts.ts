import { z } from 'zod';
import { apiRoute } from '../api-route.ts';
import { patientBalanceSchema } from '../schemas/collections.ts';
import { idSchema } from '../schemas/common.ts';
import {
  customerAccountsPageSchema,
  customerAccountsQuerySchema,
  customerLedgerSchema,
  ledgerQuerySchema,
  providerAccountsPageSchema,
  providerAccountsQuerySchema,
  providerLedgerSchema,
  sendStatementResponseSchema,
  sendStatementSchema,
} from '../schemas/current-accounts.ts';
import { patientParamsSchema } from '../schemas/records.ts';
import { partyAccountRoutes } from './commercial.ts';

const customerParams = z.object({ customerId: idSchema });

/** /api/current-accounts/providers (issue 17): what the clinic owes its providers. */
export const providerAccountRoutes = partyAccountRoutes({
  path: '/current-accounts/providers',
  party: '/:providerId',
  ledger: '',
  contracts: {
    listQuery: providerAccountsQuerySchema,
    page: providerAccountsPageSchema,
    party: z.object({ providerId: idSchema }),
    ledgerQuery: ledgerQuerySchema,
    ledger: providerLedgerSchema,
  },
});

/** /api/current-accounts/customers (issue 18): what customers owe the clinic, and its statement by e-mail. */
export const customerAccountRoutes = {
  ...partyAccountRoutes({
    path: '/current-accounts/customers',
    party: '/:customerId',
    ledger: '/ledger',
    contracts: {
      listQuery: customerAccountsQuerySchema,
      page: customerAccountsPageSchema,
      party: customerParams,
      ledgerQuery: ledgerQuerySchema,
      ledger: customerLedgerSchema,
    },
  }),
  sendStatement: apiRoute({
    method: 'POST',
    path: '/current-accounts/customers/:customerId/statement/send',
    params: customerParams,
    body: sendStatementSchema,
    answer: sendStatementResponseSchema,
  }),
  /** The medical history's badge: the patient's account at a glance. */
  patientBalance: apiRoute({
    method: 'GET',
    path: '/patients/:patientId/balance',
    params: patientParamsSchema,
    answer: patientBalanceSchema,
  }),
};
