import type { Professional } from '@odontia/shared/schemas/clinical';
import type { Page } from '@odontia/shared/schemas/common';
import type { InventoryItem } from '@odontia/shared/schemas/inventory';
import type { RecordChange } from '@odontia/shared/schemas/records';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { http } from '../../lib/http';
import { queryClient } from '../../lib/query-client';
import { isRecordId } from '../../lib/record-id';
import { type RecordKind, type RecordOf, type RowOf, recordKinds } from './records';

export type { Page, RecordKind, RecordOf, RowOf };

const enc = encodeURIComponent;

export const historyPath = (patientId: string, tab?: string) =>
  `/patients/${enc(patientId)}/mh${tab ? `?tab=${tab}` : ''}`;

export const recordPaths = {
  create: (kind: RecordKind, patientId: string) => `/patients/${enc(patientId)}/mh/${kind}/new`,
  show: (kind: RecordKind, patientId: string, id: string) => `/patients/${enc(patientId)}/mh/${kind}/show/${enc(id)}`,
  edit: (kind: RecordKind, patientId: string, id: string) => `/patients/${enc(patientId)}/mh/${kind}/edit/${enc(id)}`,
};

const collection = (kind: RecordKind, patientId: string) =>
  `patients/${enc(patientId)}/${recordKinds[kind].collection}`;
const one = (kind: RecordKind, patientId: string, id: string) => `${collection(kind, patientId)}/${enc(id)}`;

export type RecordAnswer<K extends RecordKind> = { data: RecordOf[K]; code?: string };

export const clinicalApi = {
  list: <K extends RecordKind>(kind: K, patientId: string, page: number, pageSize: number) =>
    http.get<Page<RowOf[K]>>(`${collection(kind, patientId)}?page=${page}&pageSize=${pageSize}`),
  get: <K extends RecordKind>(kind: K, patientId: string, id: string) =>
    http.get<RecordAnswer<K>>(one(kind, patientId, id)),
  create: <K extends RecordKind>(kind: K, patientId: string, body: unknown) =>
    http.post<RecordAnswer<K>>(collection(kind, patientId), body),
  update: <K extends RecordKind>(kind: K, patientId: string, id: string, body: unknown) =>
    http.put<RecordAnswer<K>>(one(kind, patientId, id), body),
  remove: (kind: RecordKind, patientId: string, id: string) => http.delete<{ code: string }>(one(kind, patientId, id)),
  changes: (kind: RecordKind, patientId: string, id: string, page: number, pageSize: number) =>
    http.get<Page<RecordChange>>(`${one(kind, patientId, id)}/changes?page=${page}&pageSize=${pageSize}`),
  /** The printable laboratory order (PDF). */
  orderPdf: (patientId: string, id: string) => http.download(`${one('laboratory', patientId, id)}/order.pdf`),
  /** The printable prescription (PDF), in the patient's language. */
  prescriptionPdf: (patientId: string, id: string) => http.download(`${one('prescription', patientId, id)}/pdf`),
  /** The printable health certificate (PDF), in the patient's language. */
  certificatePdf: (patientId: string, id: string) => http.download(`${one('certificate', patientId, id)}/pdf`),
  /** Voids a health certificate with a reason (it stays, marked). */
  voidCertificate: (patientId: string, id: string, body: { reason: string; version: number }) =>
    http.post<RecordAnswer<'certificate'>>(`${one('certificate', patientId, id)}/void`, body),
  addendum: (patientId: string, id: string, text: string) =>
    http.post<RecordAnswer<'attendance'>>(`${one('attendance', patientId, id)}/addenda`, { text }),
};

const clinicalKey = ['clinical'] as const;
export const recordKey = (kind: RecordKind, patientId: string, id: string) =>
  [...clinicalKey, kind, patientId, 'one', id] as const;

export function useRecordList<K extends RecordKind>(kind: K, patientId: string, page: number, pageSize: number) {
  return useQuery({
    queryKey: [...clinicalKey, kind, patientId, 'list', page, pageSize],
    queryFn: () => clinicalApi.list(kind, patientId, page, pageSize),
    placeholderData: keepPreviousData,
  });
}

export function useRecord<K extends RecordKind>(kind: K, patientId: string, id: string) {
  return useQuery({
    queryKey: recordKey(kind, patientId, id),
    queryFn: () => clinicalApi.get(kind, patientId, id).then((answer) => answer.data),
    enabled: isRecordId(patientId) && isRecordId(id),
    // A record open in a form is not refetched under the user's feet.
    refetchOnWindowFocus: false,
    retry: (count, error) => count < 2 && !(error as { status?: number }).status,
  });
}

export function useRecordChanges(kind: RecordKind, patientId: string, id: string, page: number, pageSize: number) {
  return useQuery({
    queryKey: [...clinicalKey, kind, patientId, 'changes', id, page, pageSize],
    queryFn: () => clinicalApi.changes(kind, patientId, id, page, pageSize),
    placeholderData: keepPreviousData,
  });
}

/** Every clinical list and record is refetched after a change (and the inventory, whose stock may have moved). */
export async function refreshClinical(): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: clinicalKey }),
    queryClient.invalidateQueries({ queryKey: ['inventory'] }),
  ]);
}

export function useSaveRecord<K extends RecordKind>(kind: K, patientId: string, id?: string) {
  return useMutation({
    mutationFn: (body: unknown) =>
      id ? clinicalApi.update(kind, patientId, id, body) : clinicalApi.create(kind, patientId, body),
    onSuccess: (answer) => {
      queryClient.setQueryData(recordKey(kind, patientId, answer.data.id), answer.data);
      return refreshClinical();
    },
  });
}

export function useDeleteRecord(kind: RecordKind, patientId: string, id: string) {
  return useMutation({
    mutationFn: () => clinicalApi.remove(kind, patientId, id),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: [...clinicalKey, kind, patientId, 'list'] }),
        queryClient.invalidateQueries({ queryKey: ['inventory'] }),
      ]),
  });
}

/** Forgets a deleted record (after leaving its pages). */
export function forgetRecord(kind: RecordKind, patientId: string, id: string): void {
  queryClient.removeQueries({ queryKey: recordKey(kind, patientId, id) });
}

export function useAddAddendum(patientId: string, id: string) {
  return useMutation({
    mutationFn: (text: string) => clinicalApi.addendum(patientId, id, text),
    onSuccess: (answer) => {
      queryClient.setQueryData(recordKey('attendance', patientId, id), answer.data);
      return queryClient.invalidateQueries({ queryKey: clinicalKey });
    },
  });
}

/** Supplies (active) or medicines (approved and active) whose name matches, for the pickers. */
export function useStockSearch(kind: 'supply' | 'medication', q: string, enabled: boolean) {
  return useQuery({
    queryKey: ['inventory', kind, 'picker', q],
    queryFn: () => {
      const params = new URLSearchParams({ page: '1', pageSize: '8', productStatus: 'active', sort: 'name' });
      if (q.trim()) params.set('q', q.trim());
      if (kind === 'medication') params.set('approvalStatus', 'approved');
      return http.get<Page<InventoryItem>>(`${kind === 'supply' ? 'supplies' : 'medications'}?${params}`);
    },
    enabled,
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
}

/** The clinic's professionals (active users who are not customers), for every clinical form. */
export function useProfessionals() {
  return useQuery({
    queryKey: ['professionals'],
    queryFn: () => http.get<{ data: Professional[] }>('professionals').then((answer) => answer.data),
    staleTime: 5 * 60_000,
  });
}
