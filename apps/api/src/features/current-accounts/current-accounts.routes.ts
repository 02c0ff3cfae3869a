import { idSchema } from '@odontia/shared/schemas/common';
import {
  ledgerQuerySchema,
  providerAccountsPageSchema,
  providerAccountsQuerySchema,
  providerLedgerSchema,
} from '@odontia/shared/schemas/current-accounts';
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { sendCsv } from '../../lib/csv.ts';
import { sendPdf } from '../../lib/pdf.ts';
import { routes } from '../../plugins/routes.ts';
import { ledgerPdf, currentAccountsService as service } from './current-accounts.service.ts';

/** /api/current-accounts/providers (issue 17): read-only, commercial.read. */
export const currentAccountsRoutes: FastifyPluginAsync = async (app) => {
  const route = routes(app, { tags: ['current accounts'] });
  const read = { permission: 'commercial.read', failureCode: 'error_get_current_account' } as const;
  const params = z.object({ providerId: idSchema });

  route.get(
    '/current-accounts/providers',
    {
      ...read,
      summary: "Providers' balances, overdue amounts, aging and what is on account, with the totals of every match",
      querystring: providerAccountsQuerySchema,
      answer: providerAccountsPageSchema,
      // A second of lag is fine: with a read replica it reads there (plugins/routes.ts).
      replica: true,
    },
    ({ ctx, query }) => service.list({ ctx, query }),
  );

  route.get(
    '/current-accounts/providers/export.csv',
    {
      ...read,
      summary: "The providers' current accounts as CSV (UTF-8 with BOM, ';'; same search, filter and sort, every page)",
      querystring: providerAccountsQuerySchema,
      produces: ['text/csv'],
    },
    async ({ ctx, query, reply }) => sendCsv(reply, await service.exportCsv({ ctx, query })),
  );

  route.get(
    '/current-accounts/providers/:providerId',
    {
      ...read,
      summary: "One provider's ledger between two dates: opening balance carried in, running balance, totals",
      params,
      querystring: ledgerQuerySchema,
      answer: providerLedgerSchema,
    },
    async ({ ctx, params, query }) => ({ data: await service.ledger({ ctx, providerId: params.providerId, query }) }),
  );

  route.get(
    '/current-accounts/providers/:providerId/ledger.csv',
    {
      ...read,
      summary: "One provider's ledger as CSV (UTF-8 with BOM, ';')",
      params,
      querystring: ledgerQuerySchema,
      produces: ['text/csv'],
    },
    async ({ ctx, params, query, reply }) =>
      sendCsv(reply, await service.ledgerCsv({ ctx, providerId: params.providerId, query })),
  );

  route.get(
    '/current-accounts/providers/:providerId/ledger.pdf',
    {
      ...read,
      summary: "One provider's ledger as PDF, in the reader's language",
      params,
      querystring: ledgerQuerySchema,
      produces: ['application/pdf'],
      transaction: false,
    },
    async ({ actor, params, query, reply }) => {
      const printable = await app.db.withTenant(actor.accountId, (tx) =>
        service.printableLedger({ ctx: { ...actor, tx }, providerId: params.providerId, query }),
      );
      return sendPdf(reply, await ledgerPdf(printable));
    },
  );
};
