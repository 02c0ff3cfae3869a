import { treatmentPlanRoutes as declared } from '@odontia/shared/routes/treatment-plans';
import type { FastifyPluginAsync } from 'fastify';
import { routes } from '../../plugins/routes.ts';
import { treatmentPlansService as service } from './treatment-plans.service.ts';

/**
 * Treatment plans (issue 41): /api/patients/:patientId/treatment-plans and the follow-up list.
 * Read with patients.read, written with clinical.write; accepting makes the budget, so it also
 * asks commercial.write (every staff level has it) and an Idempotency-Key.
 */
export const treatmentPlansRoutes: FastifyPluginAsync = async (app) => {
  const route = routes(app, { tags: ['medical history'] });

  route.serve(
    declared.list,
    {
      permission: 'patients.read',
      failureCode: 'error_get_treatment_plan',
      summary: "A patient's treatment plans, newest first, each with its alternatives' totals and its progress",
    },
    ({ ctx, params, query }) => service.list({ ctx, patientId: params.patientId, query }),
  );

  route.serve(
    declared.suggestions,
    {
      permission: 'patients.read',
      failureCode: 'error_get_treatment_plan',
      summary:
        "What the odontogram's current findings ask for (caries, fractured, to extract…), with the price list's treatment each suggests",
    },
    ({ ctx, params }) => service.suggestions({ ctx, patientId: params.patientId }),
  );

  route.serve(
    declared.followUp,
    {
      permission: 'patients.read',
      failureCode: 'error_get_treatment_plan',
      summary:
        'Accepted plans with work pending, oldest answer first: patient, phone, pending amount, next item, last visit',
    },
    ({ ctx, query }) => service.followUp({ ctx, query }),
  );

  route.serve(
    declared.get,
    {
      permission: 'patients.read',
      failureCode: 'error_get_treatment_plan',
      summary: 'One plan: alternatives, phases, items and sessions with their state (done, scheduled, pending)',
    },
    ({ ctx, params }) => service.get({ ctx, ...params }),
  );

  route.serve(
    declared.create,
    {
      permission: 'clinical.write',
      failureCode: 'error_create_treatment_plan',
      summary: 'A draft plan with its alternatives, phases, items and sessions (shares add up to 100 %)',
    },
    ({ ctx, params, body }) => service.create({ ctx, patientId: params.patientId, input: body }),
  );

  route.serve(
    declared.update,
    {
      permission: 'clinical.write',
      failureCode: 'error_update_treatment_plan',
      summary:
        "The plan's whole content again while draft or presented; 409 version_conflict when stale, treatment_plan_status_invalid once answered",
    },
    ({ ctx, params, body }) => service.update({ ctx, ...params, input: body }),
  );

  route.serve(
    declared.remove,
    {
      permission: 'clinical.write',
      failureCode: 'error_delete_treatment_plan',
      summary: 'Delete a plan that was not accepted: hidden from now on; the record and its audit are kept',
    },
    ({ ctx, params, body }) => service.remove({ ctx, ...params, version: body.version }),
  );

  route.serve(
    declared.present,
    { permission: 'clinical.write', failureCode: 'error_update_treatment_plan', summary: 'Present a draft plan' },
    ({ ctx, params, body }) => service.present({ ctx, ...params, version: body.version }),
  );

  route.serve(
    declared.accept,
    {
      permission: 'commercial.write',
      failureCode: 'error_update_treatment_plan',
      summary:
        'Accept one alternative (Idempotency-Key required): its budget is made (one line per session), issued and accepted; the other alternatives close',
    },
    ({ ctx, params, body }) => service.accept({ ctx, ...params, input: body }),
  );

  route.serve(
    declared.reject,
    { permission: 'clinical.write', failureCode: 'error_update_treatment_plan', summary: 'The patient said no' },
    ({ ctx, params, body }) => service.reject({ ctx, ...params, version: body.version }),
  );

  route.serve(
    declared.cancel,
    {
      permission: 'clinical.write',
      failureCode: 'error_update_treatment_plan',
      summary: 'Cancel a draft or presented plan',
    },
    ({ ctx, params, body }) => service.cancel({ ctx, ...params, version: body.version }),
  );

  route.serve(
    declared.bookSession,
    {
      permission: 'appointments.write',
      failureCode: 'error_update_treatment_plan',
      summary:
        "Book a pending session of an accepted plan: an appointment for the item's treatment; cancelling it returns the session to pending",
    },
    ({ ctx, params, body }) =>
      service.bookSession({
        ctx,
        patientId: params.patientId,
        id: params.id,
        sessionId: params.sessionId,
        input: body,
      }),
  );
};
