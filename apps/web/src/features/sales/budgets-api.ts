import type {
  BudgetDecision,
  BudgetDecisionRequest,
  BudgetProgress,
  ConvertBudgetRequest,
  PatientBilling,
  SaleDraftCreated,
} from '@odontia/shared/schemas/budgets';
import { useQuery } from '@tanstack/react-query';
import { http } from '../../lib/http';
import { queryClient } from '../../lib/query-client';
import { isRecordId } from '../../lib/record-id';
import { useAction } from '../../lib/use-action';

/** Budgets (answer, progress, conversion) and a patient's billing (issue 18): the API's hooks. */

const id = (value: string) => encodeURIComponent(value);

export const budgetsApi = {
  progress: (saleId: string) => http.get<{ data: BudgetProgress }>(`sales/${id(saleId)}/progress`),
  decide: (saleId: string, body: BudgetDecisionRequest | Record<string, unknown>, idempotencyKey: string) =>
    http.post<{ data: BudgetDecision; code: string }>(`sales/${id(saleId)}/decision`, body, { idempotencyKey }),
  convert: (saleId: string, body: ConvertBudgetRequest, idempotencyKey: string) =>
    http.post<SaleDraftCreated>(`sales/${id(saleId)}/convert`, body, { idempotencyKey }),
  billing: (patientId: string) => http.get<{ data: PatientBilling }>(`patients/${id(patientId)}/billing`),
  invoiceDraft: (patientId: string, attendanceIds: string[] | null, idempotencyKey: string) =>
    http.post<SaleDraftCreated>(`patients/${id(patientId)}/invoice-draft`, attendanceIds ? { attendanceIds } : {}, {
      idempotencyKey,
    }),
};

/** Where a sale opens (the sales feature's view). */
export const saleViewPath = (saleId: string) => `/sales/view/${saleId}`;

const budgetKey = (saleId: string) => ['sales', 'budget', saleId] as const;
const billingKey = (patientId: string) => ['sales', 'billing', patientId] as const;

export function useBudgetProgress(saleId: string) {
  return useQuery({
    queryKey: budgetKey(saleId),
    queryFn: () => budgetsApi.progress(saleId).then((answer) => answer.data),
    enabled: isRecordId(saleId),
  });
}

/** Answering, converting and invoicing are user actions with their Idempotency-Key (useAction). */
export function useDecideBudget(saleId: string) {
  return useAction({
    mutationFn: (body: BudgetDecisionRequest | Record<string, unknown>, idempotencyKey) =>
      budgetsApi.decide(saleId, body, idempotencyKey),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['sales'] }),
  });
}

export function useConvertBudget(saleId: string) {
  return useAction({
    mutationFn: (body: ConvertBudgetRequest, idempotencyKey) => budgetsApi.convert(saleId, body, idempotencyKey),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['sales'] }),
  });
}

export function usePatientBilling(patientId: string, enabled = true) {
  return useQuery({
    queryKey: billingKey(patientId),
    queryFn: () => budgetsApi.billing(patientId).then((answer) => answer.data),
    enabled: enabled && isRecordId(patientId),
  });
}

export function useInvoiceDraft(patientId: string) {
  return useAction({
    mutationFn: (attendanceIds: string[] | null, idempotencyKey) =>
      budgetsApi.invoiceDraft(patientId, attendanceIds, idempotencyKey),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['sales'] }),
  });
}
