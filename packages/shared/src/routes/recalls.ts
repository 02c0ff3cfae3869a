import { apiRoute } from '../api-route.ts';
import {
  recallAnswerSchema,
  recallAttemptRequestSchema,
  recallBookRequestSchema,
  recallCloseRequestSchema,
  recallPageSchema,
  recallsQuerySchema,
} from '../schemas/recalls.ts';
import { recordParamsSchema } from '../schemas/records.ts';

/** Recalls (issue 38): the list, one recall with its attempts, and the front desk's three steps. */
export const recallRoutes = {
  list: apiRoute({ method: 'GET', path: '/recalls', query: recallsQuerySchema, answer: recallPageSchema }),
  get: apiRoute({ method: 'GET', path: '/recalls/:id', params: recordParamsSchema, answer: recallAnswerSchema }),
  attempt: apiRoute({
    method: 'POST',
    path: '/recalls/:id/attempts',
    params: recordParamsSchema,
    body: recallAttemptRequestSchema,
    answer: recallAnswerSchema,
    status: 201,
  }),
  book: apiRoute({
    method: 'POST',
    path: '/recalls/:id/book',
    params: recordParamsSchema,
    body: recallBookRequestSchema,
    answer: recallAnswerSchema,
  }),
  close: apiRoute({
    method: 'POST',
    path: '/recalls/:id/close',
    params: recordParamsSchema,
    body: recallCloseRequestSchema,
    answer: recallAnswerSchema,
  }),
};
