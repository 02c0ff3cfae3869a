import { chairRecord, scheduleExceptionRecord, scheduleRoutes } from '@odontia/shared/routes/schedules';
import { treatmentRecord } from '@odontia/shared/routes/treatments';
import { useMutation, useQuery } from '@tanstack/react-query';
import { apiClient, type CallInput } from '../../lib/api-client';
import { everyPage } from '../../lib/every-page';
import { queryClient } from '../../lib/query-client';

/**
 * The agenda's settings (issue 16): weeks, exceptions, chairs, treatments and reminders, through
 * the routes declared in packages/shared (issue 36). One query-key family per resource: the
 * agenda's own reads of them (features/agenda/api.ts) sit in the same families, so a change saved
 * here refreshes the calendar too.
 */

export const schedulesKeys = {
  /** The clinic's and the professionals' weeks (this page's and the agenda's). */
  weeks: ['schedules', 'weeks'] as const,
  reminders: ['schedules', 'reminders'] as const,
  exceptions: ['schedule-exceptions'] as const,
  treatments: ['treatments'] as const,
  chairs: ['chairs'] as const,
};

export const schedulesApi = apiClient(scheduleRoutes);
export const scheduleExceptionsApi = apiClient(scheduleExceptionRecord.routes);
export const treatmentsApi = apiClient(treatmentRecord.routes);
export const chairsApi = apiClient(chairRecord.routes);

export type SaveScheduleRequest = CallInput<typeof scheduleRoutes.saveClinic>['body'];

export function useSchedules() {
  return useQuery({ queryKey: schedulesKeys.weeks, queryFn: () => schedulesApi.all() });
}

/** Saves one owner's whole week: the clinic (null) or a professional. */
export function useSaveWeek(professionalId: string | null) {
  return useMutation({
    mutationFn: (body: SaveScheduleRequest) =>
      professionalId
        ? schedulesApi.saveProfessional({ params: { professionalId }, body })
        : schedulesApi.saveClinic({ body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: schedulesKeys.weeks }),
  });
}

export function useReminderSettings() {
  return useQuery({ queryKey: schedulesKeys.reminders, queryFn: () => schedulesApi.reminders() });
}

export function useScheduleExceptions(query: { from?: string; page: number }) {
  return useQuery({
    queryKey: [...schedulesKeys.exceptions, query],
    queryFn: () => scheduleExceptionsApi.list({ query: { ...query, pageSize: 20 } }),
  });
}

export function useTreatments() {
  return useQuery({
    queryKey: [...schedulesKeys.treatments, 'every'],
    queryFn: () => everyPage((page) => treatmentsApi.list({ query: page })),
  });
}

export function useChairs() {
  return useQuery({
    queryKey: [...schedulesKeys.chairs, 'page'],
    queryFn: () => chairsApi.list({ query: { pageSize: 100 } }),
  });
}

/** The records this page creates, edits and deletes in a dialog, by collection. */
const recordRoutes = {
  'schedule-exceptions': scheduleExceptionRecord.routes,
  chairs: chairRecord.routes,
};
export type RecordCollection = keyof typeof recordRoutes;
type RoutesOf<C extends RecordCollection> = (typeof recordRoutes)[C];

/** A new record's fields; an edit sends them with the version it started from. */
export type RecordCreateBody<C extends RecordCollection> = CallInput<RoutesOf<C>['create']>['body'];
export type RecordUpdateBody<C extends RecordCollection> = CallInput<RoutesOf<C>['update']>['body'];
type RecordBody<C extends RecordCollection> = RecordCreateBody<C> | RecordUpdateBody<C>;

/** An edit when the record has an id (its body then carries the version), else a create. */
function saveRecord<C extends RecordCollection>(collection: C, id: string | undefined, body: RecordBody<C>) {
  // The dialog of a collection builds that collection's body (`C`), which TypeScript cannot follow into a branch.
  if (collection === 'chairs') {
    const chair = body as RecordBody<'chairs'>;
    return id
      ? chairsApi.update({ params: { id }, body: chair as RecordUpdateBody<'chairs'> })
      : chairsApi.create({ body: chair });
  }
  const exception = body as RecordBody<'schedule-exceptions'>;
  return id
    ? scheduleExceptionsApi.update({ params: { id }, body: exception as RecordUpdateBody<'schedule-exceptions'> })
    : scheduleExceptionsApi.create({ body: exception });
}

/** Create (no id) or edit (with the version) a record of a collection, then refresh its lists. */
export function useSaveRecord<C extends RecordCollection>(collection: C, id?: string) {
  return useMutation({
    mutationFn: async (body: RecordBody<C>) => saveRecord(collection, id, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [collection] }),
  });
}

export function useDeleteRecord(collection: RecordCollection, id: string) {
  return useMutation({
    mutationFn: async () =>
      collection === 'chairs' ? chairsApi.remove({ params: { id } }) : scheduleExceptionsApi.remove({ params: { id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [collection] }),
  });
}
