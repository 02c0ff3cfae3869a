import type { Page } from '@odontia/shared/schemas/common';
import type { Patient, PatientListItem } from '@odontia/shared/schemas/patients';
import type { RecordChange } from '@odontia/shared/schemas/records';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { http } from '../../lib/http';
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

export type PatientAnswer = { data: Patient; code?: 'patient_created' | 'patient_updated' };

export const patientPaths = {
  list: '/patients',
  create: '/patients/create',
  edit: (id: string) => `/patients/edit/${encodeURIComponent(id)}`,
  history: (id: string) => `/patients/${encodeURIComponent(id)}/mh`,
};

const one = (id: string) => `patients/${encodeURIComponent(id)}`;

export const patientsApi = {
  list: (query: PatientsListQuery) => {
    const params = new URLSearchParams({ page: String(query.page), pageSize: String(query.pageSize) });
    if (query.q.trim()) params.set('q', query.q.trim());
    if (query.sort) params.set('sort', query.sort);
    if (query.active !== 'all') params.set('active', query.active);
    return http.get<Page<PatientListItem>>(`patients?${params}`);
  },
  get: (id: string) => http.get<PatientAnswer>(one(id)),
  create: (body: unknown) => http.post<PatientAnswer>('patients', body),
  update: (id: string, body: unknown) => http.put<PatientAnswer>(one(id), body),
  remove: (id: string) => http.delete<{ code: 'patient_deleted' }>(one(id)),
  changes: (id: string, page: number, pageSize: number) =>
    http.get<Page<RecordChange>>(`${one(id)}/changes?page=${page}&pageSize=${pageSize}`),
};

const patientsKey = ['patients'] as const;
export const patientKey = (id: string) => [...patientsKey, 'one', id] as const;

export function usePatientsList(query: PatientsListQuery) {
  return useQuery({
    queryKey: [...patientsKey, 'list', query],
    queryFn: () => patientsApi.list(query),
    placeholderData: keepPreviousData,
  });
}

export function usePatient(id: string) {
  return useQuery({
    queryKey: patientKey(id),
    queryFn: () => patientsApi.get(id).then((answer) => answer.data),
    enabled: isRecordId(id),
    // A patient open in a form is not refetched under the user's feet.
    refetchOnWindowFocus: false,
    retry: (count, error) => count < 2 && !(error as { status?: number }).status,
  });
}

export function usePatientChanges(id: string, page: number, pageSize: number) {
  return useQuery({
    queryKey: [...patientsKey, 'changes', id, page, pageSize],
    queryFn: () => patientsApi.changes(id, page, pageSize),
    placeholderData: keepPreviousData,
  });
}

/** Every patient list, record and history is refetched after a change. */
export function refreshPatients(): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: patientsKey });
}

export function useSavePatient(id?: string) {
  return useMutation({
    mutationFn: (body: unknown) => (id ? patientsApi.update(id, body) : patientsApi.create(body)),
    onSuccess: (answer) => {
      queryClient.setQueryData(patientKey(answer.data.id), answer.data);
      return refreshPatients();
    },
  });
}

export function useDeletePatient(id: string) {
  return useMutation({
    mutationFn: () => patientsApi.remove(id),
    // The record itself is dropped by the caller once it has left its page (no refetch into a 404).
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [...patientsKey, 'list'] }),
  });
}

/** Forgets a deleted patient (after leaving their pages). */
export function forgetPatient(id: string): void {
  queryClient.removeQueries({ queryKey: patientKey(id) });
  queryClient.removeQueries({ queryKey: [...patientsKey, 'changes', id] });
}
