import { apiRoute } from '../api-route.ts';
import { recordParamsSchema } from '../schemas/records.ts';
import {
  createWebhookSchema,
  updateWebhookSchema,
  webhookAnswerSchema,
  webhookAttemptPageSchema,
  webhookAttemptsQuerySchema,
  webhookDeletedSchema,
  webhookDeliveryParamsSchema,
  webhookPageSchema,
  webhookResendAnswerSchema,
  webhookSecretAnswerSchema,
  webhooksQuerySchema,
} from '../schemas/webhooks.ts';

/** Webhooks for integrators (issue 42): the subscriptions, their delivery log and "Reenviar". Administrators. */
export const webhookRoutes = {
  list: apiRoute({ method: 'GET', path: '/settings/webhooks', query: webhooksQuerySchema, answer: webhookPageSchema }),
  get: apiRoute({
    method: 'GET',
    path: '/settings/webhooks/:id',
    params: recordParamsSchema,
    answer: webhookAnswerSchema,
  }),
  create: apiRoute({
    method: 'POST',
    path: '/settings/webhooks',
    body: createWebhookSchema,
    answer: webhookSecretAnswerSchema,
    status: 201,
    idempotent: 'webhooks.create',
  }),
  update: apiRoute({
    method: 'PUT',
    path: '/settings/webhooks/:id',
    params: recordParamsSchema,
    body: updateWebhookSchema,
    answer: webhookAnswerSchema,
  }),
  remove: apiRoute({
    method: 'DELETE',
    path: '/settings/webhooks/:id',
    params: recordParamsSchema,
    answer: webhookDeletedSchema,
  }),
  rotateSecret: apiRoute({
    method: 'POST',
    path: '/settings/webhooks/:id/rotate-secret',
    params: recordParamsSchema,
    answer: webhookSecretAnswerSchema,
    idempotent: 'webhooks.rotate',
  }),
  attempts: apiRoute({
    method: 'GET',
    path: '/settings/webhooks/:id/attempts',
    params: recordParamsSchema,
    query: webhookAttemptsQuerySchema,
    answer: webhookAttemptPageSchema,
  }),
  resend: apiRoute({
    method: 'POST',
    path: '/settings/webhooks/:id/deliveries/:deliveryId/resend',
    params: webhookDeliveryParamsSchema,
    answer: webhookResendAnswerSchema,
    idempotent: 'webhooks.resend',
  }),
};
