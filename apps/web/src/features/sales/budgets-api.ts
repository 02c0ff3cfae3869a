import { budgetRoutes } from '@odontia/shared/routes/sales';
import { useQuery } from '@tanstack/react-query';
import { apiClient, type CallInput } from '../../lib/api-client';
import { queryClient } from '../../lib/query-client';
import { isRecordId } from '../../lib/record-id';
import { useAction } from '../../lib/use-action';

/** Budgets (answer, progress, conversion) and a patient's billing (issue 18): the API's hooks. */

export const budgetsApi = apiClient(budgetRoutes);

/** A budget's answer: accepted (signed or marked) or rejected. */
export type BudgetDecisionBody = CallInput<typeof budgetRoutes.decide>['body'];

/** Where a sale opens (the sales feature's view). */
export const saleViewPath = (saleId: string) => `/sales/view/${saleId}`;

const budgetKey = (saleId: string) => ['sales', 'budget', saleId] as const;
const billingKey = (patientId: string) => ['sales', 'billing', patientId] as const;

export function useBudgetProgress(saleId: string) {
  return useQuery({
    queryKey: budgetKey(saleId),
    queryFn: () => budgetsApi.progress({ params: { id: saleId } }).then((answer) => answer.data),
    enabled: isRecordId(saleId),
  });
}

/** Answering, converting and invoicing are user actions with their Idempotency-Key (useAction). */
export function useDecideBudget(saleId: string) {
  return useAction({
    mutationFn: (body: BudgetDecisionBody, idempotencyKey) =>
      budgetsApi.decide({ params: { id: saleId }, body, idempotencyKey }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['sales'] }),
  });
}

export function useConvertBudget(saleId: string) {
  return useAction({
    mutationFn: (body: CallInput<typeof budgetRoutes.convert>['body'], idempotencyKey) =>
      budgetsApi.convert({ params: { id: saleId }, body, idempotencyKey }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['sales'] }),
  });
}

export function usePatientBilling(patientId: string, enabled = true) {
  return useQuery({
    queryKey: billingKey(patientId),
    queryFn: () => budgetsApi.billing({ params: { patientId } }).then((answer) => answer.data),
    enabled: enabled && isRecordId(patientId),
  });
}

export function useInvoiceDraft(patientId: string) {
  return useAction({
    mutationFn: (attendanceIds: string[] | null, idempotencyKey) =>
      budgetsApi.invoiceDraft({ params: { patientId }, body: attendanceIds ? { attendanceIds } : {}, idempotencyKey }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['sales'] }),
  });
}
