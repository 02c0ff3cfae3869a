import { providerAccountRoutes as declared } from '@odontia/shared/routes/current-accounts';
import { idSchema } from '@odontia/shared/schemas/common';
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
  const _params = z.object({ providerId: idSchema });

  route.serve(
    declared.list,
    {
      ...read,
      summary: "Providers' balances, overdue amounts, aging and what is on account, with the totals of every match",
      // A second of lag is fine: with a read replica it reads there (plugins/routes.ts).
      replica: true,
    },
    ({ ctx, query }) => service.list({ ctx, query }),
  );

  route.serve(
    declared.exportCsv,
    {
      ...read,
      summary: "The providers' current accounts as CSV (UTF-8 with BOM, ';'; same search, filter and sort, every page)",
    },
    async ({ ctx, query, reply }) => sendCsv(reply, await service.exportCsv({ ctx, query })),
  );

  route.serve(
    declared.ledger,
    {
      ...read,
      summary: "One provider's ledger between two dates: opening balance carried in, running balance, totals",
    },
    async ({ ctx, params, query }) => ({ data: await service.ledger({ ctx, providerId: params.providerId, query }) }),
  );

  route.serve(
    declared.ledgerCsv,
    {
      ...read,
      summary: "One provider's ledger as CSV (UTF-8 with BOM, ';')",
    },
    async ({ ctx, params, query, reply }) =>
      sendCsv(reply, await service.ledgerCsv({ ctx, providerId: params.providerId, query })),
  );

  route.serve(
    declared.ledgerPdf,
    {
      ...read,
      summary: "One provider's ledger as PDF, in the reader's language",
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
