import { z } from 'zod';
import { apiRoute } from '../api-route.ts';
import {
  allocateCollectionSchema,
  collectionListQuerySchema,
  collectionPageSchema,
  collectionResponseSchema,
  createCollectionSchema,
  customerOpenDocumentsSchema,
  markCollectionPaidSchema,
  reverseCollectionSchema,
} from '../schemas/collections.ts';
import { idSchema } from '../schemas/common.ts';
import {
  allocatePaymentSchema,
  createPaymentSchema,
  markPaymentPaidSchema,
  openDocumentsSchema,
  paymentListQuerySchema,
  paymentPageSchema,
  paymentResponseSchema,
  reversePaymentSchema,
} from '../schemas/payments.ts';
import { recordParamsSchema } from '../schemas/records.ts';
import { moneyMovementRoutes } from './commercial.ts';

/** /api/collections (issue 18): money customers pay the clinic, on the money-movement routes. */
export const collectionRoutes = {
  ...moneyMovementRoutes({
    side: 'collections',
    path: '/collections',
    // The first scope collections had; changing it would let a retried create run twice.
    createScope: 'collection',
    allocatePath: 'allocate',
    printPath: 'receipt',
    contracts: {
      listQuery: collectionListQuerySchema,
      page: collectionPageSchema,
      one: collectionResponseSchema,
      create: createCollectionSchema,
      allocate: allocateCollectionSchema,
      paid: markCollectionPaidSchema,
      reverse: reverseCollectionSchema,
    },
  }),
  /** The customer's sales still owed, and what the customer has on account: what a collection allocates. */
  openDocuments: apiRoute({
    method: 'GET',
    path: '/customers/:customerId/open-documents',
    params: z.object({ customerId: idSchema }),
    answer: customerOpenDocumentsSchema,
  }),
};

/** /api/payments (issue 17): payments to providers, on the money-movement routes. */
export const paymentRoutes = {
  ...moneyMovementRoutes({
    side: 'payments',
    path: '/payments',
    createScope: 'payments.create',
    allocatePath: 'allocations',
    printPath: 'proof.pdf',
    contracts: {
      listQuery: paymentListQuerySchema,
      page: paymentPageSchema,
      one: paymentResponseSchema,
      create: createPaymentSchema,
      allocate: allocatePaymentSchema,
      paid: markPaymentPaidSchema,
      reverse: reversePaymentSchema,
    },
  }),
  /** The provider's registered documents still owed: what a payment allocates. */
  openDocuments: apiRoute({
    method: 'GET',
    path: '/providers/:id/open-documents',
    params: recordParamsSchema,
    answer: openDocumentsSchema,
  }),
};
