import { recordParamsSchema as params } from '@odontia/shared/schemas/records';
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
  saleSentSchema,
  updateSaleSchema,
} from '@odontia/shared/schemas/sales';
import type { FastifyPluginAsync } from 'fastify';
import { AppError } from '../../lib/app-error.ts';
import { sendPdf } from '../../lib/pdf.ts';
import { routes } from '../../plugins/routes.ts';
import { saleMail } from './sale.mail.ts';
import { salePdf } from './sale.pdf.ts';
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
      summary:
        "The clinic's sales: search (number, customer, notes), customer, patient, type, status, dates, sort, pages",
      querystring: saleListQuerySchema,
      answer: salePageSchema,
      // A second of lag is fine: with a read replica it reads there (plugins/routes.ts).
      replica: true,
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
        'A sale draft, or issued at once with issue: true (Idempotency-Key required; 409 customer_inactive, point_of_sale_inactive, related_document_invalid, already_invoiced, insufficient_stock)',
      body: createSaleSchema,
      answer: saleResponseSchema,
      status: 201,
      idempotent: 'sales.create',
    },
    ({ ctx, body }) => service.create({ ctx, input: body }),
  );

  route.put(
    '/sales/:id',
    {
      ...write,
      failureCode: 'error_update_sale',
      summary:
        'Edit a draft (its lines replaced), and issue it with issue: true (Idempotency-Key required); 409 document_final once issued, version_conflict when stale',
      params,
      body: updateSaleSchema,
      answer: saleResponseSchema,
      idempotent: 'sales.update',
    },
    ({ ctx, params, body }) => service.update({ ctx, id: params.id, input: body }),
  );

  route.post(
    '/sales/:id/issue',
    {
      ...write,
      failureCode: 'error_update_sale',
      summary:
        'Issue a draft (Idempotency-Key required): numbered and chained, final from now on; ledger, stock, invoiced sources, cash or cards collection and e-invoicing in one transaction',
      params,
      body: issueSaleSchema,
      answer: saleResponseSchema,
      idempotent: 'sales.issue',
    },
    ({ ctx, params, body }) => service.issue({ ctx, id: params.id, version: body.version }),
  );

  route.post(
    '/sales/:id/correct',
    {
      ...write,
      failureCode: 'error_create_sale',
      summary:
        'A draft credit or debit note of an issued invoice, debit note or receipt, its lines copied (Idempotency-Key required; a credit note needs commercial.delete)',
      params,
      body: correctSaleSchema,
      answer: saleResponseSchema,
      status: 201,
      idempotent: 'sales.correct',
    },
    ({ ctx, params, body }) => service.correct({ ctx, id: params.id, documentType: body.documentType }),
  );

  route.get(
    '/sales/:id/pdf',
    {
      ...read,
      summary: "The sale as a PDF in the customer's language (a draft prints as such)",
      params,
      produces: ['application/pdf'],
      transaction: false,
    },
    async ({ actor, params, reply }) => {
      const printed = await app.db.withTenant(actor.accountId, (tx) =>
        service.printable({ ctx: { ...actor, tx }, id: params.id }),
      );
      return sendPdf(reply, await salePdf(printed));
    },
  );

  route.post(
    '/sales/:id/send',
    {
      ...write,
      failureCode: 'error_get_sale',
      summary: "E-mail the sale's PDF to the customer (409 customer_without_email)",
      params,
      answer: saleSentSchema,
      transaction: false,
    },
    async ({ actor, params }) => {
      const printed = await app.db.withTenant(actor.accountId, (tx) =>
        service.printable({ ctx: { ...actor, tx }, id: params.id }),
      );
      const to = service.recipientOf(printed);
      const { pdf, fileName } = await salePdf(printed);
      try {
        await app.mailer.send({
          to,
          ...saleMail(printed),
          attachments: [{ filename: fileName, content: pdf, contentType: 'application/pdf' }],
        });
      } catch (error) {
        app.log.warn({ err: error, saleId: params.id }, 'sale e-mail not sent');
        throw new AppError('error_sending_email');
      }
      await app.db.withTenant(actor.accountId, (tx) =>
        service.recordSent({ ctx: { ...actor, tx }, id: params.id, to }),
      );
      return { code: 'sale_sent' as const, to };
    },
  );

  route.delete(
    '/sales/:id',
    {
      // A commercial delete, as a purchase draft's (docs/permissions.md: the user level has none).
      permission: 'commercial.delete',
      failureCode: 'error_delete_sale',
      summary: 'Delete a draft (kept and audited); 409 document_final once issued',
      params,
      answer: saleDeletedSchema,
    },
    ({ ctx, params }) => service.remove({ ctx, id: params.id }),
  );
};
