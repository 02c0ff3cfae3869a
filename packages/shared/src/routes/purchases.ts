import { apiRoute } from '../api-route.ts';
import {
  createPurchaseSchema,
  providerSkuMatchSchema,
  providerSkuQuerySchema,
  purchaseDeletedSchema,
  purchaseListQuerySchema,
  purchaseOrderSentSchema,
  purchasePageSchema,
  purchaseResponseSchema,
  receiveOrderSchema,
  registerDocumentSchema,
  updatePurchaseSchema,
} from '../schemas/commercial-documents.ts';
import { recordParamsSchema as params } from '../schemas/records.ts';
import { commercialDocumentRoutes } from './commercial.ts';

/** /api/purchases (issue 17): documents typed from the providers' papers, on the commercial document routes. */
export const purchaseRoutes = {
  ...commercialDocumentRoutes({
    side: 'purchases',
    path: '/purchases',
    finalize: 'register',
    contracts: {
      listQuery: purchaseListQuerySchema,
      page: purchasePageSchema,
      one: purchaseResponseSchema,
      create: createPurchaseSchema,
      update: updatePurchaseSchema,
      finalize: registerDocumentSchema,
      deleted: purchaseDeletedSchema,
    },
  }),
  providerSku: apiRoute({
    method: 'GET',
    path: '/purchases/provider-sku',
    query: providerSkuQuerySchema,
    answer: providerSkuMatchSchema,
  }),
  /** A purchase order (issue 35) e-mailed to its provider, and received. */
  send: apiRoute({
    method: 'POST',
    path: '/purchases/:id/send',
    params,
    answer: purchaseOrderSentSchema,
    idempotent: 'purchases.send',
  }),
  receive: apiRoute({
    method: 'POST',
    path: '/purchases/:id/receive',
    params,
    body: receiveOrderSchema,
    answer: purchaseResponseSchema,
    status: 201,
    idempotent: 'purchases.receive',
  }),
};
