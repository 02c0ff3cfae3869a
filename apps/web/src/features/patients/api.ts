import { patientRoutes } from '@odontia/shared/routes/patients';
import type { Page } from '@odontia/shared/schemas/common';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { apiClient, type CallAnswer, type CallInput } from '../../lib/api-client';
import { queryClient } from '../../lib/query-client';
import { isRecordId } from '../../lib/record-id';

export type { Page };

/** The list's "active" filter: only active patients (the default), only inactive ones, or all. */
export type ActiveFilter = 'true' | 'false' | 'all';

export interface PatientsListQuery {
  q: string;
  sort: string;
  active: ActiveFilter;
  page: number;
  pageSize: number;
}

export type PatientAnswer = CallAnswer<typeof patientRoutes.get>;
/** A new patient's fields, or an edit's (with the version it started from). */
export type PatientBody =
  | CallInput<typeof patientRoutes.create>['body']
  | CallInput<typeof patientRoutes.update>['body'];

export const patientPaths = {
  list: '/patients',
  create: '/patients/create',
  edit: (id: string) => `/patients/edit/${encodeURIComponent(id)}`,
  history: (id: string) => `/patients/${encodeURIComponent(id)}/mh`,
};

const patientsApi = apiClient(patientRoutes);

const patientsKey = ['patients'] as const;
export const patientKey = (id: string) => [...patientsKey, 'one', id] as const;

export function usePatientsList(query: PatientsListQuery) {
  return useQuery({
    queryKey: [...patientsKey, 'list', query],
    queryFn: () => {
      const { active, ...rest } = query;
      return patientsApi.list({ query: { ...rest, ...(active === 'all' ? {} : { active }) } });
    },
    placeholderData: keepPreviousData,
  });
}

export function usePatient(id: string) {
  return useQuery({
    queryKey: patientKey(id),
    queryFn: () => patientsApi.get({ params: { patientId: id } }).then((answer) => answer.data),
    enabled: isRecordId(id),
    // A patient open in a form is not refetched under the user's feet.
    refetchOnWindowFocus: false,
    retry: (count, error) => count < 2 && !(error as { status?: number }).status,
  });
}

export function usePatientChanges(id: string, page: number, pageSize: number) {
  return useQuery({
    queryKey: [...patientsKey, 'changes', id, page, pageSize],
    queryFn: () => patientsApi.changes({ params: { patientId: id }, query: { page, pageSize } }),
    placeholderData: keepPreviousData,
  });
}

/** Every patient list, record and history is refetched after a change. */
export function refreshPatients(): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: patientsKey });
}

export function useSavePatient(id?: string) {
  return useMutation({
    mutationFn: (body: PatientBody): Promise<PatientAnswer> =>
      id
        ? patientsApi.update({
            params: { patientId: id },
            body: body as CallInput<typeof patientRoutes.update>['body'],
          })
        : patientsApi.create({ body: body as CallInput<typeof patientRoutes.create>['body'] }),
    onSuccess: (answer) => {
      queryClient.setQueryData(patientKey(answer.data.id), answer.data);
      return refreshPatients();
    },
  });
}

export function useDeletePatient(id: string) {
  return useMutation({
    mutationFn: () => patientsApi.remove({ params: { patientId: id } }),
    // The record itself is dropped by the caller once it has left its page (no refetch into a 404).
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [...patientsKey, 'list'] }),
  });
}

/** Forgets a deleted patient (after leaving their pages). */
export function forgetPatient(id: string): void {
  queryClient.removeQueries({ queryKey: patientKey(id) });
  queryClient.removeQueries({ queryKey: [...patientsKey, 'changes', id] });
}
