import { budgetRoutes as declared } from '@odontia/shared/routes/sales';
import type { FastifyPluginAsync } from 'fastify';
import { routes } from '../../plugins/routes.ts';
import { budgetsService as service } from './budgets.service.ts';

/** Budgets (answer, progress, conversion) and invoicing a patient's attendances (issue 18); see budgets.service.ts. */
export const budgetsRoutes: FastifyPluginAsync = async (app) => {
  const route = routes(app, { tags: ['sales'] });

  route.serve(
    declared.decide,
    {
      permission: 'commercial.write',
      failureCode: 'error_update_sale',
      summary:
        'Answer an issued budget once (Idempotency-Key required): accepted (signed on the pad, or marked with its day) or rejected; 409 budget_not_issued, document_type_invalid, budget_already_decided',
    },
    ({ ctx, params, body }) => service.decide({ ctx, id: params.id, input: body }),
  );

  route.serve(
    declared.progress,
    {
      permission: 'commercial.read',
      failureCode: 'error_get_sale',
      summary:
        "A budget's answer and lines: quantity, done by attendances (which ones), left, invoiced; the text a signature seals; the documents made from it",
    },
    ({ ctx, params }) => service.progress({ ctx, id: params.id }),
  );

  route.serve(
    declared.convert,
    {
      permission: 'commercial.write',
      failureCode: 'error_create_sale',
      summary:
        'Make a proforma or invoice draft of an accepted budget with its lines not yet invoiced (Idempotency-Key required); 409 budget_not_accepted, nothing_to_invoice',
    },
    ({ ctx, params, body }) => service.convert({ ctx, id: params.id, input: body }),
  );

  route.serve(
    declared.billing,
    {
      permission: 'commercial.read',
      failureCode: 'error_get_sale',
      summary:
        "What of a patient is not yet invoiced: billable attendances' fees and lines, accepted budgets' pending lines",
    },
    ({ ctx, params }) => service.patientBilling({ ctx, patientId: params.patientId }),
  );

  route.serve(
    declared.invoiceDraft,
    {
      permission: 'commercial.write',
      failureCode: 'error_create_sale',
      summary:
        'An invoice draft of these attendances (or of everything not yet invoiced) of the patient (Idempotency-Key required); 409 nothing_to_invoice',
    },
    ({ ctx, params, body }) =>
      service.invoiceDraft({ ctx, patientId: params.patientId, attendanceIds: body.attendanceIds }),
  );
};
