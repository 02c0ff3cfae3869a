import { importRoutes } from '@odontia/shared/routes/imports';
import type {
  ImportEncoding,
  ImportKind,
  ImportMapping,
  ImportOutcome,
  ImportPhase,
  ImportRun,
} from '@odontia/shared/schemas/imports';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { CallAnswer } from '../../lib/api-client';
import { apiClient } from '../../lib/api-client';
import { toastApiError, toastSuccess } from '../../lib/api-toast';
import { http } from '../../lib/http';
import { queryClient } from '../../lib/query-client';
import { saveFile } from '../../lib/save-file';
import { useAction } from '../../lib/use-action';

/**
 * Administración › Importar datos (issue 42): upload a file, map its columns, check it (a dry run
 * in a background job), import it (another job), read each row's outcome. The run lives on the
 * server, so Back, a reload or another tab never lose a step.
 */
const client = apiClient(importRoutes);
const importsKey = ['imports'] as const;
const runKey = (id: string) => [...importsKey, 'run', id] as const;

/** A pass is running: the screen asks again every second. */
export const isRunning = (run: Pick<ImportRun, 'state'>) => run.state === 'checking' || run.state === 'importing';

export function useImports(page: number, pageSize: number) {
  return useQuery({
    queryKey: [...importsKey, 'list', page, pageSize],
    queryFn: () => client.list({ query: { page, pageSize }, background: true }),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.data.some(isRunning) ? 1000 : false),
  });
}

export function useImportRun(importId: string) {
  return useQuery({
    queryKey: runKey(importId),
    queryFn: () => client.get({ params: { importId }, background: true }),
    refetchInterval: (query) => (query.state.data && isRunning(query.state.data.data) ? 1000 : false),
  });
}

/** The header, the first rows and the suggested mapping, read in `encoding`. */
export function useImportPreview(importId: string, encoding: ImportEncoding | null) {
  return useQuery({
    queryKey: [...runKey(importId), 'preview', encoding],
    queryFn: () => client.preview({ params: { importId }, query: encoding ? { encoding } : {} }),
    placeholderData: keepPreviousData,
  });
}

export function useImportRows(
  importId: string,
  phase: ImportPhase,
  outcome: ImportOutcome | '',
  page: number,
  pageSize: number,
  enabled: boolean,
) {
  return useQuery({
    queryKey: [...runKey(importId), 'rows', phase, outcome, page, pageSize],
    queryFn: () =>
      client.rows({ params: { importId }, query: { phase, page, pageSize, ...(outcome ? { outcome } : {}) } }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export interface UploadInput {
  kind: ImportKind;
  source: string;
  file: File;
}

/** The upload is multipart (`http.upload`: the typed client sends JSON), to the declared route. */
export function useUploadImport(onProgress: (fraction: number) => void) {
  return useAction({
    mutationFn: ({ kind, source, file }: UploadInput) => {
      const form = new FormData();
      // The server reads `kind` and `source` before the file.
      form.append('kind', kind);
      form.append('source', source);
      form.append('file', file, file.name);
      return http.upload<CallAnswer<typeof importRoutes.upload>>(importRoutes.upload.path.slice(1), form, {
        onProgress: (sent, total) => onProgress(total > 0 ? sent / total : 0),
      });
    },
    onSuccess: async (answer) => {
      if (answer.code) toastSuccess(answer.code);
      await queryClient.invalidateQueries({ queryKey: importsKey });
    },
  });
}

const storeRun = async (answer: { data: ImportRun; code?: string | undefined }) => {
  // The preview proposes the run's own mapping once it has one: the cached suggestion is gone.
  queryClient.removeQueries({ queryKey: [...runKey(answer.data.id), 'preview'] });
  queryClient.setQueryData(runKey(answer.data.id), { data: answer.data });
  await queryClient.invalidateQueries({ queryKey: importsKey, refetchType: 'none' });
};

export function useCheckImport(importId: string) {
  return useAction({
    mutationFn: (body: { encoding: ImportEncoding; mapping: ImportMapping }) =>
      client.check({ params: { importId }, body }),
    onSuccess: storeRun,
  });
}

export function useRunImport(importId: string) {
  return useAction({
    mutationFn: (_: undefined, idempotencyKey: string) => client.run({ params: { importId }, idempotencyKey }),
    onSuccess: async (answer) => {
      if (answer.code) toastSuccess(answer.code);
      await storeRun(answer);
    },
    onError: toastApiError,
  });
}

export async function downloadTemplate(kind: ImportKind): Promise<void> {
  const file = await client.template({ params: { kind } });
  saveFile(file.blob, file.fileName ?? `plantilla-${kind}.csv`);
}

export async function downloadRefused(importId: string): Promise<void> {
  const file = await client.refused({ params: { importId } });
  saveFile(file.blob, file.fileName ?? 'rechazadas.csv');
}
