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
} from '@odontia/shared/schemas/commercial-documents';
import { recordParamsSchema as params } from '@odontia/shared/schemas/records';
import type { FastifyPluginAsync } from 'fastify';
import { sendPdf } from '../../lib/pdf.ts';
import { routes } from '../../plugins/routes.ts';
import { purchaseOrderPdf } from './purchase-order.pdf.ts';
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
        'Type a purchase: a draft, or registered at once with register: true (Idempotency-Key required; 409 purchase_number_exists, related_document_invalid, delivery_note_already_invoiced, insufficient_stock)',
      body: createPurchaseSchema,
      answer: purchaseResponseSchema,
      status: 201,
      idempotent: 'purchases.create',
    },
    ({ ctx, body }) => service.create({ ctx, input: body }),
  );

  route.put(
    '/purchases/:id',
    {
      ...write,
      failureCode: 'error_update_purchase',
      summary:
        'Edit a draft (its lines replaced), and register it with register: true (Idempotency-Key required); 409 document_final once registered, version_conflict when stale',
      params,
      body: updatePurchaseSchema,
      answer: purchaseResponseSchema,
      idempotent: 'purchases.update',
    },
    ({ ctx, params, body }) => service.update({ ctx, id: params.id, input: body }),
  );

  route.post(
    '/purchases/:id/register',
    {
      ...write,
      failureCode: 'error_update_purchase',
      summary:
        'Register a draft (Idempotency-Key required): final from now on; stock, costs, SKUs, the current account and a credit note applied in one transaction',
      params,
      body: registerDocumentSchema,
      answer: purchaseResponseSchema,
      idempotent: 'purchases.register',
    },
    ({ ctx, params, body }) => service.register({ ctx, id: params.id, version: body.version }),
  );

  route.get(
    '/purchases/:id/pdf',
    {
      ...read,
      summary: "A purchase order as a PDF in the reader's language (a draft prints as such; 409 not_a_purchase_order)",
      params,
      produces: ['application/pdf'],
      transaction: false,
    },
    async ({ actor, params, reply }) => {
      const printed = await app.db.withTenant(actor.accountId, (tx) =>
        service.printable({ ctx: { ...actor, tx }, id: params.id }),
      );
      return sendPdf(reply, await purchaseOrderPdf(printed));
    },
  );

  route.post(
    '/purchases/:id/send',
    {
      ...write,
      failureCode: 'error_get_purchase',
      summary:
        "E-mail a registered purchase order's PDF to its provider and record it (Idempotency-Key required; 409 provider_without_email, purchase_order_draft, not_a_purchase_order)",
      params,
      answer: purchaseOrderSentSchema,
      idempotent: 'purchases.send',
    },
    ({ ctx, params }) => service.send({ ctx, id: params.id, mailer: app.mailer }),
  );

  route.post(
    '/purchases/:id/receive',
    {
      ...write,
      failureCode: 'error_create_purchase',
      summary:
        'Receive a registered purchase order: a draft delivery note or invoice of what is still pending per line, or less (Idempotency-Key required; 409 nothing_to_receive, order_over_received, order_line_invalid, purchase_order_draft)',
      params,
      body: receiveOrderSchema,
      answer: purchaseResponseSchema,
      status: 201,
      idempotent: 'purchases.receive',
    },
    ({ ctx, params, body }) => service.receive({ ctx, id: params.id, input: body }),
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
