import type { Currency } from '@odontia/shared/enums';
import {
  affiliationRecord,
  payerRoutes as declared,
  payerPlanRecord,
  payerRecord,
} from '@odontia/shared/routes/payers';
import { sql } from 'drizzle-orm';
import type { FastifyPluginAsync } from 'fastify';
import { loadPrintHeader } from '../../db/clinic-print-header.ts';
import { sendPdf } from '../../lib/pdf.ts';
import { recordRoutes } from '../../plugins/record-routes.ts';
import { inTransaction, type RequestContext, routes } from '../../plugins/routes.ts';
import { coverage, invoiceWithPayer } from './payer-invoicing.ts';
import { affiliationsService, payerPlansService, payersService } from './payers.service.ts';
import { presentationPdf, presentationXlsx } from './presentation-files.ts';
import { presentationsService } from './presentations.service.ts';

/**
 * Third-party payers (issue 40). Payers and plans are read with commercial.read and written with
 * commercial.write; a patient's affiliations are read with patients.read and written with
 * patients.write; invoicing with a payer, building and moving a presentation need commercial.write;
 * a rejection issues a credit note to the payer, so it needs commercial.delete (as issuing any
 * credit note does).
 */
export const payersRoutes: FastifyPluginAsync = async (app) => {
  const route = routes(app, { tags: ['payers'] });
  const read = { permission: 'commercial.read' } as const;
  const write = { permission: 'commercial.write' } as const;

  recordRoutes(route, {
    declared: payerRecord,
    service: payersService,
    list: { ...read, failureCode: 'error_get_payer', summary: "The clinic's third-party payers, by name" },
    get: { ...read, failureCode: 'error_get_payer', summary: 'One payer' },
    create: {
      ...write,
      failureCode: 'error_create_payer',
      summary: 'Add a payer (obra social, prepaga, mutua, insurer) with its customer record',
    },
    update: {
      ...write,
      failureCode: 'error_update_payer',
      summary: 'Edit a payer; its customer follows; 409 when stale',
    },
    remove: {
      permission: 'commercial.delete',
      failureCode: 'error_delete_payer',
      summary: 'Delete a payer (soft)',
    },
    changes: { ...read, summary: "The payer's history of changes, newest first" },
  });

  recordRoutes(route, {
    declared: payerPlanRecord,
    service: payerPlansService,
    list: { ...read, failureCode: 'error_get_payer_plan', summary: "A payer's plans with their coverage rules" },
    get: { ...read, failureCode: 'error_get_payer_plan', summary: 'One plan with its coverage rules' },
    create: { ...write, failureCode: 'error_create_payer_plan', summary: 'Add a plan with its coverage rules' },
    update: {
      ...write,
      failureCode: 'error_update_payer_plan',
      summary: 'Edit a plan; its rules are replaced by the ones sent; 409 when stale',
    },
    remove: {
      permission: 'commercial.delete',
      failureCode: 'error_delete_payer_plan',
      summary: 'Delete a plan (soft)',
    },
    changes: { ...read, summary: "The plan's history of changes, newest first" },
  });

  recordRoutes(route, {
    declared: affiliationRecord,
    service: affiliationsService,
    list: {
      permission: 'patients.read',
      failureCode: 'error_get_affiliation',
      summary: "A patient's affiliations to payers, newest first",
    },
    get: { permission: 'patients.read', failureCode: 'error_get_affiliation', summary: 'One affiliation' },
    create: {
      permission: 'patients.write',
      failureCode: 'error_create_affiliation',
      summary: 'Affiliate the patient to a payer’s plan (a new primary one replaces the other primary)',
    },
    update: {
      permission: 'patients.write',
      failureCode: 'error_update_affiliation',
      summary: 'Edit an affiliation; 409 when stale',
    },
    remove: {
      permission: 'patients.write',
      failureCode: 'error_delete_affiliation',
      summary: 'Delete an affiliation (soft)',
    },
    changes: { permission: 'patients.read', summary: "The affiliation's history of changes, newest first" },
  });

  route.serve(
    declared.coverage,
    {
      ...read,
      failureCode: 'error_get_payer',
      summary:
        "What invoicing the patient's attendances not yet invoiced (or an accepted budget's lines, `budgetId`) would split with the payer (preview)",
    },
    ({ ctx, params, query }) =>
      coverage({
        ctx,
        patientId: params.patientId,
        source: query.budgetId ? { budgetId: query.budgetId } : { attendanceIds: query.attendanceIds },
      }),
  );

  route.serve(
    declared.invoice,
    {
      ...write,
      failureCode: 'error_invoice_payer',
      summary:
        "Issue the patient's invoice and the payer's invoice of the attendances (or of an accepted budget's lines not yet invoiced, `budgetId`), split line by line",
    },
    ({ ctx, params, body }) => invoiceWithPayer({ ctx, patientId: params.patientId, input: body }),
  );

  route.serve(
    declared.presentations,
    { ...read, failureCode: 'error_get_payer_presentation', summary: 'Presentations to payers, newest period first' },
    ({ ctx, query }) => presentationsService.list({ ctx, query }),
  );
  route.serve(
    declared.presentation,
    { ...read, failureCode: 'error_get_payer_presentation', summary: 'One presentation (its build progress too)' },
    async ({ ctx, params }) => ({ data: await presentationsService.get({ ctx, id: params.id }) }),
  );
  route.serve(
    declared.presentationLines,
    { ...read, failureCode: 'error_get_payer_presentation', summary: "A page of a presentation's lines, by date" },
    ({ ctx, params, query }) => presentationsService.lines({ ctx, id: params.id, query }),
  );
  route.serve(
    declared.createPresentation,
    {
      ...write,
      failureCode: 'error_update_payer_presentation',
      summary: "Build the payer's presentation of a month (a background job; progress on the presentation)",
    },
    ({ ctx, body }) => presentationsService.create({ ctx, input: body }),
  );
  route.serve(
    declared.sendPresentation,
    { ...write, failureCode: 'error_update_payer_presentation', summary: 'Mark a draft presentation sent' },
    ({ ctx, params, body }) => presentationsService.send({ ctx, id: params.id, input: body }),
  );
  route.serve(
    declared.acceptPresentation,
    {
      ...write,
      failureCode: 'error_update_payer_presentation',
      summary: 'Mark a sent presentation accepted (partially when it has rejections)',
    },
    ({ ctx, params, body }) => presentationsService.accept({ ctx, id: params.id, input: body }),
  );
  route.serve(
    declared.payPresentation,
    {
      ...write,
      failureCode: 'error_update_payer_presentation',
      summary: "Record the payer's payment: a collection allocated to the presentation's open invoices",
    },
    ({ ctx, params, body }) => presentationsService.pay({ ctx, id: params.id, input: body }),
  );
  route.serve(
    declared.reject,
    {
      permission: 'commercial.delete',
      failureCode: 'error_update_payer_presentation',
      summary:
        'Record a rejection (débito) of a line: a credit note to the payer, and an invoice to the patient or a loss',
    },
    ({ ctx, params, body }) => presentationsService.reject({ ctx, id: params.id, input: body }),
  );

  const printable = async (ctx: RequestContext, id: string) => {
    const found = await presentationsService.printable({ ctx, id });
    const { rows } = await ctx.tx.execute<{ currency: string; name: string }>(
      sql`select system_currency as currency, clinic_name as name from accounts where id = ${ctx.accountId}::uuid`,
    );
    return {
      ...found,
      clinic: await loadPrintHeader(ctx),
      clinicName: rows[0]?.name ?? '',
      currency: (rows[0]?.currency ?? 'euro') as Currency,
    };
  };
  route.serve(
    declared.presentationPdf,
    { ...read, failureCode: 'error_get_payer_presentation', summary: 'The presentation as PDF', transaction: false },
    async ({ actor, params, reply }) => {
      const data = await inTransaction(app.db, actor, (ctx) => printable(ctx, params.id));
      return sendPdf(reply, await presentationPdf(data));
    },
  );
  route.serve(
    declared.presentationXlsx,
    { ...read, failureCode: 'error_get_payer_presentation', summary: 'The presentation as XLSX', transaction: false },
    async ({ actor, params, reply }) => {
      const data = await inTransaction(app.db, actor, (ctx) => printable(ctx, params.id));
      const file = await presentationXlsx(data);
      return reply
        .type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('content-disposition', `attachment; filename="${file.fileName}"`)
        .header('cache-control', 'no-store')
        .send(file.bytes);
    },
  );
};
