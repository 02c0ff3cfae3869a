import { purchaseRoutes as declared } from '@odontia/shared/routes/purchases';
import type { FastifyPluginAsync } from 'fastify';
import { routes } from '../../plugins/routes.ts';
import { sideDocumentRoutes } from '../commercial/side-document-routes.ts';
import { purchaseOrderPdf } from './purchase-order.pdf.ts';
import { purchasesService as service } from './purchases.service.ts';

/** Purchases (issue 17): documents typed from the providers' papers; see purchases.service.ts. */
export const purchasesRoutes: FastifyPluginAsync = async (app) => {
  sideDocumentRoutes(app, {
    entity: 'purchase',
    finalize: 'register',
    declared,
    service,
    print: purchaseOrderPdf,
    summaries: {
      list: "The clinic's purchases: search (number, provider, notes), provider, type, status, dates, sort, pages",
      one: 'One purchase with its lines, totals, related documents, allocations and copied party data',
      create:
        'Type a purchase: a draft, or registered at once with register: true (Idempotency-Key required; 409 purchase_number_exists, related_document_invalid, delivery_note_already_invoiced, insufficient_stock)',
      update:
        'Edit a draft (its lines replaced), and register it with register: true (Idempotency-Key required); 409 document_final once registered, version_conflict when stale',
      finalize:
        'Register a draft (Idempotency-Key required): final from now on; stock, costs, SKUs, the current account and a credit note applied in one transaction',
      pdf: "A purchase order as a PDF in the reader's language (a draft prints as such; 409 not_a_purchase_order)",
      remove: 'Delete a draft (kept and audited); 409 document_final once registered',
    },
  });

  const route = routes(app, { tags: ['purchases'] });

  route.serve(
    declared.providerSku,
    {
      permission: 'commercial.read',
      failureCode: 'error_get_purchase',
      summary: "The catalogue item a provider's SKU was last paired with (null when unknown)",
    },
    ({ ctx, query }) => service.providerSku({ ctx, providerId: query.providerId, sku: query.sku }),
  );

  route.serve(
    declared.send,
    {
      permission: 'commercial.write',
      failureCode: 'error_get_purchase',
      summary:
        "E-mail a registered purchase order's PDF to its provider and record it (Idempotency-Key required; 409 provider_without_email, purchase_order_draft, not_a_purchase_order)",
    },
    ({ ctx, params }) => service.send({ ctx, id: params.id, mailer: app.mailer }),
  );

  route.serve(
    declared.receive,
    {
      permission: 'commercial.write',
      failureCode: 'error_create_purchase',
      summary:
        'Receive a registered purchase order: a draft delivery note or invoice of what is still pending per line, or less (Idempotency-Key required; 409 nothing_to_receive, order_over_received, order_line_invalid, purchase_order_draft)',
    },
    ({ ctx, params, body }) => service.receive({ ctx, id: params.id, input: body }),
  );
};
