import {
  createPurchaseSchema,
  providerSkuMatchSchema,
  providerSkuQuerySchema,
  purchaseDeletedSchema,
  purchaseListQuerySchema,
  purchasePageSchema,
  purchaseResponseSchema,
  registerDocumentSchema,
  updatePurchaseSchema,
} from '@odontia/shared/schemas/commercial-documents';
import { recordParamsSchema as params } from '@odontia/shared/schemas/records';
import type { FastifyPluginAsync } from 'fastify';
import { routes } from '../../plugins/routes.ts';
import { purchasesService as service } from './purchases.service.ts';

/** Purchases (issue 17): documents typed from the providers' papers; see purchases.service.ts. */
export const purchasesRoutes: FastifyPluginAsync = async (app) => {
  const route = routes(app, { tags: ['purchases'] });
  const read = { permission: 'commercial.read', failureCode: 'error_get_purchase' } as const;
  const write = { permission: 'commercial.write' } as const;

  route.get(
    '/purchases',
    {
      ...read,
      summary: "The clinic's purchases: search (number, provider, notes), provider, type, status, dates, sort, pages",
      querystring: purchaseListQuerySchema,
      answer: purchasePageSchema,
    },
    ({ ctx, query }) => service.list({ ctx, query }),
  );

  route.get(
    '/purchases/provider-sku',
    {
      ...read,
      summary: "The catalogue item a provider's SKU was last paired with (null when unknown)",
      querystring: providerSkuQuerySchema,
      answer: providerSkuMatchSchema,
    },
    ({ ctx, query }) => service.providerSku({ ctx, providerId: query.providerId, sku: query.sku }),
  );

  route.get(
    '/purchases/:id',
    {
      ...read,
      summary: 'One purchase with its lines, totals, related documents, allocations and copied party data',
      params,
      answer: purchaseResponseSchema,
    },
    async ({ ctx, params }) => ({ data: await service.get({ ctx, id: params.id }) }),
  );

  route.post(
    '/purchases',
    {
      ...write,
      failureCode: 'error_create_purchase',
      summary:
        'Type a purchase: a draft, or registered at once with register: true (409 purchase_number_exists, related_document_invalid, delivery_note_already_invoiced, insufficient_stock)',
      body: createPurchaseSchema,
      answer: purchaseResponseSchema,
      status: 201,
    },
    ({ ctx, body }) => service.create({ ctx, input: body }),
  );

  route.put(
    '/purchases/:id',
    {
      ...write,
      failureCode: 'error_update_purchase',
      summary: 'Edit a draft (its lines replaced); 409 document_final once registered, version_conflict when stale',
      params,
      body: updatePurchaseSchema,
      answer: purchaseResponseSchema,
    },
    ({ ctx, params, body }) => service.update({ ctx, id: params.id, input: body }),
  );

  route.post(
    '/purchases/:id/register',
    {
      ...write,
      failureCode: 'error_update_purchase',
      summary:
        'Register a draft: final from now on; stock, costs, SKUs, the current account and a credit note applied in one transaction',
      params,
      body: registerDocumentSchema,
      answer: purchaseResponseSchema,
    },
    ({ ctx, params, body }) => service.register({ ctx, id: params.id, version: body.version }),
  );

  route.delete(
    '/purchases/:id',
    {
      permission: 'commercial.delete',
      failureCode: 'error_delete_purchase',
      summary: 'Delete a draft (kept and audited); 409 document_final once registered',
      params,
      answer: purchaseDeletedSchema,
    },
    ({ ctx, params }) => service.remove({ ctx, id: params.id }),
  );
};
