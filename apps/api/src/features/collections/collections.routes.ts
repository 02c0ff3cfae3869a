import { collectionRoutes as declared } from '@odontia/shared/routes/money';
import type { FastifyPluginAsync } from 'fastify';
import { routes } from '../../plugins/routes.ts';
import { sidePaymentRoutes } from '../commercial/side-payment-routes.ts';
import { collectionsService as service } from './collections.service.ts';
import { receiptPdf } from './receipt.pdf.ts';

/** /api/collections (issue 18): money customers pay the clinic, on the routes of either side's money. */
export const collectionsRoutes: FastifyPluginAsync = async (app) => {
  sidePaymentRoutes(app, {
    entity: 'collection',
    tag: 'collections',
    declared,
    service,
    print: receiptPdf,
    summaries: {
      list: 'Collections: search (number, transaction, customer, notes), customer, patient, status, method, dates, sort',
      create:
        'Record money a customer (or a patient) paid, allocated to open sales or left on account (Idempotency-Key required; 409 payment_over_allocation, currency_mismatch)',
      one: 'One collection with its allocations',
      allocate:
        'Allocate what the collection has on account to open sales of its customer (Idempotency-Key required; 409 payment_over_allocation, version_conflict, collection_already_reversed)',
      paid: 'A pending collection was cleared (Idempotency-Key required; 409 collection_already_paid)',
      reverse:
        'Reverse a collection with a reason: its sales owe again, a reversal entry debits the account (Idempotency-Key required; 409 collection_already_reversed)',
      print: "The collection's receipt (PDF, «Recibo de cobro») in the customer's language",
    },
    replica: true,
  });

  routes(app, { tags: ['collections'] }).serve(
    declared.openDocuments,
    {
      permission: 'commercial.read',
      failureCode: 'error_get_customer',
      summary:
        "The customer's issued sales with something still owed, oldest due first, with its balance and on-account credit",
    },
    async ({ ctx, params }) => ({ data: await service.openDocuments({ ctx, customerId: params.customerId }) }),
  );
};
