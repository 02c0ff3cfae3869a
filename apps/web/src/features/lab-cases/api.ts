import { labCaseRoutes } from '@odontia/shared/routes/lab-cases';
import { purchaseRoutes } from '@odontia/shared/routes/purchases';
import type { LabCaseStep, LabCasesQuery } from '@odontia/shared/schemas/lab-cases';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiClient, type CallAnswer, type CallInput } from '../../lib/api-client';
import { toastApiError, toastSuccess } from '../../lib/api-toast';
import { queryClient } from '../../lib/query-client';
import { isRecordId } from '../../lib/record-id';
import { useAction } from '../../lib/use-action';
import { providersApi } from '../providers/api';

/** Dental lab cases (issue 41): the open list, a patient's, an appointment's and an invoice's, on /api/lab-cases. */

const client = apiClient(labCaseRoutes);
// The lab's invoices are read through the purchases' declared route, not the purchases feature:
// the purchase view shows its cases, so the feature may not lean back on it.
const purchases = apiClient(purchaseRoutes);
const labCasesKey = ['lab-cases'] as const;

export type LabCaseRow = CallAnswer<typeof labCaseRoutes.list>['data'][number];
export type LabCaseDetail = CallAnswer<typeof labCaseRoutes.get>['data'];
export type LabCaseCreateBody = CallInput<typeof labCaseRoutes.create>['body'];
export type LabCaseUpdateBody = CallInput<typeof labCaseRoutes.update>['body'];
export type LabCaseStepBody<Step extends LabCaseStep> = CallInput<(typeof labCaseRoutes)[Step]>['body'];

export function useLabCases(query: LabCasesQuery, enabled = true) {
  return useQuery({
    queryKey: [...labCasesKey, 'list', query],
    queryFn: () => client.list({ query }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function useLabCase(id: string | null) {
  return useQuery({
    queryKey: [...labCasesKey, 'one', id],
    queryFn: () => client.get({ params: { id: id ?? '' } }),
    enabled: Boolean(id),
  });
}

async function done(answer: { code?: string | undefined }, onDone: () => void) {
  if (answer.code) toastSuccess(answer.code);
  // The agenda's warning follows the case's state.
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: labCasesKey }),
    queryClient.invalidateQueries({ queryKey: ['appointments'] }),
  ]);
  onDone();
}

/** Create a case, or edit one (with its version). */
export function useSaveLabCase(id: string | null, onDone: () => void) {
  return useAction({
    mutationFn: (body: LabCaseCreateBody | LabCaseUpdateBody) =>
      id
        ? client.update({ params: { id }, body: body as LabCaseUpdateBody })
        : client.create({ body: body as LabCaseCreateBody }),
    onSuccess: (answer) => done(answer, onDone),
    onError: toastApiError,
  });
}

/** One step of a case's life: send, receive, check, return for a remake, seat, cancel. */
export function useLabCaseStep(id: string, step: LabCaseStep, onDone: () => void) {
  return useAction({
    mutationFn: (body: LabCaseStepBody<typeof step>) =>
      (client[step] as (input: { params: { id: string }; body: unknown }) => ReturnType<typeof client.send>)({
        params: { id },
        body,
      }),
    onSuccess: (answer) => done(answer, onDone),
    onError: toastApiError,
  });
}

/** The labs a case may go to: the clinic's active providers, by name. */
export function useLabs() {
  return useQuery({
    queryKey: ['providers', 'labs'],
    queryFn: () => providersApi.list({ query: { page: 1, pageSize: 100, active: 'true', sort: 'fantasyName' } }),
    staleTime: 60_000,
  });
}

/** The lab's purchases a case may name as its invoice, newest first. */
export function useLabInvoices(providerId: string) {
  return useQuery({
    queryKey: ['purchases', 'lab-invoices', providerId],
    queryFn: () => purchases.list({ query: { providerId, page: 1, pageSize: 50, sort: '-date' } }),
    enabled: isRecordId(providerId),
  });
}

/** What a case of the patient may be for: the items of the patient's accepted treatment plans. */
export function useLabCasePlanItems(patientId: string) {
  return useQuery({
    queryKey: [...labCasesKey, 'plan-items', patientId],
    queryFn: () => client.planItems({ params: { patientId } }),
    enabled: isRecordId(patientId),
  });
}
