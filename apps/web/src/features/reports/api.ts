import type {
  ReportCatalogueEntry,
  ReportExport,
  ReportFilter,
  ReportFormat,
  ReportId,
  ReportPage,
} from '@odontia/shared/schemas/reports';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { http, isApiError } from '../../lib/http';
import { saveFile } from '../../lib/save-file';

/** The reports' reads (issue 19): the catalogue, a page of a report, its exports. */

export const reportsKey = ['reports'] as const;

/** What a report is asked for: the period and its filters (as in the screen's URL). */
export interface ReportParams {
  from: string;
  to: string;
  filters: Partial<Record<ReportFilter, string>>;
}

function searchOf({ from, to, filters }: ReportParams, more: Record<string, string> = {}): URLSearchParams {
  const search = new URLSearchParams({ from, to });
  for (const [name, value] of Object.entries(filters)) if (value) search.set(name, value);
  for (const [name, value] of Object.entries(more)) search.set(name, value);
  return search;
}

export function useReportCatalogue() {
  return useQuery({
    queryKey: [...reportsKey, 'catalogue'],
    queryFn: () => http.get<{ data: ReportCatalogueEntry[] }>('reports').then((answer) => answer.data),
    staleTime: 10 * 60_000,
  });
}

export function useReportPage(reportId: ReportId, params: ReportParams, page: number, pageSize: number) {
  const search = searchOf(params, { page: String(page), pageSize: String(pageSize) });
  return useQuery({
    queryKey: [...reportsKey, reportId, search.toString()],
    queryFn: () => http.get<ReportPage>(`reports/${reportId}?${search}`),
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
    const file = await http.download(`reports/${reportId}?${searchOf(params, { format })}`);
    saveFile(file.blob, file.fileName ?? `${reportId}-${params.from}-${params.to}.${format}`);
    return { saved: true };
  } catch (error) {
    if (!isApiError(error) || error.code !== 'report_export_too_large') throw error;
    const body = { from: params.from, to: params.to, format, ...params.filters };
    for (const name of Object.keys(body) as (keyof typeof body)[]) if (body[name] === '') delete body[name];
    const answer = await http.post<{ data: ReportExport }>(`reports/${reportId}/exports`, body);
    return { started: answer.data };
  }
}

const finished = (state: ReportExport['state'] | undefined) => state === 'done' || state === 'failed';

/** A background export, asked again every second until it is done or failed. */
export function useReportExport(exportId: string | null) {
  return useQuery({
    queryKey: [...reportsKey, 'exports', exportId],
    queryFn: () =>
      http
        .get<{ data: ReportExport }>(`reports/exports/${exportId}`, { background: true })
        .then((answer) => answer.data),
    enabled: Boolean(exportId),
    refetchInterval: (query) => (finished(query.state.data?.state) ? false : 1000),
  });
}

/** A finished export's file, saved by the browser. */
export async function downloadExport(done: ReportExport): Promise<void> {
  const file = await http.download(`reports/exports/${done.id}/file`);
  saveFile(file.blob, file.fileName ?? done.fileName);
}
