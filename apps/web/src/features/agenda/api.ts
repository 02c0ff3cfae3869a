import type {
  Appointment,
  AppointmentAnswer,
  CalendarAppointment,
  CalendarQuery,
  CancelAppointmentRequest,
  ConfirmAppointmentRequest,
  CreateAppointmentRequest,
  FreeSlot,
  FreeSlotsQuery,
  UpdateAppointmentRequest,
} from '@odontia/shared/schemas/appointments';
import type { Page } from '@odontia/shared/schemas/common';
import type { RecordChange } from '@odontia/shared/schemas/records';
import type { Chair, Schedule, ScheduleException, Treatment } from '@odontia/shared/schemas/schedules';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { getEveryPage } from '../../lib/every-page';
import { http, isApiError } from '../../lib/http';
import { queryClient } from '../../lib/query-client';

/*
 * The agenda's data (issue 16): the calendar's range, free slots, and the appointment's actions.
 * Every write refetches the calendar (and the free slots): the server decides overlaps.
 */

const agendaKey = ['agenda'] as const;

function params(query: Record<string, string | number | readonly string[] | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === '') continue;
    if (Array.isArray(value)) {
      if (value.length) search.set(key, value.join(','));
    } else search.set(key, String(value));
  }
  return search.toString();
}

export function useCalendarAppointments(query: CalendarQuery) {
  return useQuery({
    queryKey: [...agendaKey, 'calendar', query],
    queryFn: () =>
      http
        .get<{ data: CalendarAppointment[] }>(
          `appointments/calendar?${params(query as Record<string, string | readonly string[] | undefined>)}`,
        )
        .then((answer) => answer.data),
    placeholderData: keepPreviousData,
  });
}

export function useAppointment(id: string | null) {
  return useQuery({
    queryKey: [...agendaKey, 'one', id],
    queryFn: () => http.get<{ data: Appointment }>(`appointments/${id}`).then((answer) => answer.data),
    enabled: Boolean(id),
  });
}

/** GET /api/appointments/:id/changes: the appointment's audit events, newest first. */
export function useAppointmentChanges(id: string, page: number, pageSize: number) {
  return useQuery({
    queryKey: [...agendaKey, 'changes', id, page, pageSize],
    queryFn: () => http.get<Page<RecordChange>>(`appointments/${id}/changes?page=${page}&pageSize=${pageSize}`),
    placeholderData: keepPreviousData,
  });
}

export function useFreeSlots(query: FreeSlotsQuery, enabled: boolean) {
  return useQuery({
    queryKey: [...agendaKey, 'free', query],
    queryFn: () =>
      http
        .get<{ data: FreeSlot[] }>(`appointments/free-slots?${params(query as Record<string, string | number>)}`)
        .then((answer) => answer.data),
    enabled,
    placeholderData: keepPreviousData,
  });
}

/** A part of the agenda another helper builds (schedules, chairs, treatments): empty while its routes are absent. */
async function optional<T>(path: string, empty: T): Promise<T> {
  try {
    return await http.get<T>(path);
  } catch (error) {
    if (isApiError(error) && (error.status === 404 || error.status === 403)) return empty;
    throw error;
  }
}

export function useSchedules() {
  return useQuery({
    queryKey: [...agendaKey, 'schedules'],
    queryFn: () =>
      optional<{ clinic: Schedule | null; professionals: Schedule[] }>('schedules', {
        clinic: null,
        professionals: [],
      }),
    staleTime: 5 * 60_000,
  });
}

export function useScheduleExceptions(from: string, to: string) {
  return useQuery({
    queryKey: [...agendaKey, 'exceptions', from, to],
    queryFn: () =>
      optional<{ data: ScheduleException[] }>(`schedule-exceptions?${params({ from, to, pageSize: 100 })}`, {
        data: [],
      }).then((answer) => answer.data ?? []),
    placeholderData: keepPreviousData,
  });
}

export function useChairs() {
  return useQuery({
    queryKey: [...agendaKey, 'chairs'],
    queryFn: () =>
      optional<{ data: Chair[] }>('chairs?pageSize=100', { data: [] }).then((answer) =>
        (answer.data ?? []).filter((chair) => chair.active).sort((a, b) => a.sortOrder - b.sortOrder),
      ),
    staleTime: 5 * 60_000,
  });
}

export function useTreatments() {
  return useQuery({
    queryKey: [...agendaKey, 'treatments'],
    queryFn: () =>
      getEveryPage<Treatment>('treatments?active=true', (path) =>
        optional<Page<Treatment>>(path, { data: [], total: 0, page: 1, pageSize: 1 }),
      ).then((answer) => answer.data.filter((treatment) => treatment.active)),
    staleTime: 5 * 60_000,
  });
}

export interface PatientHit {
  id: string;
  firstName: string;
  lastName: string;
  phone: string | null;
  ssn: string | null;
}

export function usePatientSearch(q: string, enabled: boolean) {
  return useQuery({
    queryKey: ['patients', 'search', q],
    queryFn: () =>
      http.get<{ data: PatientHit[] }>(`patients?${params({ q, pageSize: 8 })}`).then((answer) => answer.data),
    enabled,
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
}

const refresh = () => queryClient.invalidateQueries({ queryKey: agendaKey });

type Versioned = { id: string; version: number };

export const agendaApi = {
  create: (body: CreateAppointmentRequest) => http.post<AppointmentAnswer>('appointments', body),
  update: (id: string, body: UpdateAppointmentRequest) => http.put<AppointmentAnswer>(`appointments/${id}`, body),
  remove: ({ id }: Versioned) => http.delete<{ code: string }>(`appointments/${id}`),
  cancel: (id: string, body: CancelAppointmentRequest) =>
    http.post<AppointmentAnswer>(`appointments/${id}/cancel`, body),
  confirm: (id: string, body: ConfirmAppointmentRequest) =>
    http.post<AppointmentAnswer>(`appointments/${id}/confirm`, body),
  action: (id: string, action: 'unconfirm' | 'arrive' | 'complete', version: number) =>
    http.post<AppointmentAnswer>(`appointments/${id}/${action}`, { version }),
  restore: (id: string, version: number, allowOutsideSchedule = false) =>
    http.post<AppointmentAnswer>(`appointments/${id}/restore`, { version, allowOutsideSchedule }),
};

/** A write of the agenda: refetches the calendar when it settles (done or refused). */
export function useAgendaMutation<TArgs, TResult>(run: (args: TArgs) => Promise<TResult>) {
  return useMutation({ mutationFn: run, onSettled: refresh });
}
