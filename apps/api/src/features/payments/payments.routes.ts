import {
  allocatePaymentSchema,
  createPaymentSchema,
  markPaymentPaidSchema,
  openDocumentsSchema,
  paymentListQuerySchema,
  paymentPageSchema,
  paymentResponseSchema,
  reversePaymentSchema,
} from '@odontia/shared/schemas/payments';
import { recordParamsSchema as params } from '@odontia/shared/schemas/records';
import type { FastifyPluginAsync } from 'fastify';
import { sendPdf } from '../../lib/pdf.ts';
import { routes } from '../../plugins/routes.ts';
import { paymentProofPdf } from './payment-proof.pdf.ts';
import { paymentsService as service } from './payments.service.ts';

/**
 * /api/payments (issue 17): payments to providers. Reads need commercial.read, creating and
 * allocating commercial.write; marking paid commercial.write; a reversal undoes money already
 * recorded, so it is a supervisor's act: commercial.delete (administrator, supervisor).
 */
export const paymentsRoutes: FastifyPluginAsync = async (app) => {
  const route = routes(app, { tags: ['payments'] });
  const read = { permission: 'commercial.read', failureCode: 'error_get_payment' } as const;
  const write = { permission: 'commercial.write', failureCode: 'error_update_payment' } as const;

  route.get(
    '/payments',
    {
      ...read,
      summary: 'Payments to providers: search (number, transaction, provider, notes), provider, status, dates, sort',
      querystring: paymentListQuerySchema,
      answer: paymentPageSchema,
    },
    ({ ctx, query }) => service.list({ ctx, query }),
  );

  route.post(
    '/payments',
    {
      permission: 'commercial.write',
      failureCode: 'error_create_payment',
      summary:
        'Record a payment to a provider, allocated to open documents or left on account (Idempotency-Key required; 409 payment_over_allocation, currency_mismatch)',
      body: createPaymentSchema,
      answer: paymentResponseSchema,
      status: 201,
      idempotent: 'payments.create',
    },
    async ({ ctx, body }) => ({ data: await service.create({ ctx, input: body }), code: 'payment_created' as const }),
  );

  route.get(
    '/payments/:id',
    { ...read, summary: 'One payment with its allocations', params, answer: paymentResponseSchema },
    async ({ ctx, params }) => ({
      data: await service.get({ ctx, ...params }),
    }),
  );

  route.post(
    '/payments/:id/allocations',
    {
      ...write,
      summary:
        'Allocate what the payment has on account to open documents (Idempotency-Key required; 409 payment_over_allocation, version_conflict)',
      params,
      body: allocatePaymentSchema,
      answer: paymentResponseSchema,
      idempotent: 'payments.allocate',
    },
    async ({ ctx, params, body }) => ({
      data: await service.allocate({ ctx, ...params, input: body }),
      code: 'payment_allocated' as const,
    }),
  );

  route.post(
    '/payments/:id/reverse',
    {
      permission: 'commercial.delete',
      failureCode: 'error_update_payment',
      summary:
        'Reverse a payment with a reason: the documents owe again, a reversal entry credits the account (Idempotency-Key required; 409 payment_already_reversed)',
      params,
      body: reversePaymentSchema,
      answer: paymentResponseSchema,
      idempotent: 'payments.reverse',
    },
    async ({ ctx, params, body }) => ({
      data: await service.reverse({ ctx, ...params, input: body }),
      code: 'payment_reversed' as const,
    }),
  );

  route.post(
    '/payments/:id/paid',
    {
      ...write,
      summary: 'A pending payment was paid (Idempotency-Key required; 409 payment_already_paid)',
      params,
      body: markPaymentPaidSchema,
      answer: paymentResponseSchema,
      idempotent: 'payments.paid',
    },
    async ({ ctx, params, body }) => ({
      data: await service.markPaid({ ctx, ...params, input: body }),
      code: 'payment_marked_paid' as const,
    }),
  );

  route.get(
    '/payments/:id/proof.pdf',
    {
      ...read,
      summary: "The printable proof of payment (PDF) in the reader's language",
      params,
      produces: ['application/pdf'],
      transaction: false,
    },
    async ({ actor, params, reply }) => {
      const printable = await app.db.withTenant(actor.accountId, (tx) =>
        service.printable({ ctx: { ...actor, tx }, ...params }),
      );
      return sendPdf(reply, await paymentProofPdf({ ...printable, timeZone: actor.timeZone }));
    },
  );

  route.get(
    '/providers/:id/open-documents',
    {
      permission: 'commercial.read',
      failureCode: 'error_get_provider',
      summary: "The provider's registered documents with something still owed, oldest due first",
      params,
      answer: openDocumentsSchema,
    },
    async ({ ctx, params }) => ({ data: await service.openDocuments({ ctx, providerId: params.id }) }),
  );
};
