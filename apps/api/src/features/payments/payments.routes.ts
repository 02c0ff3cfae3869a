import { paymentRoutes as declared } from '@odontia/shared/routes/money';
import type { FastifyPluginAsync } from 'fastify';
import { routes } from '../../plugins/routes.ts';
import { sidePaymentRoutes } from '../commercial/side-payment-routes.ts';
import { paymentProofPdf } from './payment-proof.pdf.ts';
import { paymentsService as service } from './payments.service.ts';

/** /api/payments (issue 17): payments to providers, on the routes of either side's money. */
export const paymentsRoutes: FastifyPluginAsync = async (app) => {
  sidePaymentRoutes(app, {
    entity: 'payment',
    tag: 'payments',
    declared,
    service,
    print: paymentProofPdf,
    summaries: {
      list: 'Payments to providers: search (number, transaction, provider, notes), provider, status, dates, sort',
      create:
        'Record a payment to a provider, allocated to open documents or left on account (Idempotency-Key required; 409 payment_over_allocation, currency_mismatch)',
      one: 'One payment with its allocations',
      allocate:
        'Allocate what the payment has on account to open documents (Idempotency-Key required; 409 payment_over_allocation, version_conflict)',
      paid: 'A pending payment was paid (Idempotency-Key required; 409 payment_already_paid)',
      reverse:
        'Reverse a payment with a reason: the documents owe again, a reversal entry credits the account (Idempotency-Key required; 409 payment_already_reversed)',
      print: "The printable proof of payment (PDF) in the reader's language",
    },
  });

  routes(app, { tags: ['payments'] }).serve(
    declared.openDocuments,
    {
      permission: 'commercial.read',
      failureCode: 'error_get_provider',
      summary: "The provider's registered documents with something still owed, oldest due first",
    },
    async ({ ctx, params }) => ({ data: await service.openDocuments({ ctx, providerId: params.id }) }),
  );
};
