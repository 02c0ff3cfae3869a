import { createReadStream } from 'node:fs';
import { mkdir, open, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import type { ClinicExport } from '@odontia/shared/schemas/clinic-export';
import { sql } from 'drizzle-orm';
import { ZipFile } from 'yazl';
import type { RequestContext, TxContext } from '../../context.ts';
import type { Database } from '../../db/client.ts';
import { clinicExports } from '../../db/schema/index.ts';
import { AppError } from '../../lib/app-error.ts';
import type { FileStorage } from '../../lib/file-storage.ts';
import { newId } from '../../lib/ids.ts';
import { audit } from '../audit/audit.repository.ts';
import { enqueueJob } from '../jobs/jobs.repository.ts';
import { type JobHandler, nudgeJobs } from '../jobs/jobs.worker.ts';
import { appendToSpool, digestedEntry, exportJob, resumeSpool } from '../reports/export-job.ts';
import {
  type ClinicExportRow,
  clinicTables,
  type ExportTable,
  excludedColumnPatterns,
  excludedTables,
  filesAfter,
  findExport,
  pageExports,
  tableChunk,
  unfinishedExport,
} from './clinic-export.repository.ts';

/**
 * The clinic's full export (issue 42; docs/api.md "Exportar todos los datos"). An administrator
 * asks for it; a job writes every clinic table as JSON lines, a chunk of rows at a time (each run
 * one short transaction that spools the rows to DATA_DIR/exports/.spool/<id>/ and moves the
 * progress), then streams the ZIP — README.md (what it is, the data dictionary), tables/*.jsonl,
 * files/ (the uploaded files), manifest.json (SHA-256 and size of every other entry) — into the
 * exports storage. Memory stays bounded: rows by keyset chunks, files and spools as streams.
 */

export const clinicExportJobKind = 'clinic_export';

const clinicExportJob = exportJob({ table: clinicExports, kind: clinicExportJobKind });

/** Rows a run writes at most before it hands over to the next run (the progress moves between). */
interface Cursor {
  tables: string[];
  index: number;
  after: string[] | null;
  tableRows: number;
}

const dayMs = 86_400_000;

function present(found: ClinicExportRow, keepDays: number): ClinicExport {
  const { row } = found;
  return {
    id: row.id,
    state: row.state,
    progress: row.progress,
    tablesWritten: row.tablesWritten,
    tableCount: row.tableCount,
    rowsWritten: row.rowsWritten,
    filesWritten: row.filesWritten,
    fileName: row.fileName,
    byteSize: row.byteSize,
    createdAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
    expiresAt:
      row.state === 'done' && row.finishedAt
        ? new Date(row.finishedAt.getTime() + keepDays * dayMs).toISOString()
        : null,
    createdByName: found.createdByName,
  };
}

async function foundExport(ctx: TxContext, id: string) {
  const found = await findExport(ctx, id);
  if (!found) throw new AppError('clinic_export_not_found');
  return found;
}

export function createClinicExportService({ keepDays }: { keepDays: number }) {
  return {
    async list({ ctx, query }: { ctx: RequestContext; query: { page: number; pageSize: number } }) {
      const { rows, total } = await pageExports(ctx, query);
      return { data: rows.map((row) => present(row, keepDays)), total, page: query.page, pageSize: query.pageSize };
    },

    async get({ ctx, exportId }: { ctx: RequestContext; exportId: string }) {
      return { data: present(await foundExport(ctx, exportId), keepDays) };
    },

    /** Queues the export (409 clinic_export_running while another one of the clinic is unfinished). */
    async create({ ctx }: { ctx: RequestContext }) {
      await ctx.tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`clinic-export:${ctx.accountId}`}, 0))`);
      const running = await unfinishedExport(ctx);
      if (running) throw new AppError('clinic_export_running', { exportId: running });
      const id = newId();
      const stamp = new Date().toISOString().slice(0, 10);
      await ctx.tx.insert(clinicExports).values({
        accountId: ctx.accountId,
        id,
        fileName: `odontia-export-${stamp}.zip`,
        createdBy: ctx.userId,
      });
      await enqueueJob(ctx, { kind: clinicExportJobKind, key: id, runAt: new Date(), payload: { exportId: id } });
      await audit(ctx, { action: 'clinic_export_requested', entity: 'clinic_export', entityId: id });
      nudgeJobs();
      return { data: present(await foundExport(ctx, id), keepDays), code: 'clinic_export_queued' as const };
    },

    /** The finished export's storage key (409 before it is done, 410 once removed); audited as downloaded. */
    async file({ ctx, exportId }: { ctx: RequestContext; exportId: string }) {
      const { row } = await foundExport(ctx, exportId);
      if (row.state === 'expired') throw new AppError('clinic_export_expired', { keepDays });
      if (row.state !== 'done' || !row.storageKey) throw new AppError('clinic_export_not_ready', { state: row.state });
      await audit(ctx, { action: 'clinic_export_downloaded', entity: 'clinic_export', entityId: exportId });
      return { storageKey: row.storageKey, fileName: row.fileName };
    },
  };
}

/** The README of the ZIP: what it holds, what is left out and why, and every table's columns with their types. */
export function readmeOf(tables: ExportTable[], exportedAt: string): string {
  const lines = [
    '# Exportación completa de la clínica / Clinic full export (Odontia)',
    '',
    `Exportado / exported: ${exportedAt}`,
    '',
    '- `tables/<tabla>.jsonl`: una fila por línea, JSON, con sus columnas por nombre (fechas ISO 8601 en UTC,',
    '  importes como texto decimal, bytes como `\\x…` hexadecimal). One row per line.',
    '- `files/<id del archivo>/<nombre original>`: los archivos subidos de los pacientes (tabla `patient_files`).',
    '- `manifest.json`: SHA-256 y tamaño de cada otra entrada del ZIP.',
    '',
    '## Excluido / left out',
    '',
    ...Object.entries(excludedTables).map(([table, why]) => `- tabla \`${table}\`: ${why}`),
    ...excludedColumnPatterns.map(({ pattern, why }) => `- columnas \`${pattern.source}\`: ${why}`),
    '- columnas generadas (p. ej. `search_text`): se derivan de las demás.',
    '',
    '## Diccionario de datos / data dictionary',
    '',
  ];
  for (const table of tables) {
    lines.push(`### ${table.name}`, '');
    if (table.key.length > 0) lines.push(`Clave / key: ${table.key.map((column) => column.name).join(', ')}`, '');
    lines.push('| columna | tipo |', '|---|---|');
    for (const column of table.columns) lines.push(`| ${column.name} | ${column.type} |`);
    if (table.excluded.length > 0) lines.push('', `Excluidas / left out: ${table.excluded.join(', ')}`);
    lines.push('');
  }
  return lines.join('\n');
}

/** A ZIP entry's name for an uploaded file: its id and its original name, made safe. */
const fileEntryName = (id: string, originalName: string) =>
  `files/${id}/${
    originalName
      .normalize('NFC')
      .replace(/[\\/:*?"<>|]/g, '_')
      .replace(/\p{Cc}/gu, '_')
      .slice(0, 120) || 'file'
  }`;

/**
 * The export job. Each run spools up to `chunkRows` rows (one table after the other, each in its
 * primary key's order) and queues the next run; the last run writes the ZIP. A run that fails is
 * retried from the last committed chunk (the current table's spool cut back to its recorded length).
 */
export function clinicExportHandler({
  storage,
  uploads,
  spoolDir,
  chunkRows,
}: {
  storage: FileStorage;
  uploads: FileStorage;
  spoolDir: string;
  chunkRows: number;
}): JobHandler {
  const dirOf = (exportId: string) => path.join(spoolDir, exportId);
  const spoolOf = (exportId: string, table: string) => path.join(dirOf(exportId), `${table}.jsonl`);

  return clinicExportJob.handler(dirOf, async (ctx, { exportId, row, update, next, finish }) => {
    const catalogue = await clinicTables(ctx.tx);
    const byName = new Map(catalogue.map((table) => [table.name, table]));
    const cursor: Cursor = (row.cursor as Cursor | null) ?? {
      tables: catalogue.map((table) => table.name),
      index: 0,
      after: null,
      tableRows: 0,
    };
    await mkdir(dirOf(exportId), { recursive: true });

    if (cursor.index < cursor.tables.length) {
      let budget = chunkRows;
      let rowsWritten = row.rowsWritten;
      let spoolBytes = row.spoolBytes;
      let tablesWritten = row.tablesWritten;
      while (budget > 0 && cursor.index < cursor.tables.length) {
        const name = cursor.tables[cursor.index] as string;
        const table = byName.get(name);
        if (!table) throw new Error(`table ${name} is gone`);
        const spool = spoolOf(exportId, name);
        await resumeSpool(spool, spoolBytes);
        const { lines, last } = await tableChunk(ctx, table, cursor.after, budget);
        if (lines.length > 0) await appendToSpool(spool, `${lines.join('\n')}\n`);
        budget -= lines.length;
        rowsWritten += lines.length;
        cursor.tableRows += lines.length;
        if (lines.length > 0 && budget === 0 && table.key.length > 0) {
          cursor.after = last;
          spoolBytes = (await stat(spool)).size;
        } else {
          cursor.index += 1;
          cursor.after = null;
          cursor.tableRows = 0;
          spoolBytes = 0;
          tablesWritten += 1;
        }
      }
      await update({
        state: 'running',
        cursor,
        spoolBytes,
        rowsWritten,
        tablesWritten,
        tableCount: cursor.tables.length,
        progress: Math.min(95, Math.floor((tablesWritten * 95) / Math.max(cursor.tables.length, 1))),
      });
      await next();
      nudgeJobs();
      return;
    }

    // The last run: the ZIP, streamed into the storage; each entry digested as it passes.
    const zip = new ZipFile();
    const manifest: { path: string; sha256: string; bytes: number }[] = [];
    const digests: Promise<void>[] = [];
    const addStream = (entry: string, open: () => Promise<NodeJS.ReadableStream>) => {
      let settle: () => void = () => undefined;
      let fail: (error: unknown) => void = () => undefined;
      digests.push(
        new Promise<void>((resolve, reject) => {
          settle = resolve;
          fail = reject;
        }),
      );
      zip.addReadStreamLazy(entry, { compress: true }, (callback) => {
        open().then(
          (source) => {
            const { stream, digest } = digestedEntry(source);
            digest.then(({ sha256, sizeBytes }) => {
              manifest.push({ path: entry, sha256, bytes: sizeBytes });
              settle();
            }, fail);
            callback(null, stream);
          },
          (error: unknown) => {
            fail(error);
            callback(error as Error, undefined as never);
          },
        );
      });
    };
    const exportedAt = new Date().toISOString();
    const tables = cursor.tables.map((name) => byName.get(name)).filter((table) => table !== undefined);
    const readme = Buffer.from(readmeOf(tables, exportedAt), 'utf8');
    addStream('README.md', async () => Readable.from([readme]));
    for (const table of tables) {
      const spool = spoolOf(exportId, table.name);
      await open(spool, 'a').then((file) => file.close());
      addStream(`tables/${table.name}.jsonl`, async () => createReadStream(spool));
    }
    let filesWritten = 0;
    const missing: string[] = [];
    for (let after: string | null = null; ; ) {
      const page = await filesAfter(ctx, after, 500);
      for (const file of page) {
        if (!(await uploads.exists(file.storageKey))) {
          missing.push(file.id);
          continue;
        }
        filesWritten += 1;
        addStream(fileEntryName(file.id, file.originalName), () => uploads.open(file.storageKey));
      }
      if (page.length < 500) break;
      after = page.at(-1)?.id ?? null;
    }
    const manifestStream = new PassThrough();
    zip.addReadStream(manifestStream, 'manifest.json');
    zip.end();
    const output = zip.outputStream as unknown as Readable;
    const stored = storage.put(output);
    // A failed entry (a file unreadable) fails the run: the partial ZIP is dropped, the run retried.
    stored.catch(() => undefined);
    try {
      await Promise.all(digests);
    } catch (error) {
      output.destroy(error as Error);
      throw error;
    }
    manifestStream.end(
      JSON.stringify(
        {
          format: 'odontia-clinic-export/1',
          accountId: ctx.accountId,
          exportId,
          exportedAt,
          tables: tables.map((table) => table.name),
          missingFiles: missing,
          entries: manifest,
        },
        null,
        2,
      ),
    );
    await finish(await stored, { cursor: null, spoolBytes: 0, filesWritten });
    await rm(dirOf(exportId), { recursive: true, force: true });
  });
}

/** Removes the files of exports finished more than `keepDays` ago and marks them expired (every clinic's). */
export function sweepClinicExports(db: Pick<Database, 'withSystem'>, storage: FileStorage, keepDays: number) {
  return clinicExportJob.sweep(db, storage, keepDays);
}
