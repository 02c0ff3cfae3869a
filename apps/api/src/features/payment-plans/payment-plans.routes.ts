import { paymentPlanRoutes as declared } from '@odontia/shared/routes/payment-plans';
import type { FastifyPluginAsync } from 'fastify';
import { routes } from '../../plugins/routes.ts';
import { paymentPlansService as service } from './payment-plans.service.ts';

/**
 * /api/payment-plans (issue 40): plans of issued invoices paid in instalments, the due and overdue
 * instalments, create (with its schedule) and cancel. Read with commercial.read, written with
 * commercial.write; both writes require an Idempotency-Key.
 */
export const paymentPlansRoutes: FastifyPluginAsync = async (app) => {
  const route = routes(app, { tags: ['payment-plans'] });
  const read = { permission: 'commercial.read', failureCode: 'error_get_payment_plan' } as const;

  route.serve(
    declared.list,
    {
      ...read,
      summary: 'Payment plans, newest first: by status (active, completed, cancelled), document, customer or patient',
    },
    ({ ctx, query }) => service.list({ ctx, query }),
  );
  route.serve(
    declared.instalments,
    {
      ...read,
      summary:
        "Unpaid instalments of active plans by due date: overdue (before the clinic's today, default), due (up to `to`, default 30 days ahead) or every open one",
    },
    ({ ctx, query }) => service.listInstalments({ ctx, query }),
  );
  route.serve(
    declared.ofCollection,
    {
      ...read,
      summary:
        "Which instalments of payment plans a collection paid, per allocation (its screen and receipt: 'Cuota 2 de 6')",
    },
    async ({ ctx, params }) => ({ data: await service.ofCollection({ ctx, paymentId: params.id }) }),
  );
  route.serve(
    declared.get,
    { ...read, summary: 'One payment plan with its instalments, what each has been paid and its state' },
    async ({ ctx, params }) => ({ data: await service.get({ ctx, id: params.id }) }),
  );
  route.serve(
    declared.create,
    {
      permission: 'commercial.write',
      failureCode: 'error_create_payment_plan',
      summary:
        'A payment plan over what an issued invoice or debit note still owes; with a rate, its interest is a debit note issued with it (Idempotency-Key required; 409 payment_plan_exists, payment_plan_amount_exceeds_pending, payment_plan_document_invalid)',
    },
    async ({ ctx, body }) => ({
      data: await service.create({ ctx, input: body }),
      code: 'payment_plan_created' as const,
    }),
  );
  route.serve(
    declared.cancel,
    {
      permission: 'commercial.write',
      failureCode: 'error_cancel_payment_plan',
      summary:
        "Cancel a plan with a reason: the documents' debt stays as it is (Idempotency-Key required; 409 version_conflict, payment_plan_not_active)",
    },
    async ({ ctx, params, body }) => ({
      data: await service.cancel({ ctx, id: params.id, input: body }),
      code: 'payment_plan_cancelled' as const,
    }),
  );
};
