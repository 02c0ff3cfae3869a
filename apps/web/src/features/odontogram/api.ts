import { odontogramRoutes } from '@odontia/shared/routes/odontogram';
import type { OdontogramChart } from '@odontia/shared/schemas/odontogram';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { apiClient, type CallInput } from '../../lib/api-client';
import { queryClient } from '../../lib/query-client';
import { applyMarks } from './chart-state';
import { markChartData } from './render-timing';

/** A patient's odontogram (issue 6) through the routes declared in packages/shared (issue 36). */
const client = apiClient(odontogramRoutes);

type CreateOdontogramEntriesRequest = CallInput<typeof odontogramRoutes.createEntries>['body'];

/** The chart at `at` (null: now): the query leaves `at` out then. */
const atQuery = (at: string | null) => (at ? { at } : {});

export const odontogramApi = {
  chart: (patientId: string, at: string | null) =>
    client.chart({ params: { patientId }, query: atQuery(at) }).then((answer) => answer.data),
  entries: (patientId: string, page: number, pageSize: number) =>
    client.entries({ params: { patientId }, query: { page, pageSize } }),
  create: (patientId: string, body: CreateOdontogramEntriesRequest) =>
    client.createEntries({ params: { patientId }, body }),
  void: (patientId: string, entryId: string, reason: string) =>
    client.voidEntry({ params: { patientId, entryId }, body: { reason } }),
  /** The printable chart (PDF), with the session. */
  pdf: (patientId: string, at: string | null) => client.pdf({ params: { patientId }, query: atQuery(at) }),
};

export const odontogramKey = (patientId: string) => ['odontogram', patientId] as const;
const chartKey = (patientId: string, at: string | null) => [...odontogramKey(patientId), 'chart', at ?? 'now'] as const;

/** The chart at `at` (null: now). The timeline keeps the previous chart while the next one loads. */
export function useOdontogramChart(patientId: string, at: string | null, enabled = true) {
  return useQuery({
    queryKey: chartKey(patientId, at),
    queryFn: () => odontogramApi.chart(patientId, at).then(markChartData),
    enabled,
    placeholderData: keepPreviousData,
    // A chart being edited is not refetched under the dentist's hand.
    refetchOnWindowFocus: false,
  });
}

export function useOdontogramEntries(patientId: string, page: number, pageSize: number) {
  return useQuery({
    queryKey: [...odontogramKey(patientId), 'entries', page, pageSize],
    queryFn: () => odontogramApi.entries(patientId, page, pageSize),
    placeholderData: keepPreviousData,
  });
}

/**
 * Charting: the mark shows at once (optimistic); on an error the chart goes back to what it was
 * and the caller toasts. Afterwards the chart, its timeline and the list are refetched.
 */
export function useChartMarks(patientId: string) {
  const key = chartKey(patientId, null);
  return useMutation({
    mutationKey: [...odontogramKey(patientId), 'chart-marks'],
    mutationFn: (body: CreateOdontogramEntriesRequest) => odontogramApi.create(patientId, body),
    onMutate: async (body) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<OdontogramChart>(key);
      if (previous) {
        queryClient.setQueryData<OdontogramChart>(key, {
          ...previous,
          teeth: applyMarks(previous.teeth, body.marks, new Date().toISOString()),
        });
      }
      return { previous };
    },
    onError: (_error, _body, context) => {
      if (context?.previous) queryClient.setQueryData(key, context.previous);
    },
    // Refetched once the last of quick successive marks is settled (an earlier answer would undo later marks on screen).
    onSettled: () =>
      queryClient.isMutating({ mutationKey: [...odontogramKey(patientId), 'chart-marks'] }) === 1
        ? queryClient.invalidateQueries({ queryKey: odontogramKey(patientId) })
        : undefined,
  });
}

export function useVoidEntry(patientId: string) {
  return useMutation({
    mutationFn: ({ entryId, reason }: { entryId: string; reason: string }) =>
      odontogramApi.void(patientId, entryId, reason),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: odontogramKey(patientId) }),
  });
}
