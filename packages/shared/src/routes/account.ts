import { z } from 'zod';
import { apiRoute } from '../api-route.ts';
import {
  accountMovementParamsSchema,
  accountMovementSchema,
  accountMovementsPageSchema,
  accountMovementsQuerySchema,
  accountResponseSchema,
  renewAccountResponseSchema,
  renewAccountSchema,
  updateAccountBillingSchema,
} from '../schemas/account.ts';

/** My account (issue 19): /api/account, its billing data, movements and renewal. */
export const accountRoutes = {
  get: apiRoute({ method: 'GET', path: '/account', answer: accountResponseSchema }),
  updateBilling: apiRoute({
    method: 'PUT',
    path: '/account/billing',
    body: updateAccountBillingSchema,
    answer: accountResponseSchema,
  }),
  movements: apiRoute({
    method: 'GET',
    path: '/account/movements',
    query: accountMovementsQuerySchema,
    answer: accountMovementsPageSchema,
  }),
  movement: apiRoute({
    method: 'GET',
    path: '/account/movements/:id',
    params: accountMovementParamsSchema,
    answer: z.object({ data: accountMovementSchema }),
  }),
  movementPdf: apiRoute({
    method: 'GET',
    path: '/account/movements/:id/pdf',
    params: accountMovementParamsSchema,
    produces: ['application/pdf'],
  }),
  renew: apiRoute({
    method: 'POST',
    path: '/account/renew',
    body: renewAccountSchema,
    answer: renewAccountResponseSchema,
    status: 201,
    idempotent: 'account.renew',
  }),
};
