import { labCaseRoutes as declared } from '@odontia/shared/routes/lab-cases';
import { type LabCaseStep, labCaseSteps } from '@odontia/shared/schemas/lab-cases';
import type { FastifyPluginAsync } from 'fastify';
import { routes } from '../../plugins/routes.ts';
import { labCasesService as service } from './lab-cases.service.ts';

/**
 * /api/lab-cases (issue 41): dental lab cases. Read with patients.read, written with
 * clinical.write. Another clinic's case answers 404 lab_case_not_found; a stale version 409
 * version_conflict (with the current case); a step the state does not allow 409
 * lab_case_transition_invalid.
 */

const stepSummaries: Record<LabCaseStep, string> = {
  send: 'Send a draft (or a case returned for a remake) to the lab, with the sent and due dates',
  receive: 'The case came back from the lab',
  check: 'The case was checked (fit, shade) and is ready to seat',
  return: 'Return a received or checked case to the lab for a remake, with the reason; it is sent again later',
  seat: "The case was seated, on a date and (optionally) at one of the patient's appointments",
  cancel: 'Cancel a case not seated, with the reason: kept with its history',
};

const stepCodes = {
  send: 'lab_case_sent',
  receive: 'lab_case_received',
  check: 'lab_case_checked',
  return: 'lab_case_returned',
  seat: 'lab_case_seated',
  cancel: 'lab_case_cancelled',
} as const;

export const labCasesRoutes: FastifyPluginAsync = async (app) => {
  const route = routes(app, { tags: ['lab-cases'] });
  const read = { permission: 'patients.read', failureCode: 'error_get_lab_case' } as const;

  route.serve(
    declared.list,
    {
      ...read,
      summary:
        "Lab cases: the open ones soonest due first (by state, lab, overdue), or every case of a patient, a seating appointment or an invoice, newest first; each with its overdue and seating-warning flags (the clinic's today)",
    },
    ({ ctx, query }) => service.list({ ctx, query }),
  );
  route.serve(
    declared.planItems,
    {
      ...read,
      summary:
        "The items of the patient's accepted treatment plans a lab case may be for (a crown on 36…), in the plan's order",
    },
    async ({ ctx, params }) => ({ data: await service.planItems({ ctx, patientId: params.patientId }) }),
  );
  route.serve(
    declared.get,
    { ...read, summary: 'One lab case with its events (who and when)' },
    async ({ ctx, params }) => ({
      data: await service.get({ ctx, id: params.id }),
    }),
  );
  route.serve(
    declared.create,
    {
      permission: 'clinical.write',
      failureCode: 'error_create_lab_case',
      summary:
        'A draft lab case of a patient (404 patient_not_found, provider_not_found, appointment_not_found, purchase_not_found; 409 lab_case_appointment_other_patient, lab_case_purchase_other_provider)',
    },
    async ({ ctx, body }) => ({ data: await service.create({ ctx, input: body }), code: 'lab_case_created' as const }),
  );
  route.serve(
    declared.update,
    {
      permission: 'clinical.write',
      failureCode: 'error_update_lab_case',
      summary:
        'Edit a lab case not seated nor cancelled (409 version_conflict with the current case, lab_case_closed, lab_case_purchase_other_provider, lab_case_appointment_other_patient)',
    },
    async ({ ctx, params, body }) => ({
      data: await service.update({ ctx, id: params.id, input: body }),
      code: 'lab_case_updated' as const,
    }),
  );
  for (const step of labCaseSteps) {
    route.serve(
      // One handler for the six steps: each route's own body contract validates the input.
      declared[step] as typeof declared.send,
      {
        permission: 'clinical.write',
        failureCode: 'error_step_lab_case',
        summary: `${stepSummaries[step]} (409 version_conflict, lab_case_transition_invalid)`,
      },
      async ({ ctx, params, body }) => ({
        data: await service.step({ ctx, id: params.id, step, input: body as never }),
        code: stepCodes[step],
      }),
    );
  }
};
