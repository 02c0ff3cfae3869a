import {
  allocateCollectionSchema,
  collectionListQuerySchema,
  collectionPageSchema,
  collectionResponseSchema,
  createCollectionSchema,
  customerOpenDocumentsSchema,
  markCollectionPaidSchema,
  reverseCollectionSchema,
} from '@odontia/shared/schemas/collections';
import { idSchema } from '@odontia/shared/schemas/common';
import { recordParamsSchema as params } from '@odontia/shared/schemas/records';
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { sendPdf } from '../../lib/pdf.ts';
import { routes } from '../../plugins/routes.ts';
import { collectionsService as service } from './collections.service.ts';
import { receiptPdf } from './receipt.pdf.ts';

/**
 * /api/collections (issue 18): money customers pay the clinic. Reads need commercial.read;
 * creating, allocating and marking paid commercial.write; a reversal undoes money already
 * recorded, so it is a supervisor's act: commercial.delete (administrator, supervisor).
 */
export const collectionsRoutes: FastifyPluginAsync = async (app) => {
  const route = routes(app, { tags: ['collections'] });
  const read = { permission: 'commercial.read', failureCode: 'error_get_collection' } as const;
  const write = { permission: 'commercial.write', failureCode: 'error_update_collection' } as const;

  route.get(
    '/collections',
    {
      ...read,
      summary:
        'Collections: search (number, transaction, customer, notes), customer, patient, status, method, dates, sort',
      querystring: collectionListQuerySchema,
      answer: collectionPageSchema,
      // A second of lag is fine: with a read replica it reads there (plugins/routes.ts).
      replica: true,
    },
    ({ ctx, query }) => service.list({ ctx, query }),
  );

  route.post(
    '/collections',
    {
      permission: 'commercial.write',
      failureCode: 'error_create_collection',
      summary:
        'Record money a customer (or a patient) paid, allocated to open sales or left on account (Idempotency-Key required; 409 payment_over_allocation, currency_mismatch)',
      body: createCollectionSchema,
      answer: collectionResponseSchema,
      status: 201,
      idempotent: 'collection',
    },
    async ({ ctx, body }) => ({
      data: await service.create({ ctx, input: body }),
      code: 'collection_created' as const,
    }),
  );

  route.get(
    '/collections/:id',
    { ...read, summary: 'One collection with its allocations', params, answer: collectionResponseSchema },
    async ({ ctx, params }) => ({ data: await service.get({ ctx, ...params }) }),
  );

  route.post(
    '/collections/:id/allocate',
    {
      ...write,
      summary:
        'Allocate what the collection has on account to open sales of its customer (Idempotency-Key required; 409 payment_over_allocation, version_conflict, collection_already_reversed)',
      params,
      body: allocateCollectionSchema,
      answer: collectionResponseSchema,
      idempotent: 'collections.allocate',
    },
    async ({ ctx, params, body }) => ({
      data: await service.allocate({ ctx, ...params, input: body }),
      code: 'collection_allocated' as const,
    }),
  );

  route.post(
    '/collections/:id/paid',
    {
      ...write,
      summary: 'A pending collection was cleared (Idempotency-Key required; 409 collection_already_paid)',
      params,
      body: markCollectionPaidSchema,
      answer: collectionResponseSchema,
      idempotent: 'collections.paid',
    },
    async ({ ctx, params, body }) => ({
      data: await service.markPaid({ ctx, ...params, input: body }),
      code: 'collection_marked_paid' as const,
    }),
  );

  route.post(
    '/collections/:id/reverse',
    {
      permission: 'commercial.delete',
      failureCode: 'error_update_collection',
      summary:
        'Reverse a collection with a reason: its sales owe again, a reversal entry debits the account (Idempotency-Key required; 409 collection_already_reversed)',
      params,
      body: reverseCollectionSchema,
      answer: collectionResponseSchema,
      idempotent: 'collections.reverse',
    },
    async ({ ctx, params, body }) => ({
      data: await service.reverse({ ctx, ...params, input: body }),
      code: 'collection_reversed' as const,
    }),
  );

  route.get(
    '/collections/:id/receipt',
    {
      ...read,
      summary: "The collection's receipt (PDF, «Recibo de cobro») in the customer's language",
      params,
      produces: ['application/pdf'],
      transaction: false,
    },
    async ({ actor, params, reply }) => {
      const printable = await app.db.withTenant(actor.accountId, (tx) =>
        service.printable({ ctx: { ...actor, tx }, ...params }),
      );
      return sendPdf(reply, await receiptPdf({ ...printable, timeZone: actor.timeZone }));
    },
  );

  route.get(
    '/customers/:customerId/open-documents',
    {
      permission: 'commercial.read',
      failureCode: 'error_get_customer',
      summary:
        "The customer's issued sales with something still owed, oldest due first, with its balance and on-account credit",
      params: z.object({ customerId: idSchema }),
      answer: customerOpenDocumentsSchema,
    },
    async ({ ctx, params }) => ({ data: await service.openDocuments({ ctx, customerId: params.customerId }) }),
  );
};
