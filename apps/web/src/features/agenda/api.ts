import type { Page } from '@odontia/shared/schemas/common';
import type { Chair, Schedule, ScheduleException, Treatment } from '@odontia/shared/schemas/schedules';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { getEveryPage } from '../../lib/every-page';
import { http, isApiError } from '../../lib/http';
import { searchOf } from '../appointments/api';

/*
 * What the agenda draws around the appointments (issue 16): schedules and their exceptions,
 * chairs, treatments, and the patient search of the booking dialog. The appointments themselves
 * are read and written through `features/appointments/api.ts`.
 */

const agendaKey = ['agenda'] as const;

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
      optional<{ data: ScheduleException[] }>(`schedule-exceptions?${searchOf({ from, to, pageSize: 100 })}`, {
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
      http.get<{ data: PatientHit[] }>(`patients?${searchOf({ q, pageSize: 8 })}`).then((answer) => answer.data),
    enabled,
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
}
