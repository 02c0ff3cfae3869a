import { webhookRoutes } from '@odontia/shared/routes/webhooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiClient, type CallAnswer, type CallInput } from '../../lib/api-client';
import { queryClient } from '../../lib/query-client';
import { useAction } from '../../lib/use-action';

/** Webhooks for integrators (issue 42): /api/settings/webhooks, administrators. */

const api = apiClient(webhookRoutes);

export const webhookKeys = {
  all: ['webhooks'] as const,
  list: (page: number) => ['webhooks', 'list', page] as const,
  attempts: (id: string, page: number) => ['webhooks', 'attempts', id, page] as const,
};

export type WebhookRow = CallAnswer<typeof webhookRoutes.list>['data'][number];
export type AttemptRow = CallAnswer<typeof webhookRoutes.attempts>['data'][number];
export type WebhookBody = CallInput<typeof webhookRoutes.update>['body'];
export type SecretAnswer = CallAnswer<typeof webhookRoutes.create>;

const refresh = () => queryClient.invalidateQueries({ queryKey: webhookKeys.all });

export function useWebhooks(page: number) {
  return useQuery({
    queryKey: webhookKeys.list(page),
    queryFn: () => api.list({ query: { page, pageSize: 20 } }),
    placeholderData: keepPreviousData,
  });
}

/** The delivery log; polled while a delivery waits for its next attempt. */
export function useWebhookAttempts(id: string, page: number) {
  return useQuery({
    queryKey: webhookKeys.attempts(id, page),
    queryFn: () => api.attempts({ params: { id }, query: { page, pageSize: 20 }, background: true }),
    placeholderData: keepPreviousData,
    refetchInterval: 5000,
  });
}

export function useCreateWebhook() {
  return useAction({
    mutationFn: (body: Omit<WebhookBody, 'version'>, idempotencyKey: string) => api.create({ body, idempotencyKey }),
    onSuccess: refresh,
  });
}

export function useUpdateWebhook() {
  return useAction({
    mutationFn: ({ id, body }: { id: string; body: WebhookBody }) => api.update({ params: { id }, body }),
    onSuccess: refresh,
  });
}

export function useRemoveWebhook() {
  return useAction({
    mutationFn: (id: string) => api.remove({ params: { id } }),
    onSuccess: refresh,
  });
}

export function useRotateWebhookSecret() {
  return useAction({
    mutationFn: (id: string, idempotencyKey: string) => api.rotateSecret({ params: { id }, idempotencyKey }),
    onSuccess: refresh,
  });
}

export function useResendWebhook() {
  return useAction({
    mutationFn: ({ id, deliveryId }: { id: string; deliveryId: string }, idempotencyKey: string) =>
      api.resend({ params: { id, deliveryId }, idempotencyKey }),
    onSuccess: refresh,
  });
}
