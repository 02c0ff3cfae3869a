import { reportRoutes } from '@odontia/shared/routes/reports';
import type { ReportExport, ReportFilter, ReportFormat, ReportId } from '@odontia/shared/schemas/reports';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiClient, type CallInput } from '../../lib/api-client';
import { isApiError } from '../../lib/http';
import { saveFile } from '../../lib/save-file';

/** The reports' reads (issue 19): the catalogue, a page of a report, its exports. */

export const reportsKey = ['reports'] as const;

/** What a report is asked for: the period and its filters (as in the screen's URL). */
export interface ReportParams {
  from: string;
  to: string;
  filters: Partial<Record<ReportFilter, string>>;
}

const reportsApi = apiClient(reportRoutes);

/** A report's filters as its routes take them. */
type Filters = Pick<CallInput<typeof reportRoutes.queueExport>['body'], ReportFilter>;

/**
 * The period and its filters as the report's query (blank filters are left out by the client).
 * The filters come from the screen's URL as text: the server checks them.
 */
const queryOf = ({ from, to, filters }: ReportParams) => ({ from, to, ...(filters as Filters) });

export function useReportCatalogue() {
  return useQuery({
    queryKey: [...reportsKey, 'catalogue'],
    queryFn: () => reportsApi.catalogue().then((answer) => answer.data),
    staleTime: 10 * 60_000,
  });
}

export function useReportPage(reportId: ReportId, params: ReportParams, page: number, pageSize: number) {
  const query = { ...queryOf(params), page, pageSize };
  return useQuery({
    queryKey: [...reportsKey, reportId, query],
    queryFn: () => reportsApi.page({ params: { reportId }, query }),
    placeholderData: keepPreviousData,
  });
}

/**
 * Exports a report: the file at once when the server answers it (saved by the browser), else —
 * 409 report_export_too_large, more rows than a direct answer holds — a background export is
 * started and returned for the screen to follow.
 */
export async function exportReport(
  reportId: ReportId,
  params: ReportParams,
  format: ReportFormat,
): Promise<{ started: ReportExport } | { saved: true }> {
  try {
    const file = await reportsApi.file({ params: { reportId }, query: { ...queryOf(params), format } });
    saveFile(file.blob, file.fileName ?? `${reportId}-${params.from}-${params.to}.${format}`);
    return { saved: true };
  } catch (error) {
    if (!isApiError(error) || error.code !== 'report_export_too_large') throw error;
    const body = { ...queryOf(params), format };
    for (const name of Object.keys(body) as (keyof typeof body)[]) if (body[name] === '') delete body[name];
    const answer = await reportsApi.queueExport({ params: { reportId }, body });
    return { started: answer.data };
  }
}

const finished = (state: ReportExport['state'] | undefined) => state === 'done' || state === 'failed';

/** A background export, asked again every second until it is done or failed. */
export function useReportExport(exportId: string | null) {
  return useQuery({
    queryKey: [...reportsKey, 'exports', exportId],
    queryFn: () =>
      reportsApi.export({ params: { exportId: exportId ?? '' }, background: true }).then((answer) => answer.data),
    enabled: Boolean(exportId),
    refetchInterval: (query) => (finished(query.state.data?.state) ? false : 1000),
  });
}

/** A finished export's file, saved by the browser. */
export async function downloadExport(done: ReportExport): Promise<void> {
  const file = await reportsApi.exportFile({ params: { exportId: done.id } });
  saveFile(file.blob, file.fileName ?? done.fileName);
}
