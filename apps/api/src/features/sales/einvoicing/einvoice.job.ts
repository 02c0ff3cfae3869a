import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { accounts, commercialDocuments, documentLines, einvoiceSubmissions } from '../../../db/schema/index.ts';
import { textArray } from '../../../db/sql-arrays.ts';
import type { TenantTx } from '../../../db/tenancy.ts';
import { AppError } from '../../../lib/app-error.ts';
import { recordAuditEvents } from '../../audit/audit.repository.ts';
import { DeferJob, type JobContext, type JobHandler } from '../../jobs/jobs.worker.ts';
import {
  ArcaRefused,
  ArcaUnreachable,
  type ArcaVoucher,
  type ArcaVoucherResult,
  arcaMessageKeys,
  arcaQrUrl,
} from './arca/index.ts';
import { arcaClientFor, loadEinvoiceSettings, type SettingsRow, verifactuClientFor } from './authorities.ts';
import { wakeSeries } from './einvoice-issue.ts';
import { arcaVoucher } from './fiscal-documents.ts';
import { VerifactuRefused, VerifactuUnreachable, verifactuMessageKeys } from './verifactu/index.ts';

export { einvoiceJobKind, queueEinvoice } from './einvoice-issue.ts';

/**
 * The sender of a series (issue 39; docs/decisions.md "Electronic invoicing"): one job per series
 * at a time (`wakeSeries`), holding the series' lease, sends its oldest open submissions in issue
 * order and queues itself again while some remain.
 *
 * `prepare` (committed before anything leaves) first settles what an earlier run left `sending`
 * (its answer lost) by asking the authority — FECompConsultar, ConsultaFactuSistemaFacturacion —
 * and only then numbers (ARCA: FECompUltimoAutorizado + 1…, the authority's sequence is the truth;
 * a difference with ours is recorded) and marks the batch `sending`. `run` sends and records each
 * answer. No document is sent twice without asking first, and none is dropped: a run that cannot
 * reach the authority leaves them open (`contingency` after three tries) and the series is woken
 * again later, however many attempts it takes.
 */

const arcaBatch = 50;
const verifactuBatch = 1000;
const leaseMs = 5 * 60_000;
/** Tries without an answer before a submission shows `contingency`. */
const contingencyAfter = 3;

type Submission = typeof einvoiceSubmissions.$inferSelect;
type Message = { code: string; message: string };

const open = ['pending', 'sending', 'contingency'] as const;

const idsIn = (ids: string[]) =>
  sql`document_id in (${sql.join(
    ids.map((id) => sql`${id}::uuid`),
    sql`, `,
  )})`;

async function takeLease(ctx: JobContext, series: string, jobId: string): Promise<boolean> {
  const { rows } = await ctx.tx.execute(sql`
    update einvoice_series set lease_job = ${jobId}::uuid, lease_until = now() + ${`${leaseMs} milliseconds`}::interval
    where account_id = ${ctx.accountId}::uuid and series = ${series}
      and (lease_until is null or lease_until < now() or lease_job = ${jobId}::uuid)
    returning series`);
  return rows.length > 0;
}

async function releaseLease(ctx: JobContext, series: string, jobId: string) {
  await ctx.tx.execute(sql`
    update einvoice_series set lease_job = null, lease_until = null
    where account_id = ${ctx.accountId}::uuid and series = ${series} and lease_job = ${jobId}::uuid`);
}

async function openSubmissions(ctx: JobContext, series: string, limit: number): Promise<Submission[]> {
  return ctx.tx
    .select()
    .from(einvoiceSubmissions)
    .where(
      and(
        eq(einvoiceSubmissions.accountId, ctx.accountId),
        eq(einvoiceSubmissions.series, series),
        inArray(einvoiceSubmissions.status, [...open]),
      ),
    )
    .orderBy(asc(einvoiceSubmissions.queueOrder))
    .limit(limit)
    .for('update');
}

async function update(ctx: JobContext, documentIds: string[], values: Partial<Submission>) {
  if (documentIds.length === 0) return;
  await ctx.tx
    .update(einvoiceSubmissions)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(einvoiceSubmissions.accountId, ctx.accountId), inArray(einvoiceSubmissions.documentId, documentIds)));
}

/** The authority couldn't be reached: the tries count; after a few the documents show contingency. */
async function unreachable(ctx: JobContext, submissions: Submission[]) {
  const ids = submissions.map((row) => row.documentId);
  if (ids.length === 0) return;
  await ctx.tx.execute(sql`
    update einvoice_submissions set attempts = attempts + 1, last_error = 'authority_unreachable', updated_at = now(),
      status = case when attempts + 1 >= ${contingencyAfter} and status <> 'sending' then 'contingency' else status end
    where account_id = ${ctx.accountId}::uuid and ${idsIn(ids)}`);
}

/** What an authority said, with our message key where we know the code. */
const keyed = (messages: Message[], keys: Record<string, { key: string }>) =>
  messages.map((message) => ({ ...message, key: keys[message.code]?.key ?? null }));

async function documentsOf(ctx: JobContext, ids: string[]) {
  if (ids.length === 0) return { documents: new Map(), lines: new Map() };
  const documents = await ctx.tx
    .select()
    .from(commercialDocuments)
    .where(and(eq(commercialDocuments.accountId, ctx.accountId), inArray(commercialDocuments.id, ids)));
  const lines = await ctx.tx
    .select()
    .from(documentLines)
    .where(and(eq(documentLines.accountId, ctx.accountId), inArray(documentLines.documentId, ids)))
    .orderBy(asc(documentLines.position));
  const linesOf = new Map<string, (typeof lines)[number][]>();
  for (const line of lines) linesOf.set(line.documentId, [...(linesOf.get(line.documentId) ?? []), line]);
  return { documents: new Map(documents.map((row) => [row.id, row])), lines: linesOf };
}

async function auditOutcomes(ctx: JobContext, outcomes: { documentId: string; after: Record<string, unknown> }[]) {
  await recordAuditEvents(
    ctx.tx,
    outcomes.map((outcome) => ({
      accountId: ctx.accountId,
      action: `sale_einvoice_${outcome.after.status}`,
      entity: 'sale',
      entityId: outcome.documentId,
      after: outcome.after,
    })),
  );
}

// ———————————————————————————————————————— ARCA

type ArcaPlan =
  | { kind: 'idle' }
  | { kind: 'unreachable' }
  | {
      kind: 'send';
      pointOfSale: number;
      voucherType: number;
      cuit: string;
      vouchers: { documentId: string; voucher: ArcaVoucher; date: string; currency: string }[];
    };

async function clinicCuit(ctx: JobContext): Promise<string> {
  const [row] = await ctx.tx.select({ taxId: accounts.taxId }).from(accounts).where(eq(accounts.id, ctx.accountId));
  return (row?.taxId ?? '').replace(/\D/g, '');
}

function arcaClientOrThrow(ctx: JobContext, settings: SettingsRow, cuit: string) {
  const client = arcaClientFor(ctx.tx, ctx.accountId, settings, cuit);
  if (!client) throw new AppError('einvoice_certificate_required');
  return client;
}

/** The voucher ARCA holds under a number is ours when it says what ours says. */
const sameVoucher = (held: { impTotal: string; cbteFch: string; docNro: string }, ours: ArcaVoucher) =>
  Number(held.impTotal) === Number(ours.impTotal) &&
  held.cbteFch === ours.cbteFch &&
  held.docNro.replace(/^0+/, '') === ours.docNro.replace(/^0+/, '');

async function prepareArca(ctx: JobContext, series: string, settings: SettingsRow): Promise<ArcaPlan> {
  const [, pos, type] = series.split(':');
  const pointOfSale = Number(pos);
  const voucherType = Number(type);
  const submissions = await openSubmissions(ctx, series, arcaBatch);
  if (submissions.length === 0) return { kind: 'idle' };
  const cuit = await clinicCuit(ctx);
  const client = arcaClientOrThrow(ctx, settings, cuit);
  const { documents, lines } = await documentsOf(
    ctx,
    submissions.map((row) => row.documentId),
  );
  const related = await relatedVouchers(ctx, [...documents.values()]);
  const voucherOf = (row: Submission, number: number) => {
    const document = documents.get(row.documentId);
    return arcaVoucher(
      document,
      lines.get(row.documentId) ?? [],
      { letter: row.letter ?? 'B', voucherType, pointOfSale },
      number,
      related.get(document.relatedDocumentId ?? '') ?? null,
      cuit,
    );
  };
  try {
    const pending: Submission[] = [];
    const outcomes: { documentId: string; after: Record<string, unknown> }[] = [];
    for (const row of submissions) {
      if (row.status !== 'sending' || row.fiscalNumber === null) {
        pending.push(row);
        continue;
      }
      // Its answer was lost: what does ARCA hold under its number?
      const held = await client.consult(pointOfSale, voucherType, row.fiscalNumber);
      const ours = voucherOf(row, row.fiscalNumber);
      if (held && held.result === 'A' && sameVoucher(held, ours)) {
        await acceptArca(ctx, row.documentId, ours, held, cuit, documents.get(row.documentId));
        outcomes.push({ documentId: row.documentId, after: { status: 'accepted', cae: held.cae, found: true } });
      } else {
        await update(ctx, [row.documentId], { status: 'pending', fiscalNumber: null });
        pending.push({ ...row, status: 'pending', fiscalNumber: null });
      }
    }
    await auditOutcomes(ctx, outcomes);
    const last = await client.lastAuthorized(pointOfSale, voucherType);
    const { rows } = await ctx.tx.execute<{ last_number: number }>(sql`
      select last_number from einvoice_series where account_id = ${ctx.accountId}::uuid and series = ${series}`);
    const ours = Number(rows[0]?.last_number ?? 0);
    const difference = last !== ours ? { ours, authority: last, at: new Date().toISOString() } : null;
    await ctx.tx.execute(sql`
      update einvoice_series set authority_last_number = ${last}, checked_at = now(),
        difference = case when ${difference === null} then difference else ${JSON.stringify(difference)}::jsonb end,
        last_number = greatest(last_number, ${last})
      where account_id = ${ctx.accountId}::uuid and series = ${series}`);
    if (pending.length === 0) return { kind: 'idle' };
    const vouchers: Extract<ArcaPlan, { kind: 'send' }>['vouchers'] = [];
    let next = last + 1;
    for (const row of pending) {
      const document = documents.get(row.documentId);
      let voucher: ArcaVoucher;
      try {
        voucher = voucherOf(row, next);
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        await update(ctx, [row.documentId], {
          status: 'rejected',
          lastError: error.code,
          messages: [{ code: error.code, message: error.code }],
        });
        continue;
      }
      vouchers.push({ documentId: row.documentId, voucher, date: document.date, currency: document.currency });
      await ctx.tx.execute(sql`
        update einvoice_submissions set status = 'sending', fiscal_number = ${next}, attempts = attempts + 1,
          sent_at = now(), updated_at = now()
        where account_id = ${ctx.accountId}::uuid and document_id = ${row.documentId}::uuid`);
      next += 1;
    }
    if (vouchers.length === 0) return { kind: 'idle' };
    return { kind: 'send', pointOfSale, voucherType, cuit, vouchers };
  } catch (error) {
    if (error instanceof ArcaUnreachable) {
      await unreachable(ctx, submissions);
      return { kind: 'unreachable' };
    }
    if (error instanceof ArcaRefused) {
      // The certificate or the ticket refused: nothing was numbered; the reason on each, to fix in the settings.
      await update(
        ctx,
        submissions.filter((row) => row.status !== 'sending').map((row) => row.documentId),
        { lastError: error.code, messages: keyed([{ code: error.code, message: error.message }], arcaMessageKeys) },
      );
      return { kind: 'unreachable' };
    }
    throw error;
  }
}

/** The ARCA identity of the invoices the notes correct. */
async function relatedVouchers(ctx: JobContext, documents: (typeof commercialDocuments.$inferSelect)[]) {
  const ids = documents.map((row) => row.relatedDocumentId).filter((id): id is string => Boolean(id));
  const found = new Map<string, { voucherType: number; pointOfSale: number; fiscalNumber: number; date: string }>();
  if (ids.length === 0) return found;
  const rows = await ctx.tx
    .select({
      id: einvoiceSubmissions.documentId,
      voucherType: einvoiceSubmissions.voucherType,
      pointOfSale: einvoiceSubmissions.authorityPointOfSale,
      fiscalNumber: einvoiceSubmissions.fiscalNumber,
      date: commercialDocuments.date,
    })
    .from(einvoiceSubmissions)
    .innerJoin(
      commercialDocuments,
      and(
        eq(commercialDocuments.accountId, einvoiceSubmissions.accountId),
        eq(commercialDocuments.id, einvoiceSubmissions.documentId),
      ),
    )
    .where(and(eq(einvoiceSubmissions.accountId, ctx.accountId), inArray(einvoiceSubmissions.documentId, ids)));
  for (const row of rows) {
    if (row.voucherType !== null && row.pointOfSale !== null && row.fiscalNumber !== null) {
      found.set(row.id, {
        voucherType: row.voucherType,
        pointOfSale: row.pointOfSale,
        fiscalNumber: row.fiscalNumber,
        date: row.date,
      });
    }
  }
  return found;
}

async function acceptArca(
  ctx: JobContext,
  documentId: string,
  voucher: ArcaVoucher,
  result: Pick<ArcaVoucherResult, 'cae' | 'caeDueDate' | 'observations'>,
  cuit: string,
  document: { date: string } | undefined,
) {
  await update(ctx, [documentId], {
    status: 'accepted',
    fiscalNumber: voucher.cbteNro,
    authorizationCode: result.cae,
    authorizationDueDate: result.caeDueDate,
    authorizedAt: new Date(),
    lastError: null,
    messages: keyed(result.observations, arcaMessageKeys),
    qrUrl: arcaQrUrl({
      fecha:
        document?.date ?? `${voucher.cbteFch.slice(0, 4)}-${voucher.cbteFch.slice(4, 6)}-${voucher.cbteFch.slice(6)}`,
      cuit,
      ptoVta: voucher.ptoVta,
      tipoCmp: voucher.cbteTipo,
      nroCmp: voucher.cbteNro,
      importe: voucher.impTotal,
      moneda: voucher.monId,
      ctz: voucher.monCotiz,
      ...(voucher.docTipo !== 99 ? { tipoDocRec: voucher.docTipo, nroDocRec: voucher.docNro } : {}),
      codAut: result.cae ?? '',
    }),
  });
  await ctx.tx.execute(sql`
    update einvoice_series set last_number = greatest(last_number, ${voucher.cbteNro})
    where account_id = ${ctx.accountId}::uuid and series = ${`arca:${voucher.ptoVta}:${voucher.cbteTipo}`}`);
}

async function runArca(
  ctx: JobContext,
  plan: Extract<ArcaPlan, { kind: 'send' }>,
  settings: SettingsRow,
): Promise<string | null> {
  const client = arcaClientOrThrow(ctx, settings, plan.cuit);
  const ids = plan.vouchers.map((entry) => entry.documentId);
  let answer: Awaited<ReturnType<typeof client.authorize>>;
  try {
    answer = await client.authorize(plan.vouchers.map((entry) => entry.voucher));
  } catch (error) {
    if (error instanceof ArcaUnreachable) {
      // Maybe authorised, maybe not: they stay `sending` with their numbers, asked for next time.
      await ctx.tx.execute(sql`
        update einvoice_submissions set last_error = 'authority_unreachable', updated_at = now(),
          status = case when attempts >= ${contingencyAfter} then 'contingency' else 'sending' end
        where account_id = ${ctx.accountId}::uuid and ${idsIn(ids)}`);
      return 'authority_unreachable';
    }
    if (error instanceof ArcaRefused) {
      // Refused as a whole: nothing authorised, no number taken.
      await update(ctx, ids, {
        status: 'pending',
        fiscalNumber: null,
        lastError: error.code,
        messages: keyed([{ code: error.code, message: error.message }], arcaMessageKeys),
      });
      return error.code;
    }
    throw error;
  }
  const results = new Map(answer.vouchers.map((result) => [result.cbteNro, result]));
  const outcomes: { documentId: string; after: Record<string, unknown> }[] = [];
  let rejectedBefore = false;
  for (const entry of plan.vouchers) {
    const result = results.get(entry.voucher.cbteNro);
    if (result?.result === 'A') {
      await acceptArca(ctx, entry.documentId, entry.voucher, result, plan.cuit, { date: entry.date });
      outcomes.push({
        documentId: entry.documentId,
        after: { status: 'accepted', cae: result.cae, number: entry.voucher.cbteNro },
      });
      continue;
    }
    const messages = keyed(
      [...(result?.errors ?? []), ...(result?.observations ?? []), ...(result ? [] : answer.errors)],
      arcaMessageKeys,
    );
    if (rejectedBefore && messages.every((message) => message.code === '10016')) {
      // Refused only because an earlier one of the batch was: back in line, unnumbered.
      await update(ctx, [entry.documentId], { status: 'pending', fiscalNumber: null });
      continue;
    }
    rejectedBefore = true;
    await update(ctx, [entry.documentId], {
      status: 'rejected',
      fiscalNumber: null,
      lastError: messages[0]?.code ?? 'rejected',
      messages,
    });
    outcomes.push({ documentId: entry.documentId, after: { status: 'rejected', messages } });
  }
  await auditOutcomes(ctx, outcomes);
  return null;
}

// ———————————————————————————————————————— Verifactu

type VerifactuPlan =
  | { kind: 'idle' }
  | { kind: 'unreachable' }
  | {
      kind: 'send';
      obligado: { nif: string; nombre: string };
      records: { documentId: string; xml: string; numSerie: string }[];
    };

async function obligadoOf(ctx: JobContext) {
  const [row] = await ctx.tx
    .select({ taxId: accounts.taxId, legalName: accounts.legalName, name: accounts.clinicName })
    .from(accounts)
    .where(eq(accounts.id, ctx.accountId));
  return { nif: (row?.taxId ?? '').toUpperCase(), nombre: row?.legalName || row?.name || '' };
}

const numSerieOf = (row: Submission) => (row.response as { numSerie?: string } | null)?.numSerie ?? '';

async function prepareVerifactu(ctx: JobContext, series: string, settings: SettingsRow): Promise<VerifactuPlan> {
  const { rows } = await ctx.tx.execute<{ next_send_at: Date | string | null }>(sql`
    select next_send_at from einvoice_series where account_id = ${ctx.accountId}::uuid and series = ${series}`);
  const submissions = await openSubmissions(ctx, series, verifactuBatch);
  if (submissions.length === 0) return { kind: 'idle' };
  const waitUntil = rows[0]?.next_send_at ? new Date(rows[0].next_send_at) : null;
  // The AEAT's waiting time holds, unless a full batch is ready.
  if (waitUntil && waitUntil > new Date() && submissions.length < verifactuBatch) throw new DeferJob(waitUntil);
  const client = verifactuClientFor(settings);
  if (!client) throw new AppError('einvoice_certificate_required');
  const obligado = await obligadoOf(ctx);
  try {
    const pending: Submission[] = [];
    const outcomes: { documentId: string; after: Record<string, unknown> }[] = [];
    for (const row of submissions) {
      if (row.status !== 'sending') {
        pending.push(row);
        continue;
      }
      const response = row.response as { numSerie: string } | null;
      const [date] = await ctx.tx
        .select({ date: commercialDocuments.date })
        .from(commercialDocuments)
        .where(and(eq(commercialDocuments.accountId, ctx.accountId), eq(commercialDocuments.id, row.documentId)));
      const held = await client.query(obligado, { numSerie: response?.numSerie ?? '', fecha: date?.date ?? '' });
      if (held.estado && held.estado !== 'Incorrecto' && held.huella === row.recordHash) {
        const status = held.estado === 'Correcto' ? 'accepted' : 'accepted_with_errors';
        await update(ctx, [row.documentId], { status, authorizedAt: new Date(), lastError: null });
        outcomes.push({ documentId: row.documentId, after: { status, found: true } });
      } else {
        pending.push(row);
      }
    }
    await auditOutcomes(ctx, outcomes);
    if (pending.length === 0) return { kind: 'idle' };
    await ctx.tx.execute(sql`
      update einvoice_submissions set status = 'sending', attempts = attempts + 1, sent_at = now(), updated_at = now()
      where account_id = ${ctx.accountId}::uuid
        and ${idsIn(pending.map((row) => row.documentId))}`);
    return {
      kind: 'send',
      obligado,
      records: pending.map((row) => ({
        documentId: row.documentId,
        xml: row.recordXml ?? '',
        numSerie: numSerieOf(row),
      })),
    };
  } catch (error) {
    if (error instanceof VerifactuUnreachable || error instanceof VerifactuRefused) {
      await unreachable(ctx, submissions);
      if (error instanceof VerifactuRefused) {
        await update(
          ctx,
          submissions.map((row) => row.documentId),
          {
            lastError: error.code,
            messages: keyed([{ code: error.code, message: error.message }], verifactuMessageKeys),
          },
        );
      }
      return { kind: 'unreachable' };
    }
    throw error;
  }
}

async function runVerifactu(
  ctx: JobContext,
  series: string,
  plan: Extract<VerifactuPlan, { kind: 'send' }>,
  settings: SettingsRow,
): Promise<string | null> {
  const client = verifactuClientFor(settings);
  if (!client) throw new AppError('einvoice_certificate_required');
  const ids = plan.records.map((record) => record.documentId);
  let answer: Awaited<ReturnType<typeof client.submit>>;
  try {
    answer = await client.submit(
      plan.obligado,
      plan.records.map((record) => record.xml),
    );
  } catch (error) {
    if (error instanceof VerifactuUnreachable) {
      await ctx.tx.execute(sql`
        update einvoice_submissions set last_error = 'authority_unreachable', updated_at = now(),
          status = case when attempts >= ${contingencyAfter} then 'contingency' else 'sending' end
        where account_id = ${ctx.accountId}::uuid and ${idsIn(ids)}`);
      return 'authority_unreachable';
    }
    if (error instanceof VerifactuRefused) {
      await update(ctx, ids, {
        status: 'pending',
        lastError: error.code,
        messages: keyed([{ code: error.code, message: error.message }], verifactuMessageKeys),
      });
      return error.code;
    }
    throw error;
  }
  const lines = new Map(answer.lines.map((line) => [line.numSerie, line]));
  const answers = plan.records.map((record) => {
    const line = lines.get(record.numSerie);
    const messages = line?.codigoError
      ? keyed([{ code: line.codigoError, message: line.descripcionError ?? '' }], verifactuMessageKeys)
      : [];
    // Already on record (a resend after a lost answer) with the same content: it is registered.
    const duplicate = line?.duplicado && line.duplicado.estado !== 'Incorrecto';
    const status =
      line?.estado === 'Correcto' || duplicate
        ? 'accepted'
        : line?.estado === 'AceptadoConErrores'
          ? 'accepted_with_errors'
          : 'rejected';
    const lastError = status === 'rejected' ? (messages[0]?.code ?? 'rejected') : null;
    return { documentId: record.documentId, status, lastError, messages };
  });
  // Up to a thousand answers: one statement, not one per record.
  await ctx.tx.execute(sql`
    update einvoice_submissions set status = answered.status,
      authorization_code = case when answered.status = 'rejected' then null else ${answer.csv} end,
      authorized_at = case when answered.status = 'rejected' then null else now() end,
      last_error = answered.last_error, messages = answered.messages::jsonb, updated_at = now()
    from unnest(${textArray(answers.map((entry) => entry.documentId))}::uuid[],
      ${textArray(answers.map((entry) => entry.status))}, ${textArray(answers.map((entry) => entry.lastError))},
      ${textArray(answers.map((entry) => JSON.stringify(entry.messages)))}) as answered(document_id, status, last_error, messages)
    where einvoice_submissions.account_id = ${ctx.accountId}::uuid
      and einvoice_submissions.document_id = answered.document_id`);
  const outcomes = answers.map(({ documentId, status, messages }) => ({
    documentId,
    after: { status, csv: answer.csv, messages },
  }));
  await auditOutcomes(ctx, outcomes);
  await ctx.tx.execute(sql`
    update einvoice_series set next_send_at = now() + ${`${Math.max(0, answer.tiempoEsperaEnvio)} seconds`}::interval,
      checked_at = now()
    where account_id = ${ctx.accountId}::uuid and series = ${series}`);
  return null;
}

// ———————————————————————————————————————— the handler

type Plan = { settings: SettingsRow | null; arca?: ArcaPlan; verifactu?: VerifactuPlan };

async function remaining(tx: TenantTx, accountId: string, series: string) {
  const { rows } = await tx.execute<{ count: number; next_send_at: Date | string | null }>(sql`
    select (select count(*)::int from einvoice_submissions
             where account_id = ${accountId}::uuid and series = ${series} and status in ('pending', 'sending', 'contingency')) as count,
           (select next_send_at from einvoice_series where account_id = ${accountId}::uuid and series = ${series}) as next_send_at`);
  return {
    count: Number(rows[0]?.count ?? 0),
    nextSendAt: rows[0]?.next_send_at ? new Date(rows[0].next_send_at) : null,
  };
}

export function einvoiceHandler(): JobHandler {
  return {
    async prepare(ctx, job): Promise<Plan> {
      const series = job.key;
      // Another sender holds the series: this one comes back in a moment.
      if (!(await takeLease(ctx, series, job.id))) throw new DeferJob(new Date(Date.now() + 300));
      const settings = await loadEinvoiceSettings(ctx.tx, ctx.accountId);
      if (!settings || settings.regime === 'local') return { settings };
      if (series.startsWith('arca:')) return { settings, arca: await prepareArca(ctx, series, settings) };
      return { settings, verifactu: await prepareVerifactu(ctx, series, settings) };
    },

    async run(ctx, job, prepared) {
      const plan = prepared as Plan;
      const series = job.key;
      let failure: string | null = null;
      if (plan.settings && plan.arca?.kind === 'send') failure = await runArca(ctx, plan.arca, plan.settings);
      if (plan.settings && plan.verifactu?.kind === 'send') {
        failure = await runVerifactu(ctx, series, plan.verifactu, plan.settings);
      }
      if (plan.arca?.kind === 'unreachable' || plan.verifactu?.kind === 'unreachable')
        failure = 'authority_unreachable';
      await releaseLease(ctx, series, job.id);
      if (failure) return { retry: failure };
      const left = await remaining(ctx.tx, ctx.accountId, series);
      if (left.count > 0 && plan.settings?.regime !== 'local') {
        const full = left.count >= verifactuBatch || series.startsWith('arca:');
        await wakeSeries(ctx, series, full || !left.nextSendAt ? new Date() : left.nextSendAt);
      }
    },

    async onFailed(ctx, job) {
      // Out of tries, never out of line: open documents show contingency and the series is woken later.
      await ctx.tx.execute(sql`
        update einvoice_submissions set status = 'contingency', updated_at = now()
        where account_id = ${ctx.accountId}::uuid and series = ${job.key} and status = 'pending'`);
      await releaseLease(ctx, job.key, job.id);
      await wakeSeries(ctx, job.key, new Date(Date.now() + 15 * 60_000));
    },
  };
}
