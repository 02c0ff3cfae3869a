import { customerAccountRoutes as declared } from '@odontia/shared/routes/current-accounts';
import type { FastifyPluginAsync } from 'fastify';
import { inTransaction, routes } from '../../plugins/routes.ts';
import { customerAccountsService as service } from './customer-accounts.service.ts';
import { sideAccountRoutes } from './side-account-routes.ts';

/**
 * /api/current-accounts/customers (issue 18): what customers owe the clinic. Reads need
 * commercial.read; sending a statement by e-mail commercial.write. /api/patients/:patientId/balance
 * is the medical history's badge: the patient's balance at a glance.
 */
export const customerAccountsRoutes: FastifyPluginAsync = async (app) => {
  sideAccountRoutes(app, {
    declared,
    service,
    ledgerPaper: { read: service.printableStatement, render: service.renderStatement },
    summaries: {
      list: "Customers' balances, overdue amounts, aging and what is on account, with the totals of every match",
      exportCsv:
        "The customers' current accounts as CSV (UTF-8 with BOM, ';'; same search, filter and sort, every page)",
      ledger: "One customer's ledger between two dates: opening balance carried in, running balance, totals",
      ledgerCsv: "One customer's ledger as CSV (UTF-8 with BOM, ';')",
      ledgerPdf: "One customer's statement of account as PDF, in the customer's language",
    },
  });

  const route = routes(app, { tags: ['current accounts'] });
  const read = { permission: 'commercial.read', failureCode: 'error_get_current_account' } as const;

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
