import { apiRoute } from '../api-route.ts';
import {
  createLabCaseSchema,
  labCaseAnswerSchema,
  labCasePageSchema,
  labCasePlanItemsSchema,
  labCaseStepSchemas,
  labCasesQuerySchema,
  updateLabCaseSchema,
} from '../schemas/lab-cases.ts';
import { patientParamsSchema, recordParamsSchema } from '../schemas/records.ts';

const step = <Step extends keyof typeof labCaseStepSchemas>(name: Step) =>
  apiRoute({
    method: 'POST',
    path: `/lab-cases/:id/${name}` as const,
    params: recordParamsSchema,
    body: labCaseStepSchemas[name],
    answer: labCaseAnswerSchema,
  });

/** Dental lab cases (issue 41): the open list, one case with its events, create, edit and the steps. */
export const labCaseRoutes = {
  list: apiRoute({ method: 'GET', path: '/lab-cases', query: labCasesQuerySchema, answer: labCasePageSchema }),
  get: apiRoute({ method: 'GET', path: '/lab-cases/:id', params: recordParamsSchema, answer: labCaseAnswerSchema }),
  create: apiRoute({
    method: 'POST',
    path: '/lab-cases',
    body: createLabCaseSchema,
    answer: labCaseAnswerSchema,
    status: 201,
  }),
  update: apiRoute({
    method: 'PUT',
    path: '/lab-cases/:id',
    params: recordParamsSchema,
    body: updateLabCaseSchema,
    answer: labCaseAnswerSchema,
  }),
  send: step('send'),
  receive: step('receive'),
  check: step('check'),
  return: step('return'),
  seat: step('seat'),
  cancel: step('cancel'),
  planItems: apiRoute({
    method: 'GET',
    path: '/patients/:patientId/lab-case-plan-items',
    params: patientParamsSchema,
    answer: labCasePlanItemsSchema,
  }),
};
