import { saleRoutes as declared } from '@odontia/shared/routes/sales';
import type { FastifyPluginAsync } from 'fastify';
import { AppError } from '../../lib/app-error.ts';
import { routes } from '../../plugins/routes.ts';
import { sideDocumentRoutes } from '../commercial/side-document-routes.ts';
import { saleMail } from './sale.mail.ts';
import { salePdf } from './sale.pdf.ts';
import { salesService as service } from './sales.service.ts';

/** Sales (issue 18): the clinic's documents to its customers; see sales.service.ts. */
export const salesRoutes: FastifyPluginAsync = async (app) => {
  sideDocumentRoutes(app, {
    entity: 'sale',
    finalize: 'issue',
    declared,
    service,
    print: salePdf,
    summaries: {
      list: "The clinic's sales: search (number, customer, notes), customer, patient, type, status, dates, sort, pages",
      one: 'One sale with its lines, totals, related documents, collections, e-invoice status and hash',
      create:
        'A sale draft, or issued at once with issue: true (Idempotency-Key required; 409 customer_inactive, point_of_sale_inactive, related_document_invalid, already_invoiced, insufficient_stock)',
      update:
        'Edit a draft (its lines replaced), and issue it with issue: true (Idempotency-Key required); 409 document_final once issued, version_conflict when stale',
      finalize:
        'Issue a draft (Idempotency-Key required): numbered and chained, final from now on; ledger, stock, invoiced sources, cash or cards collection and e-invoicing in one transaction',
      pdf: "The sale as a PDF in the customer's language (a draft prints as such)",
      remove: 'Delete a draft (kept and audited); 409 document_final once issued',
    },
    replica: true,
  });

  const route = routes(app, { tags: ['sales'] });
  const read = { permission: 'commercial.read', failureCode: 'error_get_sale' } as const;

  route.serve(
    declared.integrity,
    {
      ...read,
      summary: 'The numbering and hash-chain report of the issued sales: gaps, changed documents, broken links',
    },
    async ({ ctx, query }) => ({
      data: await service.integrity({ ctx, ...(query.pointOfService ? { pointOfService: query.pointOfService } : {}) }),
    }),
  );

  route.serve(
    declared.billables,
    {
      ...read,
      summary: "The price list's treatments and the catalogue's medicines and supplies in one search (20 at most)",
    },
    async ({ ctx, query }) => ({ data: await service.billables({ ctx, q: query.q }) }),
  );

  route.serve(
    declared.correct,
    {
      permission: 'commercial.write',
      failureCode: 'error_create_sale',
      summary:
        'A draft credit or debit note of an issued invoice, debit note or receipt, its lines copied (Idempotency-Key required; a credit note needs commercial.delete)',
    },
    ({ ctx, params, body }) => service.correct({ ctx, id: params.id, documentType: body.documentType }),
  );

  route.serve(
    declared.retryEinvoice,
    {
      permission: 'commercial.write',
      failureCode: 'error_update_sale',
      summary:
        'Send an issued sale to its tax authority again: a rejected one back in line (Verifactu: a subsanación), one without an answer asked for now (409 einvoice_not_retryable)',
    },
    async ({ ctx, params }) => ({
      data: await service.retryEinvoice({ ctx, id: params.id }),
      code: 'einvoice_retry_queued' as const,
    }),
  );

  route.serve(
    declared.send,
    {
      permission: 'commercial.write',
      failureCode: 'error_get_sale',
      summary: "E-mail the sale's PDF to the customer (409 customer_without_email)",
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
};
