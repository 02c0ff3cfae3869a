import { customerAccountRoutes as declared } from '@odontia/shared/routes/current-accounts';
import { idSchema } from '@odontia/shared/schemas/common';
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { sendCsv } from '../../lib/csv.ts';
import { sendPdf } from '../../lib/pdf.ts';
import { inTransaction, routes } from '../../plugins/routes.ts';
import { customerAccountsService as service } from './customer-accounts.service.ts';

/**
 * /api/current-accounts/customers (issue 18): what customers owe the clinic. Reads need
 * commercial.read; sending a statement by e-mail commercial.write. /api/patients/:patientId/balance
 * is the medical history's badge: the patient's balance at a glance.
 */
export const customerAccountsRoutes: FastifyPluginAsync = async (app) => {
  const route = routes(app, { tags: ['current accounts'] });
  const read = { permission: 'commercial.read', failureCode: 'error_get_current_account' } as const;
  const _params = z.object({ customerId: idSchema });

  route.serve(
    declared.list,
    {
      ...read,
      summary: "Customers' balances, overdue amounts, aging and what is on account, with the totals of every match",
      // A second of lag is fine: with a read replica it reads there (plugins/routes.ts).
      replica: true,
    },
    ({ ctx, query }) => service.list({ ctx, query }),
  );

  route.serve(
    declared.exportCsv,
    {
      ...read,
      summary: "The customers' current accounts as CSV (UTF-8 with BOM, ';'; same search, filter and sort, every page)",
    },
    async ({ ctx, query, reply }) => sendCsv(reply, await service.exportCsv({ ctx, query })),
  );

  route.serve(
    declared.ledger,
    {
      ...read,
      summary: "One customer's ledger between two dates: opening balance carried in, running balance, totals",
    },
    async ({ ctx, params, query }) => ({ data: await service.ledger({ ctx, customerId: params.customerId, query }) }),
  );

  route.serve(
    declared.ledgerCsv,
    {
      ...read,
      summary: "One customer's ledger as CSV (UTF-8 with BOM, ';')",
    },
    async ({ ctx, params, query, reply }) =>
      sendCsv(reply, await service.ledgerCsv({ ctx, customerId: params.customerId, query })),
  );

  route.serve(
    declared.ledgerPdf,
    {
      ...read,
      summary: "One customer's statement of account as PDF, in the customer's language",
      transaction: false,
    },
    async ({ actor, params, query, reply }) => {
      const statement = await inTransaction(app.db, actor, (ctx) =>
        service.printableStatement({ ctx, customerId: params.customerId, query }),
      );
      return sendPdf(reply, await service.renderStatement(statement));
    },
  );

  route.serve(
    declared.sendStatement,
    {
      permission: 'commercial.write',
      failureCode: 'error_get_current_account',
      summary:
        "E-mail the customer's statement of account (PDF) for a period to the customer's address (409 customer_without_email)",
      transaction: false,
    },
    async ({ actor, params, body }) => ({
      data: await service.sendStatement({
        withTenant: (work) => inTransaction(app.db, actor, work),
        actor,
        mailer: app.mailer,
        customerId: params.customerId,
        query: body,
      }),
      code: 'statement_sent' as const,
    }),
  );

  route.serve(
    declared.patientBalance,
    {
      ...read,
      summary:
        "The patient's current account at a glance: balance, overdue, on account (customerId null: never billed)",
    },
    async ({ ctx, params }) => ({ data: await service.patientBalance({ ctx, patientId: params.patientId }) }),
  );
};
