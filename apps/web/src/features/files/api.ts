import { type ApiRoute, fillPath } from '@odontia/shared/api-route';
import { diagnosisFileRoutes, fileRoutes, laboratoryFileRoutes } from '@odontia/shared/routes/files';
import type {
  PatientFileType,
  ReceiveLaboratoryResultRequest,
  RecordKind,
  UpdatePatientFileRequest,
  UploadFileEntry,
} from '@odontia/shared/schemas/files';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { apiClient, type CallAnswer } from '../../lib/api-client';
import { http } from '../../lib/http';
import { queryClient } from '../../lib/query-client';
import { useBlobUrl } from '../../lib/use-blob-url';
import { refreshClinical } from '../medical-history/api';

/** A diagnosis or a laboratory order of the patient, whose files are attached to it (issue 24). */
export type FileRecord = { kind: RecordKind; id: string };
/** What a file card says it belongs to: a kind of record, or `none`. */
export const fileRecordFilters = ['diagnosis', 'laboratory', 'attendance', 'none'] as const;
export type FileRecordFilter = (typeof fileRecordFilters)[number];

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

const patientFiles = apiClient(fileRoutes);
const recordFiles = { diagnosis: apiClient(diagnosisFileRoutes), laboratory: apiClient(laboratoryFileRoutes) };
const recordFileRoutes = { diagnosis: diagnosisFileRoutes, laboratory: laboratoryFileRoutes };

/**
 * A multipart upload goes by `http.upload` (the typed client sends JSON; this one reports its
 * progress), to the declared route's path and with its declared answer.
 */
function uploadTo<R extends ApiRoute>(
  route: R,
  params: Record<string, string>,
  form: FormData,
  onProgress?: (fraction: number) => void,
) {
  return http.upload<CallAnswer<R>>(fillPath(route.path, params).slice(1), form, progressOf(onProgress));
}

export const filesApi = {
  limits: () => patientFiles.limits(),
  list: (
    patientId: string,
    page: number,
    pageSize: number,
    fileType: PatientFileType | '',
    record: FileRecordFilter | '' = '',
  ) =>
    patientFiles.list({
      params: { patientId },
      query: { page, pageSize, ...(fileType ? { fileType } : {}), ...(record ? { record } : {}) },
    }),
  /** To the patient's files, or attached to a record. */
  upload: (
    patientId: string,
    files: File[],
    metadata: UploadFileEntry[],
    onProgress?: (fraction: number) => void,
    record?: FileRecord,
  ) =>
    record
      ? uploadTo(
          recordFileRoutes[record.kind].upload,
          { patientId, id: record.id },
          uploadForm(files, metadata),
          onProgress,
        )
      : uploadTo(fileRoutes.upload, { patientId }, uploadForm(files, metadata), onProgress),
  ofRecord: (patientId: string, record: FileRecord) =>
    recordFiles[record.kind].list({ params: { patientId, id: record.id }, query: { pageSize: 100 } }),
  /** Removes the file from the record (it stays in the patient's files). */
  unlink: (patientId: string, record: FileRecord, id: string) =>
    recordFiles[record.kind].unlink({ params: { patientId, id: record.id, fileId: id } }),
  removeOfRecord: (patientId: string, record: FileRecord, id: string) =>
    recordFiles[record.kind].remove({ params: { patientId, id: record.id, fileId: id } }),
  /** The laboratory's files and the order marked received, in one request. */
  receiveResult: (
    patientId: string,
    id: string,
    files: File[],
    metadata: UploadFileEntry[],
    result: ReceiveLaboratoryResultRequest,
    onProgress?: (fraction: number) => void,
  ) =>
    uploadTo(
      fileRoutes.receiveLaboratoryResult,
      { patientId, id },
      uploadForm(files, metadata, { result }),
      onProgress,
    ),
  update: (patientId: string, id: string, body: UpdatePatientFileRequest) =>
    patientFiles.update({ params: { patientId, id }, body }),
  remove: (patientId: string, id: string) => patientFiles.remove({ params: { patientId, id } }),
  /** The bytes with the session (an <img> or a new tab cannot send the Bearer header). */
  content: (patientId: string, id: string, download = false) =>
    patientFiles.content({ params: { patientId, id }, query: download ? { download: '1' } : {} }),
  thumbnail: (patientId: string, id: string) => patientFiles.thumbnail({ params: { patientId, id } }),
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
    mutationFn: (input: {
      files: File[];
      metadata: UploadFileEntry[];
      onProgress?: (fraction: number) => void;
    }): Promise<{ code: string }> =>
      receive
        ? filesApi.receiveResult(patientId, receive.id, input.files, input.metadata, receive.result, input.onProgress)
        : filesApi.upload(patientId, input.files, input.metadata, input.onProgress, record),
    onSuccess: () => Promise.all([refreshList(patientId), receive ? refreshClinical() : null]),
  });
}

/** Remove from the record (`unlink`) or delete (soft) a record's file. */
export function useRecordFileAction(patientId: string, record: FileRecord, action: 'unlink' | 'delete') {
  return useMutation({
    mutationFn: (id: string): Promise<{ code: string }> =>
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
  const url = useBlobUrl(query.data?.blob);
  return { url, isError: query.isError, isPending: enabled && query.isPending };
}

/** Sizes are shown by the one formatter of the app. */
export { formatSize } from '../../lib/format-size';
