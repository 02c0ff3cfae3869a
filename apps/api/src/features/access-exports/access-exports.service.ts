import { createReadStream } from 'node:fs';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import type { Currency } from '@odontia/shared/currencies';
import type { AccessExport } from '@odontia/shared/schemas/fhir';
import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import yazl from 'yazl';
import type { RequestContext } from '../../context.ts';
import type { Database } from '../../db/client.ts';
import { loadPrintHeader, readerOf } from '../../db/clinic-print-header.ts';
import { accessExports, accounts, patientFiles } from '../../db/schema/index.ts';
import type { TenantTx } from '../../db/tenancy.ts';
import { AppError } from '../../lib/app-error.ts';
import type { FileStorage } from '../../lib/file-storage.ts';
import { newId } from '../../lib/ids.ts';
import { printLanguage, renderPdf, safeFileName } from '../../lib/pdf.ts';
import { audit } from '../audit/audit.repository.ts';
import { authorizationPdfOf } from '../authorizations/authorizations.service.ts';
import { buildPatientBundle } from '../fhir/fhir.service.ts';
import { enqueueJob } from '../jobs/jobs.repository.ts';
import type { JobHandler } from '../jobs/jobs.worker.ts';
import { digestedEntry, exportJob } from '../reports/export-job.ts';
import { loadPatientRecordHead } from './access-exports.repository.ts';
import { moneyCsv, summaryDocument } from './access-summary.ts';

/**
 * The right of access (issue 42; docs/decisions.md "Right of access"): the patient's whole record
 * as one ZIP — a readable PDF summary, the FHIR R4 bundle, the money as CSV, the patient's files
 * and signed consents, and `manifest.json` with each entry's SHA-256 and size. Asked by the staff
 * from the patient's page or by the patient in the portal; written by a job in two steps (the
 * record's documents into a spool folder, then the archive streamed into the exports storage), so
 * the screen sees the progress move; kept and removed like the report exports; every request and
 * every download audited.
 */

export const accessExportJobKind = 'access_export';

const accessExportJob = exportJob({ table: accessExports, kind: accessExportJobKind });

type Clinic = { tx: TenantTx; accountId: string };
type Via = 'staff' | 'portal';

async function findRow(ctx: Clinic, patientId: string, exportId: string) {
  const [row] = await ctx.tx
    .select()
    .from(accessExports)
    .where(
      and(
        eq(accessExports.accountId, ctx.accountId),
        eq(accessExports.id, exportId),
        eq(accessExports.patientId, patientId),
      ),
    );
  if (!row) throw new AppError('access_export_not_found');
  return row;
}

function present(row: typeof accessExports.$inferSelect): AccessExport {
  return {
    id: row.id,
    patientId: row.patientId,
    state: row.state,
    progress: row.progress,
    fileName: row.fileName,
    byteSize: row.byteSize,
    requestedVia: row.requestedVia,
    createdAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}

export const accessExportsService = {
  /**
   * Queues the archive of `patientId` (404 patient_not_found for another clinic's or another
   * patient's). One at a time per patient: while one is queued or running, asking again (the
   * patient pressing twice, or the staff and the patient at once) answers that one, with
   * `access_export_in_progress`, and queues nothing.
   */
  async queue({ ctx, patientId, via }: { ctx: RequestContext; patientId: string; via: Via }) {
    const patient = await loadPatientRecordHead(ctx, patientId);
    if (!patient) throw new AppError('patient_not_found');
    // Two requests at once: the second waits for the first's transaction, then finds its row.
    await ctx.tx.execute(
      sql`select pg_advisory_xact_lock(hashtextextended(${`access_export:${ctx.accountId}:${patientId}`}, 0))`,
    );
    const [pending] = await ctx.tx
      .select()
      .from(accessExports)
      .where(
        and(
          eq(accessExports.accountId, ctx.accountId),
          eq(accessExports.patientId, patientId),
          inArray(accessExports.state, ['queued', 'running']),
        ),
      )
      .orderBy(desc(accessExports.createdAt))
      .limit(1);
    if (pending) return { data: present(pending), code: 'access_export_in_progress' as const };
    const id = newId();
    const day = new Date().toISOString().slice(0, 10);
    await ctx.tx.insert(accessExports).values({
      accountId: ctx.accountId,
      id,
      patientId,
      requestedVia: via,
      fileName: safeFileName(`acceso-${patient.lastName}-${patient.firstName}-${day}.zip`),
      createdBy: ctx.userId,
    });
    await enqueueJob(ctx, { kind: accessExportJobKind, key: id, runAt: new Date(), payload: { exportId: id } });
    await audit(ctx, {
      patientId,
      action: 'access_export_requested',
      entity: 'access_export',
      entityId: id,
      after: { via },
    });
    return { data: present(await findRow(ctx, patientId, id)), code: 'access_export_queued' as const };
  },

  /** The patient's latest archive, or null (404 patient_not_found for another clinic's or patient's id). */
  async latest({ ctx, patientId }: { ctx: RequestContext; patientId: string }) {
    if (!(await loadPatientRecordHead(ctx, patientId))) throw new AppError('patient_not_found');
    const [row] = await ctx.tx
      .select()
      .from(accessExports)
      .where(and(eq(accessExports.accountId, ctx.accountId), eq(accessExports.patientId, patientId)))
      .orderBy(desc(accessExports.createdAt))
      .limit(1);
    return { data: row ? present(row) : null };
  },

  async get({ ctx, patientId, exportId }: { ctx: RequestContext; patientId: string; exportId: string }) {
    return { data: present(await findRow(ctx, patientId, exportId)) };
  },

  /** The finished archive (409 access_export_not_ready before, 410 access_export_expired once removed); audited. */
  async file({
    ctx,
    patientId,
    exportId,
    keepDays,
  }: {
    ctx: RequestContext;
    patientId: string;
    exportId: string;
    keepDays: number;
  }) {
    const row = await findRow(ctx, patientId, exportId);
    if (row.state === 'expired') throw new AppError('access_export_expired', { keepDays });
    if (row.state !== 'done' || !row.storageKey) throw new AppError('access_export_not_ready', { state: row.state });
    await audit(ctx, {
      patientId,
      action: 'access_export_downloaded',
      entity: 'access_export',
      entityId: exportId,
      after: { byteSize: row.byteSize },
    });
    return { storageKey: row.storageKey, fileName: row.fileName };
  },
};

/** Removes the archives finished more than `keepDays` ago (the job worker's periodic task, every clinic's). */
export function sweepAccessExports(db: Pick<Database, 'withSystem'>, storage: FileStorage, keepDays: number) {
  return accessExportJob.sweep(db, storage, keepDays);
}

/** A folder name safe inside the archive: no path separators, no dot-dot. */
const entryName = (name: string) => safeFileName(name).slice(0, 120);

export function accessExportHandler({
  uploads,
  storage,
  spoolDir,
  apiBase,
}: {
  /** The patients' files. */
  uploads: FileStorage;
  /** Where the archives are kept (DATA_DIR/exports). */
  storage: FileStorage;
  spoolDir: string;
  apiBase: string;
}): JobHandler {
  const spoolOf = (exportId: string) => path.join(spoolDir, exportId);

  return accessExportJob.handler(spoolOf, async (jobCtx, { exportId, row, update, next, finish }) => {
    const [account] = await jobCtx.tx
      .select({
        timeZone: accounts.timeZone,
        language: accounts.defaultLanguage,
        currency: accounts.systemCurrency,
      })
      .from(accounts)
      .where(eq(accounts.id, jobCtx.accountId));
    const ctx: RequestContext = {
      ...jobCtx,
      userId: row.createdBy,
      level: 'administrator',
      timeZone: account?.timeZone ?? 'UTC',
      ip: '',
    };
    const spool = spoolOf(exportId);

    if (row.step === 0) {
      // Step 1: the record's own documents, written to the spool (a retry writes them again).
      await rm(spool, { recursive: true, force: true });
      await mkdir(path.join(spool, 'consentimientos'), { recursive: true });
      const { record, bundle } = await buildPatientBundle(ctx, row.patientId, apiBase);
      const reader = await readerOf(ctx);
      const language = printLanguage(account?.language);
      const currency = (account?.currency ?? 'EUR') as Currency;
      const summary = await renderPdf(
        summaryDocument(record, {
          language,
          timeZone: ctx.timeZone,
          currency,
          clinic: {
            clinicName: reader.clinicName,
            clinicContact: reader.clinicContact,
            clinic: await loadPrintHeader(ctx),
          },
          now: new Date(),
        }),
      );
      await writeFile(path.join(spool, 'resumen.pdf'), summary);
      await writeFile(path.join(spool, 'paciente.fhir.json'), JSON.stringify(bundle, null, 2));
      await writeFile(path.join(spool, 'cuenta.csv'), moneyCsv(record, { language, currency }));
      for (const authorization of record.authorizations.filter((entry) => entry.signedAt)) {
        const { pdf } = await authorizationPdfOf(ctx, row.patientId, authorization.id);
        await writeFile(
          path.join(
            spool,
            'consentimientos',
            `${entryName(`${authorization.date}-${authorization.title}`)}-${authorization.id.slice(0, 8)}.pdf`,
          ),
          pdf,
        );
      }
      await update({ state: 'running', step: 1, progress: 40 });
      await next();
      return;
    }

    // Step 2: the archive, streamed into the storage; each entry hashed as it goes by.
    const files = await ctx.tx
      .select({
        id: patientFiles.id,
        originalName: patientFiles.originalName,
        storageKey: patientFiles.storageKey,
      })
      .from(patientFiles)
      .where(
        and(
          eq(patientFiles.accountId, ctx.accountId),
          eq(patientFiles.patientId, row.patientId),
          isNull(patientFiles.deletedAt),
        ),
      );
    const zip = new yazl.ZipFile();
    const out = new PassThrough();
    zip.outputStream.pipe(out);
    const stored = storage.put(out);
    const manifest: { name: string; sha256: string; size: number }[] = [];
    const add = async (name: string, source: Readable) => {
      const { stream, digest } = digestedEntry(source);
      zip.addReadStream(stream, name);
      const { sha256, sizeBytes } = await digest;
      manifest.push({ name, sha256, size: sizeBytes });
    };
    const ownFiles = [
      'resumen.pdf',
      'paciente.fhir.json',
      'cuenta.csv',
      ...(await readdir(path.join(spool, 'consentimientos'))).sort().map((name) => `consentimientos/${name}`),
    ];
    for (const name of ownFiles) await add(name, createReadStream(path.join(spool, name)));
    for (const file of files) {
      await add(`archivos/${file.id.slice(0, 8)}-${entryName(file.originalName)}`, await uploads.open(file.storageKey));
    }
    zip.addBuffer(
      Buffer.from(JSON.stringify({ exportId, patientId: row.patientId, entries: manifest }, null, 2)),
      'manifest.json',
    );
    zip.end();
    const object = await stored;
    await finish(object, { step: 2 });
    await audit(ctx, {
      patientId: row.patientId,
      action: 'access_export_ready',
      entity: 'access_export',
      entityId: exportId,
      after: { entries: manifest.length + 1, byteSize: object.sizeBytes },
    });
    await rm(spool, { recursive: true, force: true });
  });
}
