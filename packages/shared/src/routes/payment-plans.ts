import { apiRoute } from '../api-route.ts';
import {
  cancelPaymentPlanSchema,
  collectionInstalmentsSchema,
  createPaymentPlanSchema,
  instalmentsQuerySchema,
  paymentPlanAnswerSchema,
  paymentPlanPageSchema,
  paymentPlansQuerySchema,
  planInstalmentPageSchema,
} from '../schemas/payment-plans.ts';
import { recordParamsSchema } from '../schemas/records.ts';

/** Payment plans (issue 40): the list, the due/overdue instalments, one plan, create and cancel. */
export const paymentPlanRoutes = {
  list: apiRoute({
    method: 'GET',
    path: '/payment-plans',
    query: paymentPlansQuerySchema,
    answer: paymentPlanPageSchema,
  }),
  instalments: apiRoute({
    method: 'GET',
    path: '/payment-plans/instalments',
    query: instalmentsQuerySchema,
    answer: planInstalmentPageSchema,
  }),
  /** Which instalments a collection paid (its screen and its receipt say "Cuota 2 de 6"). */
  ofCollection: apiRoute({
    method: 'GET',
    path: '/collections/:id/instalments',
    params: recordParamsSchema,
    answer: collectionInstalmentsSchema,
  }),
  get: apiRoute({
    method: 'GET',
    path: '/payment-plans/:id',
    params: recordParamsSchema,
    answer: paymentPlanAnswerSchema,
  }),
  create: apiRoute({
    method: 'POST',
    path: '/payment-plans',
    body: createPaymentPlanSchema,
    answer: paymentPlanAnswerSchema,
    status: 201,
    idempotent: 'payment-plans.create',
  }),
  cancel: apiRoute({
    method: 'POST',
    path: '/payment-plans/:id/cancel',
    params: recordParamsSchema,
    body: cancelPaymentPlanSchema,
    answer: paymentPlanAnswerSchema,
    idempotent: 'payment-plans.cancel',
  }),
};
