import type { Page } from '@odontia/shared/schemas/common';
import type {
  Chair,
  ReminderSettings,
  SaveScheduleRequest,
  Schedule,
  ScheduleException,
  SchedulesResponse,
  Treatment,
} from '@odontia/shared/schemas/schedules';
import { useMutation, useQuery } from '@tanstack/react-query';
import { getEveryPage } from '../../lib/every-page';
import { http } from '../../lib/http';
import { queryClient } from '../../lib/query-client';

/** The agenda's settings (issue 16): weeks, exceptions, chairs, treatments and reminders. */

export const schedulesKeys = {
  weeks: ['schedules'] as const,
  reminders: ['schedules', 'reminders'] as const,
  exceptions: ['schedule-exceptions'] as const,
  treatments: ['treatments'] as const,
  chairs: ['chairs'] as const,
};

export function useSchedules() {
  return useQuery({ queryKey: schedulesKeys.weeks, queryFn: () => http.get<SchedulesResponse>('schedules') });
}

/** Saves one owner's whole week: the clinic (null) or a professional. */
export function useSaveWeek(professionalId: string | null) {
  return useMutation({
    mutationFn: (body: SaveScheduleRequest) =>
      http.put<{ data: Schedule; code: string }>(
        professionalId ? `schedules/professionals/${encodeURIComponent(professionalId)}` : 'schedules/clinic',
        body,
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: schedulesKeys.weeks, exact: true }),
  });
}

export function useReminderSettings() {
  return useQuery({
    queryKey: schedulesKeys.reminders,
    queryFn: () => http.get<{ data: ReminderSettings }>('schedules/reminders'),
  });
}

export function useScheduleExceptions(query: { from?: string; page: number }) {
  const params = new URLSearchParams({ page: String(query.page), pageSize: '20' });
  if (query.from) params.set('from', query.from);
  return useQuery({
    queryKey: [...schedulesKeys.exceptions, query],
    queryFn: () => http.get<Page<ScheduleException>>(`schedule-exceptions?${params}`),
  });
}

export function useTreatments() {
  return useQuery({
    queryKey: schedulesKeys.treatments,
    queryFn: () => getEveryPage<Treatment>('treatments'),
  });
}

export function useChairs() {
  return useQuery({ queryKey: schedulesKeys.chairs, queryFn: () => http.get<Page<Chair>>('chairs?pageSize=100') });
}

/** Create (no id) or edit (with the version) a record of a collection, then refresh its lists. */
export function useSaveRecord<TRecord>(collection: 'schedule-exceptions' | 'treatments' | 'chairs', id?: string) {
  return useMutation({
    mutationFn: (body: Record<string, unknown>) =>
      id
        ? http.put<{ data: TRecord; code: string }>(`${collection}/${encodeURIComponent(id)}`, body)
        : http.post<{ data: TRecord; code: string }>(collection, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [collection] }),
  });
}

export function useDeleteRecord(collection: 'schedule-exceptions' | 'treatments' | 'chairs', id: string) {
  return useMutation({
    mutationFn: () => http.delete<{ code: string }>(`${collection}/${encodeURIComponent(id)}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [collection] }),
  });
}
