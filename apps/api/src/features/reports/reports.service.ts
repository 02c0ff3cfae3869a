import { createReadStream } from 'node:fs';
import { mkdir, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { PassThrough } from 'node:stream';
import { clinicToday } from '@odontia/shared/clinic-time';
import type { Currency } from '@odontia/shared/enums';
import {
  linkedReportIds,
  type ReportCatalogueEntry,
  type ReportExport,
  type ReportExportBody,
  type ReportFormat,
  type ReportId,
  type ReportQuery,
  type ReportRequest,
  type ReportRow,
  reportDirectExportMaxRows,
  reportFormats,
  reportIds,
  reportPdfMaxRows,
} from '@odontia/shared/schemas/reports';
import { and, eq } from 'drizzle-orm';
import type { RequestContext } from '../../context.ts';
import type { Database } from '../../db/client.ts';
import { loadPrintHeader, readerOf } from '../../db/clinic-print-header.ts';
import { reportExports } from '../../db/schema/index.ts';
import type { TenantTx } from '../../db/tenancy.ts';
import { AppError } from '../../lib/app-error.ts';
import type { FileStorage } from '../../lib/file-storage.ts';
import { newId } from '../../lib/ids.ts';
import { printLanguage } from '../../lib/pdf.ts';
import { clinicCurrency } from '../current-accounts/customer-accounts.repository.ts';
import { enqueueJob } from '../jobs/jobs.repository.ts';
import type { JobHandler } from '../jobs/jobs.worker.ts';
import { appendToSpool, exportJob, resumeSpool } from './export-job.ts';
import { collect, contentTypes, fileNameOf, reportFileWriter } from './report-files.ts';
import {
  type ReportDefinition,
  reportChunk,
  reportDefinitions,
  reportPage,
  reportRows,
  reportTotals,
  sumRows,
} from './reports.repository.ts';

/**
 * Reports (issue 19; docs/decisions.md "Reports (issue 19)"): the catalogue, a page with the
 * period's totals, a small report as a file at once, and a large one as an export job written in
 * chunks (each chunk one short transaction that moves the export's progress).
 */

type Clinic = { tx: TenantTx; accountId: string };

export const reportExportJobKind = 'report_export';

const reportExportJob = exportJob({ table: reportExports, kind: reportExportJobKind });

const requestOf = (ctx: RequestContext, input: Omit<ReportRequest, 'asOf'>): ReportRequest => ({
  asOf: clinicToday(ctx.timeZone),
  timeZone: ctx.timeZone,
  from: input.from,
  to: input.to,
  ...(input.method ? { method: input.method } : {}),
  ...(input.professionalId ? { professionalId: input.professionalId } : {}),
  ...(input.registerId ? { registerId: input.registerId } : {}),
});

export function catalogue(): ReportCatalogueEntry[] {
  return [
    ...reportIds.map((id) => ({
      id,
      filters: reportDefinitions[id].filters,
      columns: reportDefinitions[id].columns,
      formats: [...reportFormats],
      period: reportDefinitions[id].period,
      endpoint: null,
    })),
    ...linkedReportIds.map((id) => ({
      id,
      filters: [],
      columns: [],
      formats: [],
      period: false,
      endpoint: '/api/sales/integrity',
    })),
  ];
}

async function head(ctx: Clinic & { userId: string }, reportId: ReportId, request: ReportRequest) {
  const reader = await readerOf(ctx);
  return {
    reportId,
    language: printLanguage(reader.readerLanguage),
    columns: reportDefinitions[reportId].columns,
    from: request.from,
    to: request.to,
    clinicName: reader.clinicName,
    currency: (await clinicCurrency(ctx)) as Currency,
    clinicContact: reader.clinicContact,
    clinic: await loadPrintHeader(ctx),
  };
}

function tooLarge(rows: number, maxRows: number): never {
  throw new AppError('report_export_too_large', { rows, maxRows });
}

export const reportsService = {
  async page({ ctx, reportId, query }: { ctx: RequestContext; reportId: ReportId; query: ReportQuery }) {
    const definition = reportDefinitions[reportId];
    const request = requestOf(ctx, query);
    const { rows, count, totals } = await reportPage(ctx, definition, request, query);
    const currency = (await clinicCurrency(ctx)) as Currency;
    return {
      data: { reportId, from: query.from, to: query.to, currency, columns: definition.columns, rows, totals },
      total: count,
      page: query.page,
      pageSize: query.pageSize,
    };
  },

  /** The whole report as a file, answered at once (409 report_export_too_large above the direct limit). */
  async file({
    ctx,
    reportId,
    query,
    format,
    directMaxRows = reportDirectExportMaxRows,
  }: {
    ctx: RequestContext;
    reportId: ReportId;
    query: ReportQuery;
    format: ReportFormat;
    /** REPORT_DIRECT_EXPORT_MAX_ROWS: at most `reportDirectExportMaxRows`. */
    directMaxRows?: number;
  }) {
    const definition = reportDefinitions[reportId];
    const request = requestOf(ctx, query);
    const maxRows = Math.min(directMaxRows, reportDirectExportMaxRows);
    const { count } = await reportTotals(ctx, definition, request);
    if (count > maxRows) tooLarge(count, maxRows);
    const { out, bytes } = collect();
    const writer = reportFileWriter(format, await head(ctx, reportId, request), out);
    const rows = await reportRows(ctx, definition, request, 0, maxRows);
    await writer.rows(rows);
    // The file's totals are the sum of the rows it holds, whatever was written since the count.
    await writer.finish(sumRows(definition, rows));
    return {
      bytes: await bytes,
      fileName: fileNameOf(reportId, query.from, query.to, format),
      contentType: contentTypes[format],
    };
  },

  async queueExport({ ctx, reportId, body }: { ctx: RequestContext; reportId: ReportId; body: ReportExportBody }) {
    const request = requestOf(ctx, body);
    if (body.format === 'pdf') {
      const { count } = await reportTotals(ctx, reportDefinitions[reportId], request);
      if (count > reportPdfMaxRows) tooLarge(count, reportPdfMaxRows);
    }
    const id = newId();
    await ctx.tx.insert(reportExports).values({
      accountId: ctx.accountId,
      id,
      reportId,
      format: body.format,
      params: request,
      fileName: fileNameOf(reportId, body.from, body.to, body.format),
      createdBy: ctx.userId,
    });
    await enqueueJob(ctx, { kind: reportExportJobKind, key: id, runAt: new Date(), payload: { exportId: id } });
    return { data: await findExport(ctx, id), code: 'report_export_queued' as const };
  },

  async getExport({ ctx, exportId }: { ctx: RequestContext; exportId: string }) {
    return { data: await findExport(ctx, exportId) };
  },

  /** The finished export's file (409 report_export_not_ready before, 410 report_export_expired once removed). */
  async exportFile({ ctx, exportId, keepDays }: { ctx: RequestContext; exportId: string; keepDays: number }) {
    const row = await findRow(ctx, exportId);
    if (row.state === 'expired') throw new AppError('report_export_expired', { keepDays });
    if (row.state !== 'done' || !row.storageKey) {
      throw new AppError('report_export_not_ready', { state: row.state });
    }
    return {
      storageKey: row.storageKey,
      fileName: row.fileName,
      contentType: contentTypes[row.format],
    };
  },
};

/** Removes the files of exports finished more than `keepDays` ago and marks them expired (every clinic's). */
export function sweepReportExports(db: Pick<Database, 'withSystem'>, storage: FileStorage, keepDays: number) {
  return reportExportJob.sweep(db, storage, keepDays);
}

async function findRow(ctx: Clinic, exportId: string) {
  const [row] = await ctx.tx
    .select()
    .from(reportExports)
    .where(and(eq(reportExports.accountId, ctx.accountId), eq(reportExports.id, exportId)));
  if (!row) throw new AppError('report_export_not_found');
  return row;
}

async function findExport(ctx: Clinic, exportId: string): Promise<ReportExport> {
  const row = await findRow(ctx, exportId);
  const params = row.params as ReportRequest;
  return {
    id: row.id,
    reportId: row.reportId as ReportId,
    format: row.format,
    from: params.from,
    to: params.to,
    state: row.state,
    progress: row.progress,
    rowsWritten: row.rowsWritten,
    totalRows: row.totalRows,
    fileName: row.fileName,
    byteSize: row.byteSize,
    createdAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}

/**
 * The export job. Each run writes the next `chunkRows` rows (in the report's order) to the
 * export's spool (DATA_DIR/exports/.spool/<id>.ndjson, one JSON row a line), records how far it got
 * — rows, spooled bytes, progress — and queues the next run, all in the job's transaction, so the
 * screen sees the progress move and a run that fails is retried from the last committed chunk
 * (the spool is cut back to the recorded length first). The last run turns the spool into the
 * file (CSV, XLSX, PDF), streaming it into the storage, and the export is done.
 */
export function reportExportHandler({
  db,
  storage,
  spoolDir,
  chunkRows,
}: {
  /** Where a chunk's rows are read: the read replica when there is one (a second of lag is fine). */
  db: Pick<Database, 'withTenantRead' | 'hasReplica'>;
  storage: FileStorage;
  spoolDir: string;
  chunkRows: number;
}): JobHandler {
  const spoolOf = (exportId: string) => path.join(spoolDir, `${exportId}.ndjson`);

  return reportExportJob.handler(spoolOf, async (ctx, { exportId, row, update, next, finish }) => {
    const reportId = row.reportId as ReportId;
    const definition: ReportDefinition = reportDefinitions[reportId];
    const request = row.params as ReportRequest;
    const spool = spoolOf(exportId);
    await mkdir(spoolDir, { recursive: true });
    await resumeSpool(spool, row.spoolBytes);

    const totalRows = row.totalRows ?? (await reportTotals(ctx, definition, request)).count;
    // The rows from the read replica when there is one (its own read-only transaction), else in the
    // job's transaction (PGlite has one connection: a second transaction would wait for this one).
    const readChunk = (tx: TenantTx) =>
      reportChunk(
        { tx, accountId: ctx.accountId },
        definition,
        request,
        { offset: row.rowsWritten, cursor: (row.cursor as string[] | null) ?? null },
        chunkRows,
      );
    const { rows, cursor } = db.hasReplica
      ? await db.withTenantRead(ctx.accountId, undefined, readChunk)
      : await readChunk(ctx.tx);
    if (rows.length > 0) await appendToSpool(spool, rows.map((line) => `${JSON.stringify(line)}\n`).join(''));
    const rowsWritten = row.rowsWritten + rows.length;
    const finished = rows.length < chunkRows || rowsWritten >= totalRows;
    if (!finished) {
      await update({
        state: 'running',
        totalRows,
        rowsWritten,
        cursor,
        spoolBytes: (await stat(spool)).size,
        progress: Math.min(99, Math.floor((rowsWritten * 100) / Math.max(totalRows, 1))),
      });
      await next();
      return;
    }

    const fileHead = await head({ ...ctx, userId: row.createdBy }, reportId, request);
    const out = new PassThrough();
    const stored = storage.put(out);
    const writer = reportFileWriter(row.format, fileHead, out);
    const lines = createInterface({ input: createReadStream(spool), crlfDelay: Infinity });
    // The file's totals are the sum of its rows (rows written while the export ran are in it or not,
    // never half): summed as they stream by.
    let batch: ReportRow[] = [];
    let totals = sumRows(definition, []);
    const write = async () => {
      totals = sumRows(definition, [totals, ...batch]);
      await writer.rows(batch);
      batch = [];
    };
    for await (const line of lines) {
      if (line === '') continue;
      batch.push(JSON.parse(line) as ReportRow);
      if (batch.length >= 1000) await write();
    }
    await write();
    await writer.finish(totals);
    await finish(await stored, { totalRows: rowsWritten, rowsWritten });
    await unlink(spool).catch(() => undefined);
  });
}
