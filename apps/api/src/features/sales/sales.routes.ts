import {
  billablesQuerySchema,
  billablesSchema,
  correctSaleSchema,
  createSaleSchema,
  issueSaleSchema,
  saleDeletedSchema,
  saleIntegrityQuerySchema,
  saleIntegritySchema,
  saleListQuerySchema,
  salePageSchema,
  saleResponseSchema,
  updateSaleSchema,
} from '@odontia/shared/schemas/sales';
import { recordParamsSchema as params } from '@odontia/shared/schemas/records';
import type { FastifyPluginAsync } from 'fastify';
import { routes } from '../../plugins/routes.ts';
import { salesService as service } from './sales.service.ts';

/** Sales (issue 18): the clinic's documents to its customers; see sales.service.ts. */
export const salesRoutes: FastifyPluginAsync = async (app) => {
  const route = routes(app, { tags: ['sales'] });
  const read = { permission: 'commercial.read', failureCode: 'error_get_sale' } as const;
  const write = { permission: 'commercial.write' } as const;

  route.get(
    '/sales',
    {
      ...read,
      summary: "The clinic's sales: search (number, customer, notes), customer, patient, type, status, dates, sort, pages",
      querystring: saleListQuerySchema,
      answer: salePageSchema,
    },
    ({ ctx, query }) => service.list({ ctx, query }),
  );

  route.get(
    '/sales/integrity',
    {
      ...read,
      summary: 'The numbering and hash-chain report of the issued sales: gaps, changed documents, broken links',
      querystring: saleIntegrityQuerySchema,
      answer: saleIntegritySchema,
    },
    async ({ ctx, query }) => ({
      data: await service.integrity({ ctx, ...(query.pointOfService ? { pointOfService: query.pointOfService } : {}) }),
    }),
  );

  route.get(
    '/billables',
    {
      ...read,
      summary: "The price list's treatments and the catalogue's medicines and supplies in one search (20 at most)",
      querystring: billablesQuerySchema,
      answer: billablesSchema,
    },
    async ({ ctx, query }) => ({ data: await service.billables({ ctx, q: query.q }) }),
  );

  route.get(
    '/sales/:id',
    {
      ...read,
      summary: 'One sale with its lines, totals, related documents, collections, e-invoice status and hash',
      params,
      answer: saleResponseSchema,
    },
    async ({ ctx, params }) => ({ data: await service.get({ ctx, id: params.id }) }),
  );

  route.post(
    '/sales',
    {
      ...write,
      failureCode: 'error_create_sale',
      summary:
        'A sale draft, or issued at once with issue: true (409 customer_inactive, point_of_sale_inactive, related_document_invalid, already_invoiced, insufficient_stock)',
      body: createSaleSchema,
      answer: saleResponseSchema,
      status: 201,
    },
    ({ ctx, body }) => service.create({ ctx, input: body }),
  );

  route.put(
    '/sales/:id',
    {
      ...write,
      failureCode: 'error_update_sale',
      summary: 'Edit a draft (its lines replaced); 409 document_final once issued, version_conflict when stale',
      params,
      body: updateSaleSchema,
      answer: saleResponseSchema,
    },
    ({ ctx, params, body }) => service.update({ ctx, id: params.id, input: body }),
  );

  route.post(
    '/sales/:id/issue',
    {
      ...write,
      failureCode: 'error_update_sale',
      summary:
        'Issue a draft: numbered and chained, final from now on; ledger, stock, invoiced sources, cash or cards collection and e-invoicing in one transaction',
      params,
      body: issueSaleSchema,
      answer: saleResponseSchema,
    },
    ({ ctx, params, body }) => service.issue({ ctx, id: params.id, version: body.version }),
  );

  route.post(
    '/sales/:id/correct',
    {
      ...write,
      failureCode: 'error_create_sale',
      summary:
        'A draft credit or debit note of an issued invoice, debit note or receipt, its lines copied (a credit note needs commercial.delete)',
      params,
      body: correctSaleSchema,
      answer: saleResponseSchema,
      status: 201,
    },
    ({ ctx, params, body }) => service.correct({ ctx, id: params.id, documentType: body.documentType }),
  );

  route.delete(
    '/sales/:id',
    {
      ...write,
      failureCode: 'error_delete_sale',
      summary: 'Delete a draft (kept and audited); 409 document_final once issued',
      params,
      answer: saleDeletedSchema,
    },
    ({ ctx, params }) => service.remove({ ctx, id: params.id }),
  );
};
