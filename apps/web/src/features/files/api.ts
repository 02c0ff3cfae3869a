import type { Page } from '@odontia/shared/schemas/common';
import type {
  PatientFile,
  PatientFileType,
  UpdatePatientFileRequest,
  UploadFileEntry,
  UploadLimits,
} from '@odontia/shared/schemas/files';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { http } from '../../lib/http';
import { queryClient } from '../../lib/query-client';

const enc = encodeURIComponent;
const collection = (patientId: string) => `patients/${enc(patientId)}/files`;
const one = (patientId: string, id: string) => `${collection(patientId)}/${enc(id)}`;

export const filesApi = {
  limits: () => http.get<UploadLimits>('files/limits'),
  list: (patientId: string, page: number, pageSize: number, fileType: PatientFileType | '') =>
    http.get<Page<PatientFile>>(
      `${collection(patientId)}?page=${page}&pageSize=${pageSize}${fileType ? `&fileType=${fileType}` : ''}`,
    ),
  upload: (patientId: string, files: File[], metadata: UploadFileEntry[], onProgress?: (fraction: number) => void) => {
    const form = new FormData();
    // First, so the server reads it before the files (it accepts it anywhere).
    form.append('metadata', JSON.stringify(metadata));
    for (const file of files) form.append('files', file, file.name);
    return http.upload<{ data: PatientFile[]; code: string }>(collection(patientId), form, {
      onProgress: (sent, total) => onProgress?.(total > 0 ? sent / total : 0),
    });
  },
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

export function usePatientFiles(patientId: string, page: number, pageSize: number, fileType: PatientFileType | '') {
  return useQuery({
    queryKey: [...filesKey, patientId, 'list', page, pageSize, fileType],
    queryFn: () => filesApi.list(patientId, page, pageSize, fileType),
    placeholderData: keepPreviousData,
  });
}

const refreshList = (patientId: string) =>
  queryClient.invalidateQueries({ queryKey: [...filesKey, patientId, 'list'] });

export function useUploadFiles(patientId: string) {
  return useMutation({
    mutationFn: (input: { files: File[]; metadata: UploadFileEntry[]; onProgress?: (fraction: number) => void }) =>
      filesApi.upload(patientId, input.files, input.metadata, input.onProgress),
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
