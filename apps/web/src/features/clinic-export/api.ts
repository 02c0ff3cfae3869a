import { clinicExportRoutes } from '@odontia/shared/routes/clinic-export';
import type { ClinicExport } from '@odontia/shared/schemas/clinic-export';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../lib/api-client';
import { toastApiError, toastSuccess } from '../../lib/api-toast';
import { queryClient } from '../../lib/query-client';
import { saveFile } from '../../lib/save-file';
import { useAction } from '../../lib/use-action';

/** The clinic's full export (issue 42): ask for it, follow its job, download its ZIP. */
const client = apiClient(clinicExportRoutes);
const exportsKey = ['clinic-exports'] as const;

const unfinished = (row: ClinicExport) => row.state === 'queued' || row.state === 'running';

/** The exports, newest first; asked again every second (in the background) while one is unfinished. */
export function useClinicExports(page: number, pageSize = 10) {
  return useQuery({
    queryKey: [...exportsKey, page, pageSize],
    queryFn: () => client.list({ query: { page, pageSize }, background: true }),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.data.some(unfinished) ? 1000 : false),
  });
}

export function useRequestClinicExport() {
  return useAction({
    mutationFn: (_: undefined, idempotencyKey: string) => client.create({ idempotencyKey }),
    onSuccess: async (answer) => {
      if (answer.code) toastSuccess(answer.code);
      await queryClient.invalidateQueries({ queryKey: exportsKey });
    },
    onError: toastApiError,
  });
}

export async function downloadClinicExport(row: ClinicExport): Promise<void> {
  const file = await client.file({ params: { exportId: row.id } });
  saveFile(file.blob, file.fileName ?? row.fileName);
}
