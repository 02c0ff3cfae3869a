import type {
  BudgetDecision,
  BudgetDecisionRequest,
  BudgetProgress,
  ConvertBudgetRequest,
  PatientBilling,
  SaleDraftCreated,
} from '@odontia/shared/schemas/budgets';
import { useMutation, useQuery } from '@tanstack/react-query';
import { http } from '../../lib/http';
import { queryClient } from '../../lib/query-client';
import { isRecordId } from '../../lib/record-id';

/** Budgets (answer, progress, conversion) and a patient's billing (issue 18): the API's hooks. */

const id = (value: string) => encodeURIComponent(value);

export const budgetsApi = {
  progress: (saleId: string) => http.get<{ data: BudgetProgress }>(`sales/${id(saleId)}/progress`),
  decide: (saleId: string, body: BudgetDecisionRequest | Record<string, unknown>) =>
    http.post<{ data: BudgetDecision; code: string }>(`sales/${id(saleId)}/decision`, body),
  convert: (saleId: string, body: ConvertBudgetRequest) =>
    http.post<SaleDraftCreated>(`sales/${id(saleId)}/convert`, body),
  billing: (patientId: string) => http.get<{ data: PatientBilling }>(`patients/${id(patientId)}/billing`),
  invoiceDraft: (patientId: string, attendanceIds: string[] | null) =>
    http.post<SaleDraftCreated>(`patients/${id(patientId)}/invoice-draft`, attendanceIds ? { attendanceIds } : {}),
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

export function useDecideBudget(saleId: string) {
  return useMutation({
    mutationFn: (body: BudgetDecisionRequest | Record<string, unknown>) => budgetsApi.decide(saleId, body),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['sales'] }),
  });
}

export function useConvertBudget(saleId: string) {
  return useMutation({
    mutationFn: (body: ConvertBudgetRequest) => budgetsApi.convert(saleId, body),
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
  return useMutation({
    mutationFn: (attendanceIds: string[] | null) => budgetsApi.invoiceDraft(patientId, attendanceIds),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['sales'] }),
  });
}
