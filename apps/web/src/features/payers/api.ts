import { affiliationRecord, payerPlanRecord, payerRecord, payerRoutes } from '@odontia/shared/routes/payers';
import { treatmentRecord } from '@odontia/shared/routes/treatments';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiClient, type CallInput } from '../../lib/api-client';
import { queryClient } from '../../lib/query-client';
import { useAction } from '../../lib/use-action';

/** Third-party payers (issue 40): hooks over the declared routes of packages/shared/src/routes/payers.ts. */

const payersApi = apiClient(payerRecord.routes);
const plansApi = apiClient(payerPlanRecord.routes);
const affiliationsApi = apiClient(affiliationRecord.routes);
const moneyApi = apiClient(payerRoutes);
const treatmentsApi = apiClient(treatmentRecord.routes);
const key = ['payers'] as const;
const refresh = () => queryClient.invalidateQueries({ queryKey: key });

export type PayerBody = CallInput<typeof payerRecord.routes.create>['body'];
export type PlanBody = CallInput<typeof payerPlanRecord.routes.create>['body'];
export type AffiliationBody = CallInput<typeof affiliationRecord.routes.create>['body'];

export const usePayers = () =>
  useQuery({ queryKey: [...key, 'list'], queryFn: () => payersApi.list({ query: { page: 1, pageSize: 100 } }) });

export const usePlans = (payerId: string | null) =>
  useQuery({
    queryKey: [...key, 'plans', payerId],
    queryFn: () => plansApi.list({ params: { payerId: payerId as string }, query: { page: 1, pageSize: 100 } }),
    enabled: payerId !== null,
  });

export const useTreatments = () =>
  useQuery({
    queryKey: [...key, 'treatments'],
    queryFn: () => treatmentsApi.list({ query: { page: 1, pageSize: 100 } }),
    staleTime: 60_000,
  });

export function useSavePayer() {
  return useAction({
    mutationFn: ({ id, body, version }: { id: string | null; body: PayerBody; version?: number }) =>
      id ? payersApi.update({ params: { id }, body: { ...body, version: version ?? 1 } }) : payersApi.create({ body }),
    onSuccess: refresh,
  });
}

export function useSavePlan(payerId: string) {
  return useAction({
    mutationFn: ({ id, body, version }: { id: string | null; body: PlanBody; version?: number }) =>
      id
        ? plansApi.update({ params: { payerId, id }, body: { ...body, version: version ?? 1 } })
        : plansApi.create({ params: { payerId }, body }),
    onSuccess: refresh,
  });
}

/** Deletes a plan (commercial.delete); 409 payer_plan_in_use while patients are affiliated to it. */
export function useRemovePlan(payerId: string, id: string) {
  return useAction({ mutationFn: () => plansApi.remove({ params: { payerId, id } }), onSuccess: refresh });
}

export const useAffiliations = (patientId: string) =>
  useQuery({
    queryKey: [...key, 'affiliations', patientId],
    queryFn: () => affiliationsApi.list({ params: { patientId }, query: { page: 1, pageSize: 50 } }),
  });

/** Affiliates the patient, or edits (or ends) an affiliation when `id` and `version` come. */
export function useSaveAffiliation(patientId: string) {
  return useAction({
    mutationFn: ({ id, version, body }: { id: string | null; version?: number; body: AffiliationBody }) =>
      id
        ? affiliationsApi.update({ params: { patientId, id }, body: { ...body, version: version ?? 1 } })
        : affiliationsApi.create({ params: { patientId }, body }),
    onSuccess: refresh,
  });
}

/** What would be split: the patient's attendances not yet invoiced, or an accepted budget's pending lines. */
export const useCoverage = (patientId: string, budgetId?: string) =>
  useQuery({
    queryKey: [...key, 'coverage', patientId, budgetId ?? null],
    queryFn: () => moneyApi.coverage({ params: { patientId }, query: budgetId ? { budgetId } : {} }),
  });

export function useInvoiceWithPayer(patientId: string) {
  return useAction({
    mutationFn: (body: CallInput<typeof payerRoutes.invoice>['body'], idempotencyKey: string) =>
      moneyApi.invoice({ params: { patientId }, body, idempotencyKey }),
    // The invoices issued, a budget's lines invoiced, a budget plan's money allocated.
    onSuccess: () =>
      Promise.all([
        refresh(),
        queryClient.invalidateQueries({ queryKey: ['sales'] }),
        queryClient.invalidateQueries({ queryKey: ['payment-plans'] }),
      ]),
  });
}

export const usePresentations = (page: number) =>
  useQuery({
    queryKey: [...key, 'presentations', page],
    queryFn: () => moneyApi.presentations({ query: { page, pageSize: 20 } }),
    placeholderData: keepPreviousData,
    // A presentation being built shows its progress: the list asks again while one is.
    refetchInterval: (query) =>
      query.state.data?.data.some((presentation) => presentation.status === 'building') ? 1000 : false,
  });

export const usePresentationLines = (id: string | null) =>
  useQuery({
    queryKey: [...key, 'presentation-lines', id],
    queryFn: () => moneyApi.presentationLines({ params: { id: id as string }, query: { page: 1, pageSize: 100 } }),
    enabled: id !== null,
  });

export function useCreatePresentation() {
  return useAction({
    mutationFn: (body: CallInput<typeof payerRoutes.createPresentation>['body'], idempotencyKey: string) =>
      moneyApi.createPresentation({ body, idempotencyKey }),
    onSuccess: refresh,
  });
}

export function usePresentationStep() {
  return useAction({
    mutationFn: ({ id, step, version }: { id: string; step: 'send' | 'accept'; version: number }) =>
      step === 'send'
        ? moneyApi.sendPresentation({ params: { id }, body: { version, date: null } })
        : moneyApi.acceptPresentation({ params: { id }, body: { version, date: null } }),
    onSuccess: refresh,
  });
}

export function usePayPresentation() {
  return useAction({
    mutationFn: (
      { id, body }: { id: string; body: CallInput<typeof payerRoutes.payPresentation>['body'] },
      idempotencyKey: string,
    ) => moneyApi.payPresentation({ params: { id }, body, idempotencyKey }),
    onSuccess: refresh,
  });
}

export function useReject() {
  return useAction({
    mutationFn: (
      { id, body }: { id: string; body: CallInput<typeof payerRoutes.reject>['body'] },
      idempotencyKey: string,
    ) => moneyApi.reject({ params: { id }, body, idempotencyKey }),
    onSuccess: refresh,
  });
}

export const presentationFile = (id: string, format: 'pdf' | 'xlsx') =>
  format === 'pdf' ? moneyApi.presentationPdf({ params: { id } }) : moneyApi.presentationXlsx({ params: { id } });
