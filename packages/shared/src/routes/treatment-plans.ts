import { apiRoute } from '../api-route.ts';
import { pageQuerySchema, patientParamsSchema, patientRecordParamsSchema } from '../schemas/records.ts';
import {
  acceptTreatmentPlanSchema,
  bookPlanSessionSchema,
  createTreatmentPlanSchema,
  planFollowUpPageSchema,
  planSessionParamsSchema,
  planStepSchema,
  planSuggestionsSchema,
  treatmentPlanAnswerSchema,
  treatmentPlanDeletedSchema,
  treatmentPlanPageSchema,
  updateTreatmentPlanSchema,
} from '../schemas/treatment-plans.ts';

const plan = '/patients/:patientId/treatment-plans';

/**
 * Treatment plans (issue 41). The patient's tab reads `list` and then `get` of the plan it opens
 * (one request each, whatever the plan's size); the follow-up screen reads `followUp`.
 */
export const treatmentPlanRoutes = {
  list: apiRoute({
    method: 'GET',
    path: plan,
    params: patientParamsSchema,
    query: pageQuerySchema,
    answer: treatmentPlanPageSchema,
  }),
  suggestions: apiRoute({
    method: 'GET',
    path: `${plan}/suggestions`,
    params: patientParamsSchema,
    answer: planSuggestionsSchema,
  }),
  get: apiRoute({
    method: 'GET',
    path: `${plan}/:id`,
    params: patientRecordParamsSchema,
    answer: treatmentPlanAnswerSchema,
  }),
  create: apiRoute({
    method: 'POST',
    path: plan,
    params: patientParamsSchema,
    body: createTreatmentPlanSchema,
    answer: treatmentPlanAnswerSchema,
    status: 201,
  }),
  update: apiRoute({
    method: 'PUT',
    path: `${plan}/:id`,
    params: patientRecordParamsSchema,
    body: updateTreatmentPlanSchema,
    answer: treatmentPlanAnswerSchema,
  }),
  remove: apiRoute({
    method: 'DELETE',
    path: `${plan}/:id`,
    params: patientRecordParamsSchema,
    body: planStepSchema,
    answer: treatmentPlanDeletedSchema,
  }),
  present: apiRoute({
    method: 'POST',
    path: `${plan}/:id/present`,
    params: patientRecordParamsSchema,
    body: planStepSchema,
    answer: treatmentPlanAnswerSchema,
  }),
  accept: apiRoute({
    method: 'POST',
    path: `${plan}/:id/accept`,
    params: patientRecordParamsSchema,
    body: acceptTreatmentPlanSchema,
    answer: treatmentPlanAnswerSchema,
    idempotent: 'treatment-plans.accept',
  }),
  reject: apiRoute({
    method: 'POST',
    path: `${plan}/:id/reject`,
    params: patientRecordParamsSchema,
    body: planStepSchema,
    answer: treatmentPlanAnswerSchema,
  }),
  cancel: apiRoute({
    method: 'POST',
    path: `${plan}/:id/cancel`,
    params: patientRecordParamsSchema,
    body: planStepSchema,
    answer: treatmentPlanAnswerSchema,
  }),
  bookSession: apiRoute({
    method: 'POST',
    path: `${plan}/:id/sessions/:sessionId/appointment`,
    params: planSessionParamsSchema,
    body: bookPlanSessionSchema,
    answer: treatmentPlanAnswerSchema,
  }),
  followUp: apiRoute({
    method: 'GET',
    path: '/treatment-plans/follow-up',
    query: pageQuerySchema,
    answer: planFollowUpPageSchema,
  }),
};
