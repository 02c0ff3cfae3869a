import { collectionRoutes } from '@odontia/shared/routes/money';
import { paymentPlanRoutes } from '@odontia/shared/routes/payment-plans';
import type { InstalmentsQuery, PaymentPlansQuery } from '@odontia/shared/schemas/payment-plans';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiClient, type CallAnswer, type CallInput } from '../../lib/api-client';
import { queryClient } from '../../lib/query-client';
import { useAction } from '../../lib/use-action';

/** Payment plans (issue 40): /api/payment-plans. */

const client = apiClient(paymentPlanRoutes);
export const paymentPlansKey = ['payment-plans'] as const;

export type PaymentPlanRow = CallAnswer<typeof paymentPlanRoutes.list>['data'][number];
export type PlanInstalmentRow = CallAnswer<typeof paymentPlanRoutes.instalments>['data'][number];
export type CreatePlanBody = CallInput<typeof paymentPlanRoutes.create>['body'];

export function usePaymentPlans(query: PaymentPlansQuery, enabled = true) {
  return useQuery({
    queryKey: [...paymentPlansKey, 'list', query],
    queryFn: () => client.list({ query }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function usePlanInstalments(query: InstalmentsQuery) {
  return useQuery({
    queryKey: [...paymentPlansKey, 'instalments', query],
    queryFn: () => client.instalments({ query }),
    placeholderData: keepPreviousData,
  });
}

/** Plans move the sales' and the accounts' screens too (an interest note is issued with one). */
const refresh = () =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: paymentPlansKey }),
    queryClient.invalidateQueries({ queryKey: ['sales'] }),
  ]);

export function useCreatePaymentPlan() {
  return useAction({
    mutationFn: (body: CreatePlanBody, idempotencyKey) => client.create({ body, idempotencyKey }),
    onSettled: refresh,
  });
}

export function useCancelPaymentPlan(id: string) {
  return useAction({
    mutationFn: (body: CallInput<typeof paymentPlanRoutes.cancel>['body'], idempotencyKey) =>
      client.cancel({ params: { id }, body, idempotencyKey }),
    onSettled: refresh,
  });
}

const collections = apiClient(collectionRoutes);

/** A collection against a budget's plan (POST /api/collections with `paymentPlanId`). */
export function useCollectForPlan() {
  return useAction({
    mutationFn: (body: CallInput<typeof collectionRoutes.create>['body'], idempotencyKey) =>
      collections.create({ body, idempotencyKey }),
    onSettled: () => Promise.all([refresh(), queryClient.invalidateQueries({ queryKey: ['collections'] })]),
  });
}
