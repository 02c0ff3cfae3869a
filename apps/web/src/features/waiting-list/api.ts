import { waitingListRoutes } from '@odontia/shared/routes/waiting-list';
import type { WaitingListQuery } from '@odontia/shared/schemas/waiting-list';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { apiClient, type CallInput } from '../../lib/api-client';
import { queryClient } from '../../lib/query-client';

/** The waiting list's screen (issue 38): `/waiting-list`, its entries, added and removed in dialogs. */

export const waitingListPath = '/waiting-list';

const waitingListApi = apiClient(waitingListRoutes);
const waitingListKey = ['waiting-list'] as const;

const refresh = () => queryClient.invalidateQueries({ queryKey: waitingListKey });

export function useWaitingList(query: Pick<WaitingListQuery, 'page' | 'pageSize' | 'sort' | 'status'>) {
  return useQuery({
    queryKey: [...waitingListKey, 'list', query],
    queryFn: () => waitingListApi.list({ query }),
    placeholderData: keepPreviousData,
  });
}

export type WaitingListBody = CallInput<typeof waitingListRoutes.create>['body'];

export function useAddToWaitingList() {
  return useMutation({
    mutationFn: (body: WaitingListBody) => waitingListApi.create({ body }),
    onSuccess: refresh,
  });
}

export function useRemoveFromWaitingList(id: string) {
  return useMutation({
    mutationFn: () => waitingListApi.remove({ params: { id } }),
    onSuccess: refresh,
  });
}
