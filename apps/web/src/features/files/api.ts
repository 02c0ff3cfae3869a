import type { Page } from '@odontia/shared/schemas/common';
import type {
  PatientFile,
  PatientFileType,
  ReceiveLaboratoryResultRequest,
  RecordKind,
  UpdatePatientFileRequest,
  UploadFileEntry,
  UploadLimits,
} from '@odontia/shared/schemas/files';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { http } from '../../lib/http';
import { queryClient } from '../../lib/query-client';
import { refreshClinical } from '../medical-history/api';

const enc = encodeURIComponent;
const collection = (patientId: string) => `patients/${enc(patientId)}/files`;
const one = (patientId: string, id: string) => `${collection(patientId)}/${enc(id)}`;

/** A diagnosis or a laboratory order of the patient, whose files are attached to it (issue 24). */
export type FileRecord = { kind: RecordKind; id: string };
/** What a file card says it belongs to: a kind of record, or `none`. */
export const fileRecordFilters = ['diagnosis', 'laboratory', 'attendance', 'none'] as const;
export type FileRecordFilter = (typeof fileRecordFilters)[number];

const recordFiles = (patientId: string, { kind, id }: FileRecord) =>
  `patients/${enc(patientId)}/${kind === 'diagnosis' ? 'diagnoses' : 'laboratories'}/${enc(id)}/files`;

/** An upload's body: the metadata first (the server accepts it anywhere), then any other part, then the files. */
function uploadForm(files: File[], metadata: UploadFileEntry[], fields: Record<string, unknown> = {}) {
  const form = new FormData();
  form.append('metadata', JSON.stringify(metadata));
  for (const [name, value] of Object.entries(fields)) form.append(name, JSON.stringify(value));
  for (const file of files) form.append('files', file, file.name);
  return form;
}
const progressOf = (onProgress?: (fraction: number) => void) => ({
  onProgress: (sent: number, total: number) => onProgress?.(total > 0 ? sent / total : 0),
});

export const filesApi = {
  limits: () => http.get<UploadLimits>('files/limits'),
  list: (
    patientId: string,
    page: number,
    pageSize: number,
    fileType: PatientFileType | '',
    record: FileRecordFilter | '' = '',
  ) =>
    http.get<Page<PatientFile>>(
      `${collection(patientId)}?page=${page}&pageSize=${pageSize}${fileType ? `&fileType=${fileType}` : ''}${record ? `&record=${record}` : ''}`,
    ),
  /** To the patient's files, or attached to a record. */
  upload: (
    patientId: string,
    files: File[],
    metadata: UploadFileEntry[],
    onProgress?: (fraction: number) => void,
    record?: FileRecord,
  ) =>
    http.upload<{ data: PatientFile[]; code: string }>(
      record ? recordFiles(patientId, record) : collection(patientId),
      uploadForm(files, metadata),
      progressOf(onProgress),
    ),
  ofRecord: (patientId: string, record: FileRecord) =>
    http.get<Page<PatientFile>>(`${recordFiles(patientId, record)}?pageSize=100`),
  /** Removes the file from the record (it stays in the patient's files). */
  unlink: (patientId: string, record: FileRecord, id: string) =>
    http.delete<{ code: string }>(`${recordFiles(patientId, record)}/${enc(id)}/link`),
  removeOfRecord: (patientId: string, record: FileRecord, id: string) =>
    http.delete<{ code: string }>(`${recordFiles(patientId, record)}/${enc(id)}`),
  /** The laboratory's files and the order marked received, in one request. */
  receiveResult: (
    patientId: string,
    id: string,
    files: File[],
    metadata: UploadFileEntry[],
    result: ReceiveLaboratoryResultRequest,
    onProgress?: (fraction: number) => void,
  ) =>
    http.upload<{ code: string }>(
      `patients/${enc(patientId)}/laboratories/${enc(id)}/result`,
      uploadForm(files, metadata, { result }),
      progressOf(onProgress),
    ),
  update: (patientId: string, id: string, body: UpdatePatientFileRequest) =>
    http.patch<{ data: PatientFile; code: string }>(one(patientId, id), body),
  remove: (patientId: string, id: string) => http.delete<{ code: string }>(one(patientId, id)),
  /** The bytes with the session (an <img> or a new tab cannot send the Bearer header). */
  content: (patientId: string, id: string, download = false) =>
    http.download(`${one(patientId, id)}/content${download ? '?download=1' : ''}`),
  thumbnail: (patientId: string, id: string) => http.download(`${one(patientId, id)}/thumbnail`),
};

const filesKey = ['files'] as const;

export function useUploadLimits() {
  return useQuery({ queryKey: [...filesKey, 'limits'], queryFn: filesApi.limits, staleTime: Number.POSITIVE_INFINITY });
}

export function usePatientFiles(
  patientId: string,
  page: number,
  pageSize: number,
  fileType: PatientFileType | '',
  record: FileRecordFilter | '' = '',
) {
  return useQuery({
    queryKey: [...filesKey, patientId, 'list', page, pageSize, fileType, record],
    queryFn: () => filesApi.list(patientId, page, pageSize, fileType, record),
    placeholderData: keepPreviousData,
  });
}

/** Every list of the patient's files (the patient's and its records'). */
const refreshList = (patientId: string) =>
  queryClient.invalidateQueries({ queryKey: [...filesKey, patientId, 'list'] });

export function useRecordFiles(patientId: string, record: FileRecord) {
  return useQuery({
    queryKey: [...filesKey, patientId, 'list', record.kind, record.id],
    queryFn: () => filesApi.ofRecord(patientId, record),
  });
}

/** A laboratory order's result received with the upload (issue 24). */
export type ReceiveResult = { id: string; result: ReceiveLaboratoryResultRequest };

export function useUploadFiles(patientId: string, record?: FileRecord, receive?: ReceiveResult) {
  return useMutation({
    mutationFn: (input: { files: File[]; metadata: UploadFileEntry[]; onProgress?: (fraction: number) => void }) =>
      receive
        ? filesApi.receiveResult(patientId, receive.id, input.files, input.metadata, receive.result, input.onProgress)
        : filesApi.upload(patientId, input.files, input.metadata, input.onProgress, record),
    onSuccess: () => Promise.all([refreshList(patientId), receive ? refreshClinical() : null]),
  });
}

/** Remove from the record (`unlink`) or delete (soft) a record's file. */
export function useRecordFileAction(patientId: string, record: FileRecord, action: 'unlink' | 'delete') {
  return useMutation({
    mutationFn: (id: string) =>
      action === 'unlink' ? filesApi.unlink(patientId, record, id) : filesApi.removeOfRecord(patientId, record, id),
    onSuccess: () => refreshList(patientId),
  });
}

export function useUpdateFile(patientId: string, id: string) {
  return useMutation({
    mutationFn: (body: UpdatePatientFileRequest) => filesApi.update(patientId, id, body),
    onSuccess: () => refreshList(patientId),
  });
}

export function useDeleteFile(patientId: string, id: string) {
  return useMutation({
    mutationFn: () => filesApi.remove(patientId, id),
    onSuccess: () => refreshList(patientId),
  });
}

/**
 * An object URL of a file's thumbnail or content, fetched with the session, cached by the query
 * (a file's bytes never change) and released when nothing shows it any more.
 */
export function useFileObjectUrl(patientId: string, id: string, which: 'thumbnail' | 'content', enabled = true) {
  const query = useQuery({
    queryKey: [...filesKey, patientId, which, id],
    queryFn: () => (which === 'thumbnail' ? filesApi.thumbnail(patientId, id) : filesApi.content(patientId, id)),
    enabled,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 5 * 60_000,
    retry: 1,
  });
  const blob = query.data?.blob;
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!blob) {
      setUrl(null);
      return;
    }
    const created = URL.createObjectURL(blob);
    setUrl(created);
    return () => URL.revokeObjectURL(created);
  }, [blob]);
  return { url, isError: query.isError, isPending: enabled && query.isPending };
}

/** Sizes are shown by the one formatter of the app. */
export { formatSize } from '../../lib/format-size';
