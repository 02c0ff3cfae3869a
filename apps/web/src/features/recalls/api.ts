import { recallRoutes } from '@odontia/shared/routes/recalls';
import type { RecallsQuery } from '@odontia/shared/schemas/recalls';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { apiClient, type CallAnswer, type CallInput } from '../../lib/api-client';
import { toastApiError, toastSuccess } from '../../lib/api-toast';
import { queryClient } from '../../lib/query-client';

/** Recalls (issue 38): /recalls and the patient's open ones, on /api/recalls. */

const client = apiClient(recallRoutes);
const recallsKey = ['recalls'] as const;

export type RecallRow = CallAnswer<typeof recallRoutes.list>['data'][number];
export type RecallDetail = CallAnswer<typeof recallRoutes.get>['data'];

export function useRecalls(query: RecallsQuery, enabled = true) {
  return useQuery({
    queryKey: [...recallsKey, 'list', query],
    queryFn: () => client.list({ query }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function useRecall(id: string) {
  return useQuery({ queryKey: [...recallsKey, 'one', id], queryFn: () => client.get({ params: { id } }) });
}

type Step =
  | { kind: 'attempt'; body: CallInput<typeof recallRoutes.attempt>['body'] }
  | { kind: 'book'; body: CallInput<typeof recallRoutes.book>['body'] }
  | { kind: 'close'; body: CallInput<typeof recallRoutes.close>['body'] };

/** One of the front desk's steps on a recall; the lists refetch and the toast says what was done. */
export function useRecallStep(id: string, onDone: () => void) {
  return useMutation({
    mutationFn: (step: Step) => {
      if (step.kind === 'attempt') return client.attempt({ params: { id }, body: step.body });
      if (step.kind === 'book') return client.book({ params: { id }, body: step.body });
      return client.close({ params: { id }, body: step.body });
    },
    onSuccess: async (answer) => {
      if (answer.code) toastSuccess(answer.code);
      await queryClient.invalidateQueries({ queryKey: recallsKey });
      onDone();
    },
    onError: toastApiError,
  });
}
