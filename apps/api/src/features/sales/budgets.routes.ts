import {
  budgetDecisionRequestSchema,
  budgetDecisionResponseSchema,
  budgetProgressResponseSchema,
  convertBudgetRequestSchema,
  invoiceDraftRequestSchema,
  patientBillingResponseSchema,
  saleDraftCreatedSchema,
} from '@odontia/shared/schemas/budgets';
import { recordParamsSchema as params, patientParamsSchema } from '@odontia/shared/schemas/records';
import type { FastifyPluginAsync } from 'fastify';
import { routes } from '../../plugins/routes.ts';
import { budgetsService as service } from './budgets.service.ts';

/** Budgets (answer, progress, conversion) and invoicing a patient's attendances (issue 18); see budgets.service.ts. */
export const budgetsRoutes: FastifyPluginAsync = async (app) => {
  const route = routes(app, { tags: ['sales'] });

  route.post(
    '/sales/:id/decision',
    {
      permission: 'commercial.write',
      failureCode: 'error_update_sale',
      summary:
        'Answer an issued budget once (Idempotency-Key required): accepted (signed on the pad, or marked with its day) or rejected; 409 budget_not_issued, document_type_invalid, budget_already_decided',
      params,
      body: budgetDecisionRequestSchema,
      answer: budgetDecisionResponseSchema,
      status: 201,
      idempotent: 'budgets.decide',
    },
    ({ ctx, params, body }) => service.decide({ ctx, id: params.id, input: body }),
  );

  route.get(
    '/sales/:id/progress',
    {
      permission: 'commercial.read',
      failureCode: 'error_get_sale',
      summary:
        "A budget's answer and lines: quantity, done by attendances (which ones), left, invoiced; the text a signature seals; the documents made from it",
      params,
      answer: budgetProgressResponseSchema,
    },
    ({ ctx, params }) => service.progress({ ctx, id: params.id }),
  );

  route.post(
    '/sales/:id/convert',
    {
      permission: 'commercial.write',
      failureCode: 'error_create_sale',
      summary:
        'Make a proforma or invoice draft of an accepted budget with its lines not yet invoiced (Idempotency-Key required); 409 budget_not_accepted, nothing_to_invoice',
      params,
      body: convertBudgetRequestSchema,
      answer: saleDraftCreatedSchema,
      status: 201,
      idempotent: 'sales.convert',
    },
    ({ ctx, params, body }) => service.convert({ ctx, id: params.id, input: body }),
  );

  route.get(
    '/patients/:patientId/billing',
    {
      permission: 'commercial.read',
      failureCode: 'error_get_sale',
      summary:
        "What of a patient is not yet invoiced: billable attendances' fees and lines, accepted budgets' pending lines",
      params: patientParamsSchema,
      answer: patientBillingResponseSchema,
    },
    ({ ctx, params }) => service.patientBilling({ ctx, patientId: params.patientId }),
  );

  route.post(
    '/patients/:patientId/invoice-draft',
    {
      permission: 'commercial.write',
      failureCode: 'error_create_sale',
      summary:
        'An invoice draft of these attendances (or of everything not yet invoiced) of the patient (Idempotency-Key required); 409 nothing_to_invoice',
      params: patientParamsSchema,
      body: invoiceDraftRequestSchema,
      answer: saleDraftCreatedSchema,
      status: 201,
      idempotent: 'sales.invoice-draft',
    },
    ({ ctx, params, body }) =>
      service.invoiceDraft({ ctx, patientId: params.patientId, attendanceIds: body.attendanceIds }),
  );
};
