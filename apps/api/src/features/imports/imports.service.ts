import type { Readable } from 'node:stream';
import { Transform, type TransformCallback, finished as whenFinished } from 'node:stream';
import { finished } from 'node:stream/promises';
import type { Multipart } from '@fastify/multipart';
import { type Language, languages } from '@odontia/shared/languages';
import {
  type ImportCheckBody,
  type ImportEncoding,
  type ImportKind,
  type ImportPreview,
  type ImportRowsQuery,
  type ImportRun,
  importFields,
  importMaxBytes,
  importMaxRows,
  importRequiredFields,
  importTemplates,
  importUploadFieldsSchema,
} from '@odontia/shared/schemas/imports';
import { sql } from 'drizzle-orm';
import type { Actor, RequestContext } from '../../context.ts';
import type { Database } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { csvFile } from '../../lib/csv.ts';
import type { FileStorage } from '../../lib/file-storage.ts';
import { newId } from '../../lib/ids.ts';
import { fieldCodeText } from '../../lib/messages.ts';
import { multipartFailure } from '../../plugins/multipart.ts';
import { inTransaction } from '../../plugins/routes.ts';
import { audit } from '../audit/audit.repository.ts';
import { cleanFileName } from '../files/files.upload.ts';
import { enqueueJob } from '../jobs/jobs.repository.ts';
import type { ClaimedJob, JobHandler } from '../jobs/jobs.worker.ts';
import { importAppointmentsChunk } from './import-appointments.ts';
import { importBalancesChunk } from './import-balances.ts';
import { mappingFromSaved, normalizeHeader, savedColumns, suggestMapping } from './import-columns.ts';
import { detectDelimiter, EncodingSniffer, firstLineOf, formatOf, readRows } from './import-file.ts';
import { importInventoryChunk } from './import-inventory.ts';
import { type ChunkImporter, importPatientsChunk, type SourceRow } from './import-patients.ts';
import { importPriceListChunk } from './import-price-list.ts';
import { importProvidersChunk } from './import-providers.ts';
import * as repository from './imports.repository.ts';

/**
 * Importing data (issue 42; docs/decisions.md "Importar datos"): the upload streams the file to the
 * imports storage (size metered, encoding sniffed, rows counted), the preview reads its header and
 * first rows in an encoding, the dry run and the import are one job each, run in chunks of rows
 * (each chunk one transaction that records its rows' outcomes and moves the progress, so a crash
 * resumes from the last committed chunk, like the report exports).
 */

export const importJobKind = 'data_import';

/** The refused rows' CSV: its two first columns' headers in the clinic's language. */
const refusedHeaders: Record<Language, readonly [line: string, reasons: string]> = {
  es: ['Fila', 'Motivos'],
  en: ['Row', 'Reasons'],
  fr: ['Ligne', 'Motifs'],
  pt: ['Linha', 'Motivos'],
};

class SizeLimit extends Error {}

/** Passes bytes up to `limit`, sniffing the encoding and keeping the first bytes. */
class Meter extends Transform {
  seen = 0;
  head = Buffer.alloc(0);
  readonly sniffer = new EncodingSniffer();

  constructor(private readonly limit: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.seen += chunk.length;
    if (this.seen > this.limit) {
      callback(new SizeLimit());
      return;
    }
    if (this.head.length < 65_536) this.head = Buffer.concat([this.head, chunk.subarray(0, 65_536 - this.head.length)]);
    this.sniffer.push(chunk);
    callback(null, chunk);
  }
}

async function drain(stream: Readable): Promise<void> {
  stream.resume();
  await finished(stream).catch(() => undefined);
}

export function sourceKeyOf(source: string): string {
  return normalizeHeader(source) || source.trim().toLowerCase();
}

function present(row: repository.ImportRunRow): ImportRun {
  return {
    id: row.id,
    kind: row.kind,
    source: row.source,
    fileName: row.fileName,
    byteSize: row.byteSize,
    format: row.format,
    detectedEncoding: row.detectedEncoding,
    encoding: row.encoding,
    mapping: row.mapping ?? null,
    state: row.state,
    phase: row.phase ?? null,
    progress: row.progress,
    rowsDone: row.rowsDone,
    totalRows: row.totalRows,
    counts: { created: row.created, updated: row.updated, unchanged: row.unchanged, refused: row.refused },
    createdAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}

async function requireRun(ctx: RequestContext, id: string, lock = false) {
  const row = await repository.findRun(ctx, id, lock);
  if (!row) throw new AppError('import_not_found');
  return row;
}

/** Each kind's reader of a chunk of rows (the dry run and the import alike). */
const chunkImporters: Record<ImportKind, ChunkImporter> = {
  patients: importPatientsChunk,
  providers: importProvidersChunk,
  priceList: importPriceListChunk,
  inventory: importInventoryChunk,
  balances: importBalancesChunk,
  appointments: importAppointmentsChunk,
};

export function createImportsService({
  db,
  storage,
  chunkRows,
}: {
  db: Database;
  storage: FileStorage;
  chunkRows: number;
}) {
  const optionsOf = (row: Pick<repository.ImportRunRow, 'format' | 'delimiter'>, encoding: ImportEncoding) => ({
    format: row.format,
    encoding,
    delimiter: row.delimiter,
  });

  /** The header and the first rows of a stored file. */
  async function head(row: repository.ImportRunRow, encoding: ImportEncoding, rows = 5) {
    if (!row.storageKey) return { columns: [], sample: [] };
    const read: string[][] = [];
    for await (const cells of readRows(await storage.open(row.storageKey), optionsOf(row, encoding))) {
      read.push(cells);
      if (read.length > rows) break;
    }
    const [columns = [], ...sample] = read;
    return { columns, sample };
  }

  async function previewOf(
    ctx: RequestContext,
    row: repository.ImportRunRow,
    encoding: ImportEncoding,
  ): Promise<ImportPreview> {
    const { columns, sample } = await head(row, encoding);
    const saved = await repository.findSavedMapping(ctx, row.sourceKey, row.kind);
    const fromSaved = saved ? mappingFromSaved(row.kind, saved, columns) : null;
    const useSaved = fromSaved !== null && Object.keys(fromSaved).length > 0;
    // The saved columns found in this file, and the headers' suggestion for the fields they miss.
    const suggested = { ...suggestMapping(row.kind, columns), ...(useSaved ? fromSaved : {}) };
    return {
      run: present(row),
      columns,
      sample,
      encoding,
      suggestedMapping: row.mapping ?? suggested,
      mappingFrom: useSaved && !row.mapping ? 'saved' : 'headers',
      fields: importFields[row.kind].map((field) => ({
        field,
        required: importRequiredFields[row.kind].includes(field),
      })),
    };
  }

  return {
    /** Multipart: `kind`, `source`, then `file`. 413 import_file_too_large, 422 import_too_many_rows, 400 import_file_unreadable. */
    async upload({ actor, parts }: { actor: Actor; parts: () => AsyncIterable<Multipart> }) {
      const fields: Record<string, string> = {};
      let received: { key: string; sizeBytes: number; fileName: string; meter: Meter } | undefined;
      let refusal: AppError | undefined;
      try {
        for await (const part of parts()) {
          if (part.type === 'field') {
            if (typeof part.value === 'string') fields[part.fieldname] = part.value;
            continue;
          }
          if (received || refusal || part.fieldname !== 'file') {
            await drain(part.file);
            continue;
          }
          const meter = new Meter(importMaxBytes);
          meter.on('error', () => undefined);
          let requestFailure: unknown;
          const stopWatching = whenFinished(part.file, (error) => {
            if (!error) return;
            requestFailure = error;
            meter.destroy(error);
          });
          part.file.pipe(meter);
          try {
            const stored = await storage.put(meter);
            received = { key: stored.key, sizeBytes: stored.sizeBytes, fileName: cleanFileName(part.filename), meter };
          } catch (error) {
            part.file.unpipe(meter);
            if (requestFailure !== undefined) throw multipartFailure(requestFailure);
            await drain(part.file);
            if (error instanceof SizeLimit) {
              refusal = new AppError('import_file_too_large', { maxMb: Math.round(importMaxBytes / 1024 / 1024) });
            } else throw error;
          } finally {
            stopWatching();
          }
        }
      } catch (error) {
        if (received) await storage.remove(received.key).catch(() => undefined);
        throw multipartFailure(error);
      }
      if (refusal) throw refusal;
      const file = received;
      if (!file || file.sizeBytes === 0) {
        if (file) await storage.remove(file.key).catch(() => undefined);
        throw new AppError('import_file_unreadable');
      }
      try {
        const parsed = importUploadFieldsSchema.safeParse(fields);
        if (!parsed.success) {
          throw new AppError('validation_error', {
            fields: parsed.error.issues.map((issue) => ({ path: String(issue.path[0]), code: 'invalid_value' })),
          });
        }
        const format = formatOf(file.meter.head);
        const encoding = format === 'xlsx' ? 'utf-8' : file.meter.sniffer.result();
        const delimiter = format === 'csv' ? detectDelimiter(firstLineOf(file.meter.head, encoding)) : ',';
        // Every row counted once now: a file that cannot be read, or too long, is refused at once.
        let rows = -1;
        for await (const _cells of readRows(await storage.open(file.key), { format, encoding, delimiter })) {
          rows += 1;
          if (rows > importMaxRows) throw new AppError('import_too_many_rows', { maxRows: importMaxRows });
        }
        if (rows < 0) throw new AppError('import_file_unreadable');
        const id = newId();
        return await inTransaction(db, actor, async (ctx) => {
          await repository.insertRun(ctx, {
            id,
            kind: parsed.data.kind,
            source: parsed.data.source,
            sourceKey: sourceKeyOf(parsed.data.source),
            fileName: file.fileName,
            byteSize: file.sizeBytes,
            format,
            storageKey: file.key,
            detectedEncoding: encoding,
            encoding,
            delimiter,
            totalRows: rows,
            createdBy: actor.userId,
          });
          return previewOf(ctx, await requireRun(ctx, id), encoding);
        });
      } catch (error) {
        await storage.remove(file.key).catch(() => undefined);
        throw error;
      }
    },

    async list({ ctx, page, pageSize }: { ctx: RequestContext; page: number; pageSize: number }) {
      const { rows, total } = await repository.listRuns(ctx, page, pageSize);
      return {
        data: rows.map(({ row, createdByName }) => ({ ...present(row), createdByName })),
        total,
        page,
        pageSize,
      };
    },

    async get({ ctx, importId }: { ctx: RequestContext; importId: string }) {
      return present(await requireRun(ctx, importId));
    },

    async preview({ ctx, importId, encoding }: { ctx: RequestContext; importId: string; encoding?: ImportEncoding }) {
      const row = await requireRun(ctx, importId);
      return previewOf(ctx, row, encoding ?? row.encoding);
    },

    /** The dry run, queued: 400 import_mapping_invalid, 409 import_wrong_state while a pass runs or once imported. */
    async check({ ctx, importId, body }: { ctx: RequestContext; importId: string; body: ImportCheckBody }) {
      const row = await requireRun(ctx, importId, true);
      if (!['uploaded', 'checked', 'failed'].includes(row.state) || !row.storageKey) {
        throw new AppError('import_wrong_state', { state: row.state });
      }
      const { columns } = await head(row, body.encoding, 0);
      const known = new Set<string>(importFields[row.kind]);
      const problems = [
        ...Object.entries(body.mapping)
          .filter(([field, index]) => !known.has(field) || index >= columns.length)
          .map(([field]) => ({ path: field, code: 'invalid_value' })),
        ...importRequiredFields[row.kind]
          .filter((field) => body.mapping[field] === undefined)
          .map((field) => ({ path: field, code: 'required' })),
      ];
      if (problems.length > 0) throw new AppError('import_mapping_invalid', { fields: problems });
      await repository.clearResults(ctx, row.id, 'check');
      await repository.updateRun(ctx, row.id, {
        state: 'checking',
        phase: 'check',
        encoding: body.encoding,
        mapping: body.mapping,
        progress: 0,
        rowsDone: 0,
        created: 0,
        updated: 0,
        unchanged: 0,
        refused: 0,
        lastError: null,
        finishedAt: null,
      });
      await enqueueJob(ctx, { kind: importJobKind, key: row.id, runAt: new Date(), payload: { importId: row.id } });
      return { data: present(await requireRun(ctx, row.id)), code: 'import_check_queued' as const };
    },

    /** The import, queued after its dry run (409 import_wrong_state otherwise); the mapping saved for the source. */
    async run({ ctx, importId }: { ctx: RequestContext; importId: string }) {
      const row = await requireRun(ctx, importId, true);
      if (row.state !== 'checked' || !row.mapping) throw new AppError('import_wrong_state', { state: row.state });
      const { columns } = await head(row, row.encoding, 0);
      await repository.saveMapping(ctx, row.sourceKey, row.kind, savedColumns(row.mapping, columns));
      await repository.updateRun(ctx, row.id, {
        state: 'importing',
        phase: 'import',
        progress: 0,
        rowsDone: 0,
        created: 0,
        updated: 0,
        unchanged: 0,
        refused: 0,
        finishedAt: null,
      });
      await enqueueJob(ctx, { kind: importJobKind, key: row.id, runAt: new Date(), payload: { importId: row.id } });
      return { data: present(await requireRun(ctx, row.id)), code: 'import_queued' as const };
    },

    async rows({ ctx, importId, query }: { ctx: RequestContext; importId: string; query: ImportRowsQuery }) {
      const row = await requireRun(ctx, importId);
      const phase = query.phase ?? row.phase ?? 'check';
      const { rows, total } = await repository.resultsPage(ctx, row.id, phase, query);
      return { data: rows, total, page: query.page, pageSize: query.pageSize };
    },

    /**
     * The refused rows as CSV, to fix and upload again: their line, the reasons in the clinic's
     * language, each named by the file's own column ("F. Nacimiento: Fecha no válida"), and the
     * cells as read.
     */
    async refusedCsv({ ctx, importId }: { ctx: RequestContext; importId: string }) {
      const row = await requireRun(ctx, importId);
      const phase = row.phase ?? 'check';
      const { columns } = await head(row, row.encoding, 0);
      const clinic = await repository.clinicOf(ctx);
      const language = (languages as readonly string[]).includes(clinic.language)
        ? (clinic.language as Language)
        : 'es';
      const columnOf = (field: string) => {
        const index = row.mapping?.[field];
        return index === undefined ? null : (columns[index] ?? null);
      };
      const reasonText = (reason: { field: string; code: string }) => {
        const column = columnOf(reason.field);
        const text = fieldCodeText(reason.code, language);
        return column ? `${column}: ${text}` : text;
      };
      const lines: (string | number)[][] = [];
      let after = 0;
      for (;;) {
        const page = await repository.refusedRows(ctx, row.id, phase, after);
        for (const refused of page) {
          lines.push([refused.line, refused.reasons.map(reasonText).join(' | '), ...(refused.cells ?? [])]);
        }
        if (page.length < 2000) break;
        after = page[page.length - 1]?.line ?? after;
      }
      const [lineHeader, reasonsHeader] = refusedHeaders[language];
      return {
        csv: csvFile([lineHeader, reasonsHeader, ...columns], lines),
        fileName: `rechazadas-${row.id.slice(0, 8)}.csv`,
      };
    },

    template(kind: ImportKind) {
      const columns = importTemplates[kind];
      return {
        csv: csvFile(
          columns.map(([, header]) => header),
          [columns.map(([, , example]) => example)],
        ),
        fileName: `plantilla-${kind}.csv`,
      };
    },

    /** The job of both passes: one chunk of rows per run, then the next run queued until the end. */
    handler(): JobHandler {
      return {
        async run(ctx, job: ClaimedJob) {
          const importId = String(job.payload.importId ?? job.key);
          const row = await repository.findRun(ctx, importId, true);
          if (!row || (row.state !== 'checking' && row.state !== 'importing') || !row.mapping || !row.phase) return;
          if (!row.storageKey) throw new Error('import file missing');
          const clinic = await repository.clinicOf(ctx);
          const chunk: SourceRow[] = [];
          let index = -1;
          for await (const cells of readRows(await storage.open(row.storageKey), optionsOf(row, row.encoding))) {
            index += 1;
            if (index === 0 || index <= row.rowsDone) continue;
            chunk.push({ line: index + 1, cells });
            if (chunk.length >= chunkRows) break;
          }
          const counts = await chunkImporters[row.kind](
            { tx: ctx.tx, accountId: ctx.accountId, userId: row.createdBy, ip: '' },
            { id: row.id, sourceKey: row.sourceKey, mapping: row.mapping },
            row.phase,
            chunk,
            clinic,
          );
          const rowsDone = row.rowsDone + chunk.length;
          const totalRows = row.totalRows ?? rowsDone;
          const finishedRun = chunk.length < chunkRows || rowsDone >= totalRows;
          const totals = {
            created: row.created + counts.created,
            updated: row.updated + counts.updated,
            unchanged: row.unchanged + counts.unchanged,
            refused: row.refused + counts.refused,
          };
          await repository.updateRun(ctx, row.id, {
            ...totals,
            rowsDone,
            progress: finishedRun ? 100 : Math.min(99, Math.floor((rowsDone * 100) / Math.max(totalRows, 1))),
            ...(finishedRun
              ? { state: row.phase === 'check' ? 'checked' : 'done', finishedAt: sql`now()` as unknown as Date }
              : {}),
          });
          if (!finishedRun) {
            await enqueueJob(ctx, {
              kind: importJobKind,
              key: row.id,
              runAt: new Date(),
              payload: { importId: row.id },
            });
            return;
          }
          if (row.phase === 'import') {
            await audit(
              { tx: ctx.tx, accountId: ctx.accountId, userId: row.createdBy, ip: '' },
              {
                action: 'import_run_finished',
                entity: 'import_run',
                entityId: row.id,
                after: { kind: row.kind, source: row.source, fileName: row.fileName, rows: rowsDone, ...totals },
              },
            );
          }
        },
        async onFailed(ctx, job, error) {
          const importId = String(job.payload.importId ?? job.key);
          await repository.updateRun(ctx, importId, {
            state: 'failed',
            lastError: (error instanceof Error ? error.message : String(error)).slice(0, 500),
            finishedAt: sql`now()` as unknown as Date,
          });
        },
      };
    },
  };
}

export type ImportsService = ReturnType<typeof createImportsService>;
