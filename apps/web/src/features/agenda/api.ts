import { patientRoutes } from '@odontia/shared/routes/patients';
import type { scheduleRoutes } from '@odontia/shared/routes/schedules';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiClient, type CallAnswer, type CallInput } from '../../lib/api-client';
import { everyPage } from '../../lib/every-page';
import { isApiError } from '../../lib/http';
import { refreshPatients } from '../patients/api';
import { chairsApi, scheduleExceptionsApi, schedulesApi, schedulesKeys, treatmentsApi } from '../schedules/api';

/*
 * What the agenda draws around the appointments (issue 16): schedules and their exceptions,
 * chairs, treatments, and the patient search of the booking dialog. The appointments themselves
 * are read and written through `features/appointments/api.ts`. Each read sits in its resource's
 * query-key family (features/schedules/api.ts), so a change saved on /schedules or on the price
 * list reaches the calendar.
 */

/** A part of the agenda the server refuses (403) or lacks (404): drawn empty. */
async function optional<T>(read: () => Promise<T>, empty: T): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (isApiError(error) && (error.status === 404 || error.status === 403)) return empty;
    throw error;
  }
}

type Schedules = CallAnswer<typeof scheduleRoutes.all>;

export function useSchedules() {
  return useQuery({
    queryKey: [...schedulesKeys.weeks, 'agenda'],
    queryFn: () =>
      optional<Omit<Schedules, 'clinic'> & { clinic: Schedules['clinic'] | null }>(() => schedulesApi.all(), {
        clinic: null,
        professionals: [],
      }),
    staleTime: 5 * 60_000,
  });
}

export function useScheduleExceptions(from: string, to: string) {
  return useQuery({
    queryKey: [...schedulesKeys.exceptions, 'agenda', from, to],
    queryFn: () =>
      optional(
        () => scheduleExceptionsApi.list({ query: { from, to, pageSize: 100 } }).then((answer) => answer.data),
        [],
      ),
    placeholderData: keepPreviousData,
  });
}

export function useChairs() {
  return useQuery({
    queryKey: [...schedulesKeys.chairs, 'agenda'],
    queryFn: () =>
      optional(() => chairsApi.list({ query: { pageSize: 100 } }).then((answer) => answer.data), []).then((chairs) =>
        chairs.filter((chair) => chair.active).sort((a, b) => a.sortOrder - b.sortOrder),
      ),
    staleTime: 5 * 60_000,
  });
}

export function useTreatments() {
  return useQuery({
    queryKey: [...schedulesKeys.treatments, 'agenda'],
    queryFn: () =>
      everyPage((page) =>
        optional(() => treatmentsApi.list({ query: { ...page, active: 'true' } }), {
          data: [],
          total: 0,
          page: 1,
          pageSize: 1,
        }),
      ).then((answer) => answer.data.filter((treatment) => treatment.active)),
    staleTime: 5 * 60_000,
  });
}

const patientsApi = apiClient(patientRoutes);

/** A patient the booking dialog's search finds (a row of the patients list). */
export type PatientHit = CallAnswer<typeof patientRoutes.list>['data'][number];

/** The patient of a deep link (?patientId=). */
export const patientById = (patientId: string) => patientsApi.get({ params: { patientId } });

/** A patient registered from the booking dialog; the patients' lists then show them. */
export async function createPatient(body: CallInput<typeof patientRoutes.create>['body']) {
  const answer = await patientsApi.create({ body });
  await refreshPatients();
  return answer;
}

export function usePatientSearch(q: string, enabled: boolean) {
  return useQuery({
    queryKey: ['patients', 'search', q],
    queryFn: () => patientsApi.list({ query: { q, pageSize: 8 } }).then((answer) => answer.data),
    enabled,
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
}
