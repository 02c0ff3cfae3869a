import type { ApiRoute } from '@odontia/shared/api-route';
import { medicationRoutes, supplyRoutes } from '@odontia/shared/routes/inventory';
import {
  attendanceRecord,
  certificateRecord,
  clinicalRecordExtras,
  diagnosisRecord,
  laboratoryRecord,
  prescriptionRecord,
} from '@odontia/shared/routes/medical-history';
import type { Page } from '@odontia/shared/schemas/common';
import type { RecordChange } from '@odontia/shared/schemas/records';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { apiClient, type CallInput, callApi } from '../../lib/api-client';
import { queryClient } from '../../lib/query-client';
import { isRecordId } from '../../lib/record-id';
import type { RecordKind, RecordOf, RowOf } from './records';

export type { Page, RecordKind, RecordOf, RowOf };

const enc = encodeURIComponent;

export const historyPath = (patientId: string, tab?: string) =>
  `/patients/${enc(patientId)}/mh${tab ? `?tab=${tab}` : ''}`;

export const recordPaths = {
  create: (kind: RecordKind, patientId: string) => `/patients/${enc(patientId)}/mh/${kind}/new`,
  show: (kind: RecordKind, patientId: string, id: string) => `/patients/${enc(patientId)}/mh/${kind}/show/${enc(id)}`,
  edit: (kind: RecordKind, patientId: string, id: string) => `/patients/${enc(patientId)}/mh/${kind}/edit/${enc(id)}`,
};

/** Each kind's routes as declared in packages/shared: the paths are never written here. */
const declaredByKind = {
  diagnosis: diagnosisRecord.routes,
  laboratory: laboratoryRecord.routes,
  attendance: attendanceRecord.routes,
  prescription: prescriptionRecord.routes,
  certificate: certificateRecord.routes,
} satisfies Record<RecordKind, unknown>;

export type RecordAnswer<K extends RecordKind> = { data: RecordOf[K]; code?: string };
type DeclaredOf<K extends RecordKind> = (typeof declaredByKind)[K];
/** What a kind's form sends: a new record's fields, or an edit's (with the version it started from). */
export type RecordBody<K extends RecordKind> =
  | CallInput<DeclaredOf<K>['create']>['body']
  | CallInput<DeclaredOf<K>['update']>['body'];

/** One call of a kind's usual route: the kinds' contracts differ, their answers are typed by `RecordOf`. */
function callRecord<T>(kind: RecordKind, name: keyof (typeof declaredByKind)[RecordKind], input: object): Promise<T> {
  return callApi(declaredByKind[kind][name] as ApiRoute, input as never) as Promise<T>;
}

const extras = apiClient(clinicalRecordExtras);

export const clinicalApi = {
  list: <K extends RecordKind>(kind: K, patientId: string, page: number, pageSize: number) =>
    callRecord<Page<RowOf[K]>>(kind, 'list', { params: { patientId }, query: { page, pageSize } }),
  get: <K extends RecordKind>(kind: K, patientId: string, id: string) =>
    callRecord<RecordAnswer<K>>(kind, 'get', { params: { patientId, id } }),
  create: <K extends RecordKind>(kind: K, patientId: string, body: RecordBody<K>) =>
    callRecord<RecordAnswer<K>>(kind, 'create', { params: { patientId }, body }),
  update: <K extends RecordKind>(kind: K, patientId: string, id: string, body: RecordBody<K>) =>
    callRecord<RecordAnswer<K>>(kind, 'update', { params: { patientId, id }, body }),
  remove: (kind: RecordKind, patientId: string, id: string) =>
    callRecord<{ code: string }>(kind, 'remove', { params: { patientId, id } }),
  changes: (kind: RecordKind, patientId: string, id: string, page: number, pageSize: number) =>
    callRecord<Page<RecordChange>>(kind, 'changes', { params: { patientId, id }, query: { page, pageSize } }),
  /** The printable laboratory order (PDF). */
  orderPdf: (patientId: string, id: string) => extras.laboratoryOrderPdf({ params: { patientId, id } }),
  /** The printable prescription (PDF), in the patient's language. */
  prescriptionPdf: (patientId: string, id: string) => extras.prescriptionPdf({ params: { patientId, id } }),
  /** The printable health certificate (PDF), in the patient's language. */
  certificatePdf: (patientId: string, id: string) => extras.certificatePdf({ params: { patientId, id } }),
  /** Voids a health certificate with a reason (it stays, marked). */
  voidCertificate: (patientId: string, id: string, body: { reason: string; version: number }) =>
    extras.voidCertificate({ params: { patientId, id }, body }),
  addendum: (patientId: string, id: string, text: string) =>
    extras.addendum({ params: { patientId, id }, body: { text } }),
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
    mutationFn: (body: RecordBody<K>) =>
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

const stockApi = { medication: apiClient(medicationRoutes), supply: apiClient(supplyRoutes) };

/** Supplies (active) or medicines (approved and active) whose name matches, for the pickers. */
export function useStockSearch(kind: 'supply' | 'medication', q: string, enabled: boolean) {
  return useQuery({
    queryKey: ['inventory', kind, 'picker', q],
    queryFn: () => {
      const query = { page: 1, pageSize: 8, productStatus: 'active', sort: 'name', q } as const;
      return kind === 'medication'
        ? stockApi.medication.list({ query: { ...query, approvalStatus: 'approved' } })
        : stockApi.supply.list({ query });
    },
    enabled,
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
}
