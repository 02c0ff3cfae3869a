import { providerAccountRoutes as declared } from '@odontia/shared/routes/current-accounts';
import type { FastifyPluginAsync } from 'fastify';
import { ledgerPdf, currentAccountsService as service } from './current-accounts.service.ts';
import { sideAccountRoutes } from './side-account-routes.ts';

/** /api/current-accounts/providers (issue 17): read-only, commercial.read. */
export const currentAccountsRoutes: FastifyPluginAsync = async (app) => {
  sideAccountRoutes(app, {
    declared,
    service,
    ledgerPaper: { read: service.printableLedger, render: ledgerPdf },
    summaries: {
      list: "Providers' balances, overdue amounts, aging and what is on account, with the totals of every match",
      exportCsv:
        "The providers' current accounts as CSV (UTF-8 with BOM, ';'; same search, filter and sort, every page)",
      ledger: "One provider's ledger between two dates: opening balance carried in, running balance, totals",
      ledgerCsv: "One provider's ledger as CSV (UTF-8 with BOM, ';')",
      ledgerPdf: "One provider's ledger as PDF, in the reader's language",
    },
  });
};
