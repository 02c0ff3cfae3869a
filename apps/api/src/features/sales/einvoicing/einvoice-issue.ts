import { and, eq, sql } from 'drizzle-orm';
import type { TxContext as Ctx } from '../../../context.ts';
import { type commercialDocuments, type documentLines, einvoiceSubmissions, jobs } from '../../../db/schema/index.ts';
import { AppError } from '../../../lib/app-error.ts';
import { appVersion } from '../../../lib/version.ts';
import { enqueueJob } from '../../jobs/jobs.repository.ts';
import { nudgeJobs } from '../../jobs/jobs.worker.ts';
import { loadEinvoiceSettings } from './authorities.ts';
import {
  arcaPlacement,
  type VerifactuInvoiceKind,
  verifactuAlta,
  verifactuKind,
  verifactuNumber,
} from './fiscal-documents.ts';
import { type AltaInput, buildAlta, type SistemaInformatico, verifactuQrUrl } from './verifactu/index.ts';

/**
 * Issuing a sale queues it for its clinic's authority (issue 39), in the issuing transaction:
 * - `local`: no authority; the document is on record as without fiscal validity.
 * - `arca`: the letter and voucher type are decided now (refused now when a Factura A lacks a
 *   CUIT); ARCA gives the number when it authorises, so the series is sent in issue order.
 * - `verifactu`: the record (registro de alta) is made now, as the regulation asks, chained to the
 *   clinic's previous record by its huella; it is sent in batches.
 * A note correcting a document the authority never had (rejected, or issued before the clinic
 * chose its regime) is not sent: neither exists for it.
 */

type DocumentRow = typeof commercialDocuments.$inferSelect;
type LineRow = typeof documentLines.$inferSelect;

export const einvoiceJobKind = 'einvoice.submit';

/** The software that makes the records (Verifactu's SistemaInformatico), this installation's. */
export function sistemaInformatico(accountId: string, producer: { nif: string; name: string }): SistemaInformatico {
  return {
    nombreRazon: producer.name,
    nif: producer.nif,
    nombreSistemaInformatico: 'Odontia',
    idSistemaInformatico: 'OD',
    version: appVersion,
    numeroInstalacion: accountId,
    tipoUsoPosibleSoloVerifactu: 'S',
    tipoUsoPosibleMultiOT: 'S',
    indicadorMultiplesOT: 'S',
  };
}

/** One queued sender per series: another is not queued while one waits. */
export async function wakeSeries(ctx: Ctx, series: string, runAt = new Date()): Promise<void> {
  const { rows } = await ctx.tx.execute(sql`
    select 1 from ${jobs} where account_id = ${ctx.accountId}::uuid and kind = ${einvoiceJobKind}
      and key = ${series} and state = 'queued' limit 1`);
  if (rows.length === 0) await enqueueJob(ctx, { kind: einvoiceJobKind, key: series, runAt, payload: { series } });
  // The sender runs as soon as the issue commits, not at the next poll (seconds for the customer at the desk).
  if (runAt.getTime() <= Date.now()) nudgeJobs();
}

/** Takes the series' row (made when missing) and holds it until the transaction ends. */
async function lockSeries(ctx: Ctx, series: string) {
  const { rows } = await ctx.tx.execute<{ last_link: { numSerie: string; fecha: string; huella: string } | null }>(sql`
    insert into einvoice_series (account_id, series) values (${ctx.accountId}::uuid, ${series})
    on conflict (account_id, series) do update set series = excluded.series
    returning last_link`);
  return rows[0]?.last_link ?? null;
}

async function submissionOf(ctx: Ctx, documentId: string) {
  const [row] = await ctx.tx
    .select()
    .from(einvoiceSubmissions)
    .where(and(eq(einvoiceSubmissions.accountId, ctx.accountId), eq(einvoiceSubmissions.documentId, documentId)));
  return row ?? null;
}

/**
 * The next record of the clinic's Verifactu chain for `document`: locks the chain (its series row),
 * builds the RegistroAlta linked to the last record by its huella, and moves the chain's end to it.
 */
async function chainVerifactuRecord(
  ctx: Ctx & { timeZone: string },
  document: DocumentRow,
  lines: LineRow[],
  related: DocumentRow | null,
  kind: VerifactuInvoiceKind,
  correction: Partial<Pick<AltaInput, 'subsanacion' | 'rechazoPrevio'>> = {},
) {
  const series = 'verifactu';
  const previous = await lockSeries(ctx, series);
  const issuer = (document.issuerSnapshot ?? {}) as { taxId?: string; legalName?: string; name?: string };
  const issuerNif = (issuer.taxId ?? '').toUpperCase();
  const input = verifactuAlta(
    document,
    lines,
    kind,
    related ? { numSerie: verifactuNumber(related), fecha: related.date } : null,
    {
      previous: previous ? { issuerNif, ...previous } : null,
      generatedAt: new Date(),
      timeZone: ctx.timeZone,
      sistema: sistemaInformatico(ctx.accountId, {
        nif: issuerNif,
        name: issuer.legalName || issuer.name || issuerNif,
      }),
    },
  );
  const record = buildAlta({ ...input, ...correction });
  await ctx.tx.execute(sql`
    update einvoice_series set last_link = ${JSON.stringify({ numSerie: input.numSerie, fecha: input.fecha, huella: record.huella })}::jsonb
    where account_id = ${ctx.accountId}::uuid and series = ${series}`);
  return { series, input, record, issuerNif };
}

export async function queueEinvoice(
  ctx: Ctx & { timeZone: string },
  document: DocumentRow,
  lines: LineRow[],
  related: DocumentRow | null,
): Promise<void> {
  const settings = await loadEinvoiceSettings(ctx.tx, ctx.accountId);
  const regime = settings?.regime ?? 'local';
  const base: typeof einvoiceSubmissions.$inferInsert = {
    accountId: ctx.accountId,
    documentId: document.id,
    adapter: regime,
    status: 'local',
  };
  if (regime === 'local') {
    await ctx.tx.insert(einvoiceSubmissions).values({ ...base, status: 'local' });
    return;
  }
  const relatedSubmission = related ? await submissionOf(ctx, related.id) : null;
  // A note of a document the authority never had (rejected, not sent, or issued before the regime).
  if (relatedSubmission && ['rejected', 'not_sent', 'local'].includes(relatedSubmission.status)) {
    await ctx.tx.insert(einvoiceSubmissions).values({ ...base, status: 'not_sent', letter: relatedSubmission.letter });
    return;
  }
  if (!settings?.certificateSealed) throw new AppError('einvoice_certificate_required');
  Object.assign(base, { environment: settings.environment });
  if (regime === 'arca') {
    const [pointOfSale] = (
      await ctx.tx.execute<{ authority_number: number | null }>(sql`
        select authority_number from points_of_sale
        where account_id = ${ctx.accountId}::uuid and code = ${document.pointOfService} and deleted_at is null`)
    ).rows;
    const number = pointOfSale?.authority_number ?? Number(document.pointOfService);
    const placement = arcaPlacement(
      document,
      number,
      (relatedSubmission?.letter as 'A' | 'B' | 'C' | null | undefined) ?? null,
    );
    await lockSeries(ctx, placement.series);
    await ctx.tx.insert(einvoiceSubmissions).values({
      ...base,
      status: 'pending',
      series: placement.series,
      letter: placement.letter,
      voucherType: placement.voucherType,
      authorityPointOfSale: placement.pointOfSale,
    });
    await wakeSeries(ctx, placement.series);
    return;
  }
  // Verifactu: the record now, chained to the clinic's last one.
  const relatedKind = (relatedSubmission?.response as { tipoFactura?: VerifactuInvoiceKind } | null)?.tipoFactura;
  const kind = verifactuKind(document, relatedKind ?? null);
  const { series, input, record, issuerNif } = await chainVerifactuRecord(ctx, document, lines, related, kind);
  await ctx.tx.insert(einvoiceSubmissions).values({
    ...base,
    status: 'pending',
    series,
    recordXml: record.xml,
    recordHash: record.huella,
    qrUrl: verifactuQrUrl(settings.environment === 'production' ? 'production' : 'test', {
      nif: issuerNif,
      numSerie: input.numSerie,
      fecha: input.fecha,
      importe: input.importeTotal,
    }),
    response: { tipoFactura: kind, numSerie: input.numSerie, generatedAt: record.fechaHoraHusoGenRegistro },
  });
  await wakeSeries(ctx, series);
}

/**
 * "Send again" (POST /sales/:id/einvoice/retry). A rejected ARCA voucher goes back in line without
 * a number (ARCA took none); a rejected Verifactu record, or one accepted with errors, is made again
 * as a subsanación chained at the end; one left `sending` or in contingency wakes its series now (the
 * sender asks the authority before it sends). Anything else has nothing to retry.
 */
export async function retryEinvoice(
  ctx: Ctx & { timeZone: string },
  document: DocumentRow,
  lines: LineRow[],
  related: DocumentRow | null,
): Promise<{ before: string; after: string }> {
  const [row] = await ctx.tx
    .select()
    .from(einvoiceSubmissions)
    .where(and(eq(einvoiceSubmissions.accountId, ctx.accountId), eq(einvoiceSubmissions.documentId, document.id)))
    .for('update');
  if (!row?.series) throw new AppError('einvoice_not_retryable', { status: row?.status ?? null });
  const reset = { lastError: null, messages: null, updatedAt: new Date() };
  const where = and(eq(einvoiceSubmissions.accountId, ctx.accountId), eq(einvoiceSubmissions.documentId, document.id));
  if (row.status === 'sending' || row.status === 'contingency' || row.status === 'pending') {
    await wakeSeries(ctx, row.series);
    return { before: row.status, after: row.status };
  }
  if (row.adapter === 'arca' && row.status === 'rejected') {
    await ctx.tx
      .update(einvoiceSubmissions)
      .set({ ...reset, status: 'pending', fiscalNumber: null })
      .where(where);
    await wakeSeries(ctx, row.series);
    return { before: row.status, after: 'pending' };
  }
  if (row.adapter === 'verifactu' && (row.status === 'rejected' || row.status === 'accepted_with_errors')) {
    const earlier = row.response as { tipoFactura: VerifactuInvoiceKind; numSerie: string } | null;
    // A rejected record never entered the AEAT's books (RechazoPrevio X); one with errors did (N).
    const { record } = await chainVerifactuRecord(
      ctx,
      document,
      lines,
      related,
      earlier?.tipoFactura ?? verifactuKind(document, null),
      { subsanacion: true, rechazoPrevio: row.status === 'rejected' ? 'X' : 'N' },
    );
    await ctx.tx
      .update(einvoiceSubmissions)
      .set({
        ...reset,
        status: 'pending',
        authorizationCode: null,
        authorizedAt: null,
        recordXml: record.xml,
        recordHash: record.huella,
        response: { ...earlier, subsanacion: true, generatedAt: record.fechaHoraHusoGenRegistro },
      })
      .where(where);
    await wakeSeries(ctx, row.series);
    return { before: row.status, after: 'pending' };
  }
  throw new AppError('einvoice_not_retryable', { status: row.status });
}
