import { treatmentPlanRoutes } from '@odontia/shared/routes/treatment-plans';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiClient, type CallAnswer, type CallInput } from '../../lib/api-client';
import { queryClient } from '../../lib/query-client';
import { useAction } from '../../lib/use-action';

/**
 * Treatment plans (issue 41): /api/patients/:patientId/treatment-plans. The patient's tab reads
 * the page of plans and the plan it opens (two requests whatever the plan's size).
 */
const client = apiClient(treatmentPlanRoutes);
export const plansKey = ['treatment-plans'] as const;

export type PlanSummary = CallAnswer<typeof treatmentPlanRoutes.list>['data'][number];
export type Plan = CallAnswer<typeof treatmentPlanRoutes.get>['data'];
export type PlanSuggestion = CallAnswer<typeof treatmentPlanRoutes.suggestions>['data'][number];
export type FollowUpRow = CallAnswer<typeof treatmentPlanRoutes.followUp>['data'][number];
export type PlanBody = CallInput<typeof treatmentPlanRoutes.create>['body'];

export function usePatientPlans(patientId: string) {
  return useQuery({
    queryKey: [...plansKey, patientId, 'list'],
    queryFn: () => client.list({ params: { patientId }, query: { page: 1, pageSize: 20 } }),
  });
}

export function usePlan(patientId: string, id: string | null) {
  return useQuery({
    queryKey: [...plansKey, patientId, 'one', id],
    queryFn: () => client.get({ params: { patientId, id: id as string } }).then((answer) => answer.data),
    enabled: id !== null,
  });
}

export function usePlanSuggestions(patientId: string, enabled: boolean) {
  return useQuery({
    queryKey: [...plansKey, patientId, 'suggestions'],
    queryFn: () => client.suggestions({ params: { patientId } }).then((answer) => answer.data),
    enabled,
  });
}

export function useFollowUp(page: number, pageSize: number) {
  return useQuery({
    queryKey: [...plansKey, 'follow-up', page, pageSize],
    queryFn: () => client.followUp({ query: { page, pageSize } }),
    placeholderData: keepPreviousData,
  });
}

/** A plan's change moves its budget, the agenda and the odontogram too. */
const refresh = (patientId: string) =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: plansKey }),
    queryClient.invalidateQueries({ queryKey: ['sales'] }),
    queryClient.invalidateQueries({ queryKey: ['appointments'] }),
    queryClient.invalidateQueries({ queryKey: ['odontogram', patientId] }),
  ]);

export function useSavePlan(patientId: string, id: string | null) {
  return useAction({
    mutationFn: (body: PlanBody & { version?: number }) =>
      id === null
        ? client.create({ params: { patientId }, body })
        : client.update({ params: { patientId, id }, body: { ...body, version: body.version ?? 1 } }),
    onSettled: () => refresh(patientId),
  });
}

type Step = 'present' | 'reject' | 'cancel';

export function usePlanStep(patientId: string, id: string) {
  return useAction({
    mutationFn: ({ step, version }: { step: Step; version: number }) =>
      client[step]({ params: { patientId, id }, body: { version } }),
    onSettled: () => refresh(patientId),
  });
}

export function useAcceptPlan(patientId: string, id: string) {
  return useAction({
    mutationFn: (body: CallInput<typeof treatmentPlanRoutes.accept>['body'], idempotencyKey) =>
      client.accept({ params: { patientId, id }, body, idempotencyKey }),
    onSettled: () => refresh(patientId),
  });
}

export function useBookSession(patientId: string, id: string) {
  return useAction({
    mutationFn: ({
      sessionId,
      body,
    }: {
      sessionId: string;
      body: CallInput<typeof treatmentPlanRoutes.bookSession>['body'];
    }) => client.bookSession({ params: { patientId, id, sessionId }, body }),
    onSettled: () => refresh(patientId),
  });
}
