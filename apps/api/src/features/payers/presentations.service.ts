import { clinicToday } from '@odontia/shared/clinic-time';
import type { Currency, PaymentMethod } from '@odontia/shared/enums';
import type { Page } from '@odontia/shared/schemas/common';
import type {
  createPresentationSchema,
  Presentation,
  PresentationStatus,
  presentationListQuerySchema,
  presentationPaySchema,
  presentationStepSchema,
  rejectionRequestSchema,
  SplitLine,
} from '@odontia/shared/schemas/payers';
import { createSaleSchema } from '@odontia/shared/schemas/sales';
import Big from 'big.js';
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { payerPresentations, payerRejections, payers } from '../../db/schema/index.ts';
import { AppError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';
import type { RequestContext } from '../../plugins/routes.ts';
import { audit } from '../audit/audit.repository.ts';
import { findCustomer } from '../customers/customer-parties.ts';
import { recordCollection } from '../customers/record-collection.ts';
import { enqueueJob } from '../jobs/jobs.repository.ts';
import type { ClaimedJob, JobContext, JobHandler } from '../jobs/jobs.worker.ts';
import { salesService } from '../sales/sales.service.ts';
import { payersService } from './payers.service.ts';
import { allPresentationLines, presentationLines, splitLinesOf } from './split-lines.repository.ts';

/**
 * Presentations to a payer (liquidación a la obra social, issue 40). Building one gathers, in a
 * background job with progress, the payer's invoiced payer-part lines of the month not yet
 * presented (each line once: a narrow row of payer_presentation_lines keyed by the line, never
 * updated nor deleted). Then: draft → sent → accepted (partially when it
 * has rejections) → paid, by a collection from the payer allocated to the presentation's invoices.
 * A rejection (débito) of a line takes its amount off the payer's invoice with a credit note and
 * either bills it to the patient (an invoice to the patient) or leaves it as a loss.
 */

type Ctx = RequestContext;
export const payerPresentationJobKind = 'payer_presentation';
/** Lines gathered per run of the job (each run commits its chunk and its progress). */
export const presentationChunk = 25_000;

type Row = typeof payerPresentations.$inferSelect;

function present(row: Row, payerName: string): Presentation {
  return {
    id: row.id,
    payerId: row.payerId,
    payerName,
    number: row.number,
    period: row.period,
    status: row.status as PresentationStatus,
    progress: row.progress,
    lineCount: row.lineCount,
    total: new Big(row.total).toFixed(2),
    rejectedTotal: new Big(row.rejectedTotal).toFixed(2),
    sentOn: row.sentOn,
    acceptedOn: row.acceptedOn,
    paidOn: row.paidOn,
    collectionId: row.collectionId,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    version: row.version,
  };
}

async function findRow(ctx: Pick<Ctx, 'tx' | 'accountId'>, id: string, lock = false) {
  const query = ctx.tx
    .select({ row: payerPresentations, payerName: payers.name })
    .from(payerPresentations)
    .innerJoin(
      payers,
      and(eq(payers.accountId, payerPresentations.accountId), eq(payers.id, payerPresentations.payerId)),
    )
    .where(
      and(
        eq(payerPresentations.accountId, ctx.accountId),
        eq(payerPresentations.id, id),
        isNull(payerPresentations.deletedAt),
      ),
    );
  const [found] = lock ? await query.for('no key update', { of: payerPresentations }) : await query;
  return found;
}

async function get({ ctx, id }: { ctx: Ctx; id: string }): Promise<Presentation> {
  const found = await findRow(ctx, id);
  if (!found) throw new AppError('payer_presentation_not_found');
  return present(found.row, found.payerName);
}

async function list({
  ctx,
  query,
}: {
  ctx: Ctx;
  query: z.output<typeof presentationListQuerySchema>;
}): Promise<Page<Presentation>> {
  const where = and(
    eq(payerPresentations.accountId, ctx.accountId),
    isNull(payerPresentations.deletedAt),
    query.payerId ? eq(payerPresentations.payerId, query.payerId) : undefined,
  );
  const rows = await ctx.tx
    .select({ row: payerPresentations, payerName: payers.name })
    .from(payerPresentations)
    .innerJoin(
      payers,
      and(eq(payers.accountId, payerPresentations.accountId), eq(payers.id, payerPresentations.payerId)),
    )
    .where(where)
    .orderBy(desc(payerPresentations.period), desc(payerPresentations.number))
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize);
  const [total] = await ctx.tx.select({ n: sql<number>`count(*)::int` }).from(payerPresentations).where(where);
  return {
    data: rows.map((found) => present(found.row, found.payerName)),
    total: total?.n ?? 0,
    page: query.page,
    pageSize: query.pageSize,
  };
}

/**
 * The payer's invoiced lines of the month still to present: the month's lines through the partial
 * index of payer_split_lines, less the month's presented ones (one range of the key of
 * payer_presentation_lines, whatever the clinic's years of presentations).
 */
const pendingLines = (accountId: string, payerId: string, period: string) => sql`
  s.account_id = ${accountId}::uuid and s.payer_id = ${payerId}::uuid and s.payer_document_id is not null
  and s.date >= ${period}::date and s.date < (${period}::date + interval '1 month')::date
  and not exists (
    select 1 from payer_presentation_lines pl
    where pl.account_id = s.account_id and pl.date = s.date and pl.split_line_id = s.id
      and pl.date >= ${period}::date and pl.date < (${period}::date + interval '1 month')::date)`;

async function create({ ctx, input }: { ctx: Ctx; input: z.output<typeof createPresentationSchema> }) {
  const payer = await payersService.find(ctx, input.payerId);
  const { rows: pending } = await ctx.tx.execute<{ one: number }>(
    sql`select 1 as one from payer_split_lines s where ${pendingLines(ctx.accountId, payer.id, input.period)} limit 1`,
  );
  if (pending.length === 0) throw new AppError('payer_presentation_empty');
  // The clinic's presentations are numbered 1, 2, 3… (two at once wait here for each other).
  await ctx.tx.execute(
    sql`select pg_advisory_xact_lock(hashtextextended('payer_presentations:' || ${ctx.accountId}, 0))`,
  );
  const { rows } = await ctx.tx.execute<{ next: number }>(
    sql`select coalesce(max(number), 0)::int + 1 as next from payer_presentations where account_id = ${ctx.accountId}::uuid`,
  );
  const id = newId();
  const number = rows[0]?.next ?? 1;
  await ctx.tx.insert(payerPresentations).values({
    accountId: ctx.accountId,
    id,
    payerId: payer.id,
    number,
    period: input.period,
    status: 'building',
    createdBy: ctx.userId,
    updatedBy: ctx.userId,
  });
  await enqueueJob(ctx, {
    kind: payerPresentationJobKind,
    key: id,
    runAt: new Date(),
    payload: { presentationId: id },
  });
  await audit(ctx, {
    action: 'payer_presentation_created',
    entity: 'payer_presentation',
    entityId: id,
    after: { payerId: payer.id, number, period: input.period },
  });
  return { data: await get({ ctx, id }), code: 'payer_presentation_created' as const };
}

/**
 * One run of the build: takes the next chunk of the month's pending lines into the presentation,
 * adds their count and amount, and queues the next run, or marks it a draft when none are left.
 */
export async function buildChunk(ctx: JobContext, presentationId: string, chunk = presentationChunk) {
  const found = await findRow(ctx, presentationId, true);
  if (found?.row.status !== 'building') return { done: true };
  const row = found.row;
  // Two builds of the payer's month take turns (the later one then finds what the first took).
  await ctx.tx.execute(
    sql`select pg_advisory_xact_lock(hashtextextended(${`payer_presentation_build:${ctx.accountId}:${row.payerId}:${row.period}`}, 0))`,
  );
  // The chunk's lines become narrow rows of the presentation (the wide split lines are not rewritten).
  const { rows } = await ctx.tx.execute<{ n: number; total: string }>(sql`
    with picked as materialized (
      select s.id, s.date, s.payer_amount from payer_split_lines s
      where ${pendingLines(ctx.accountId, row.payerId, row.period)}
      order by s.date, s.id
      limit ${chunk}
    ), moved as (
      insert into payer_presentation_lines (account_id, split_line_id, presentation_id, date)
      select ${ctx.accountId}::uuid, picked.id, ${presentationId}::uuid, picked.date from picked
    )
    select count(*)::int as n, coalesce(sum(payer_amount), 0)::text as total from picked`);
  const moved = rows[0] ?? { n: 0, total: '0' };
  const lineCount = row.lineCount + Number(moved.n);
  const total = new Big(row.total).plus(moved.total).toFixed(2);
  // A chunk not full was the last: nothing left to count.
  const remaining =
    Number(moved.n) < chunk
      ? 0
      : Number(
          (
            await ctx.tx.execute<{ n: number }>(
              sql`select count(*)::int as n from payer_split_lines s where ${pendingLines(ctx.accountId, row.payerId, row.period)}`,
            )
          ).rows[0]?.n ?? 0,
        );
  const done = Number(moved.n) < chunk || remaining === 0;
  await ctx.tx
    .update(payerPresentations)
    .set({
      lineCount,
      total,
      status: done ? 'draft' : 'building',
      progress: done ? 100 : Math.min(99, Math.floor((lineCount * 100) / Math.max(lineCount + remaining, 1))),
      updatedAt: new Date(),
    })
    .where(and(eq(payerPresentations.accountId, ctx.accountId), eq(payerPresentations.id, presentationId)));
  if (!done) {
    await enqueueJob(ctx, {
      kind: payerPresentationJobKind,
      key: presentationId,
      runAt: new Date(),
      payload: { presentationId },
    });
  }
  return { done };
}

export function presentationJobHandler(): JobHandler {
  return {
    async run(ctx: JobContext, job: ClaimedJob) {
      await buildChunk(ctx, String(job.payload.presentationId ?? job.key));
    },
  };
}

/** The locked presentation at `version` (409 version_conflict with the current one otherwise), in one of `allowed`. */
async function lockAt(ctx: Ctx, id: string, version: number | null, allowed: PresentationStatus[]) {
  const found = await findRow(ctx, id, true);
  if (!found) throw new AppError('payer_presentation_not_found');
  if (version !== null && found.row.version !== version) {
    throw new AppError('version_conflict', { current: present(found.row, found.payerName) });
  }
  if (!allowed.includes(found.row.status as PresentationStatus)) {
    throw new AppError('payer_presentation_status', { status: found.row.status });
  }
  return found.row;
}

async function step(
  ctx: Ctx,
  row: Row,
  change: Partial<typeof payerPresentations.$inferInsert>,
  action: 'payer_presentation_sent' | 'payer_presentation_accepted' | 'payer_presentation_paid',
) {
  await ctx.tx
    .update(payerPresentations)
    .set({ ...change, version: row.version + 1, updatedAt: new Date(), updatedBy: ctx.userId })
    .where(and(eq(payerPresentations.accountId, ctx.accountId), eq(payerPresentations.id, row.id)));
  await audit(ctx, {
    action,
    entity: 'payer_presentation',
    entityId: row.id,
    before: { status: row.status, version: row.version },
    after: { ...change, status: change.status },
  });
  return { data: await get({ ctx, id: row.id }), code: action };
}

type Step = z.output<typeof presentationStepSchema>;

async function send({ ctx, id, input }: { ctx: Ctx; id: string; input: Step }) {
  const row = await lockAt(ctx, id, input.version, ['draft']);
  return step(ctx, row, { status: 'sent', sentOn: input.date ?? clinicToday(ctx.timeZone) }, 'payer_presentation_sent');
}

async function accept({ ctx, id, input }: { ctx: Ctx; id: string; input: Step }) {
  const row = await lockAt(ctx, id, input.version, ['sent']);
  const partially = new Big(row.rejectedTotal).gt(0);
  return step(
    ctx,
    row,
    { status: partially ? 'partially_accepted' : 'accepted', acceptedOn: input.date ?? clinicToday(ctx.timeZone) },
    'payer_presentation_accepted',
  );
}

/** The payer's invoices of the presentation still open, locked, with what is open of each. */
async function openInvoices(ctx: Ctx, id: string) {
  const { rows } = await ctx.tx.execute<{ id: string; open_amount: string }>(sql`
    select d.id, d.open_amount::text as open_amount from commercial_documents d
    where d.account_id = ${ctx.accountId}::uuid and d.open_amount > 0
      and d.id in (select s.payer_document_id from payer_presentation_lines pl
                   join payer_split_lines s on s.account_id = pl.account_id and s.id = pl.split_line_id
                   where pl.account_id = ${ctx.accountId}::uuid and pl.presentation_id = ${id}::uuid)
    order by d.id
    for update`);
  return rows;
}

async function pay({ ctx, id, input }: { ctx: Ctx; id: string; input: z.output<typeof presentationPaySchema> }) {
  const row = await lockAt(ctx, id, input.version, ['sent', 'accepted', 'partially_accepted']);
  const payer = await payersService.find(ctx, row.payerId);
  const customer = await findCustomer(ctx, payer.customerId);
  if (!customer) throw new AppError('customer_not_found');
  const open = await openInvoices(ctx, id);
  const amount = open.reduce((sum, invoice) => sum.plus(invoice.open_amount), new Big(0));
  let collectionId: string | null = null;
  if (amount.gt(0)) {
    const { rows: currency } = await ctx.tx.execute<{ currency: string }>(
      sql`select system_currency as currency from accounts where id = ${ctx.accountId}::uuid`,
    );
    const collection = await recordCollection(ctx, {
      customer,
      date: input.date,
      amount: amount.toFixed(2),
      currency: (currency[0]?.currency ?? 'euro') as Currency,
      method: input.method as PaymentMethod,
      status: 'paid',
      paidOn: input.date,
      allocations: open.map((invoice) => ({ documentId: invoice.id, amount: invoice.open_amount })),
    });
    collectionId = collection.id;
  }
  return step(
    ctx,
    row,
    {
      status: 'paid',
      paidOn: input.date,
      collectionId,
      acceptedOn: row.acceptedOn ?? input.date,
    },
    'payer_presentation_paid',
  );
}

async function reject({ ctx, id, input }: { ctx: Ctx; id: string; input: z.output<typeof rejectionRequestSchema> }) {
  const row = await lockAt(ctx, id, null, ['sent', 'accepted', 'partially_accepted']);
  const { rows } = await ctx.tx.execute<{
    id: string;
    payer_amount: string;
    vat_rate: string;
    description: string;
    patient_id: string;
    payer_document_id: string;
    rejection_id: string | null;
  }>(sql`
    select s.id, s.payer_amount::text as payer_amount, s.vat_rate::text as vat_rate, s.description, s.patient_id,
           s.payer_document_id, r.id as rejection_id
    from payer_split_lines s
    left join payer_rejections r on r.account_id = s.account_id and r.split_line_id = s.id
    where s.account_id = ${ctx.accountId}::uuid and s.id = ${input.splitLineId}::uuid
      and exists (select 1 from payer_presentation_lines pl
                  where pl.account_id = s.account_id and pl.date = s.date and pl.split_line_id = s.id
                    and pl.presentation_id = ${id}::uuid)
    for update of s`);
  const line = rows[0];
  if (!line) throw new AppError('payer_split_line_not_found');
  if (line.rejection_id) throw new AppError('payer_line_already_rejected', { rejection: { id: line.rejection_id } });
  if (new Big(input.amount).gt(line.payer_amount)) {
    throw new AppError('payer_rejection_too_big', { payerAmount: new Big(line.payer_amount).toFixed(2) });
  }
  const payer = await payersService.find(ctx, row.payerId);
  const today = clinicToday(ctx.timeZone);
  const { rows: currencyRows } = await ctx.tx.execute<{ currency: string; pos: string }>(sql`
    select a.system_currency as currency, d.point_of_service as pos
    from accounts a, commercial_documents d
    where a.id = ${ctx.accountId}::uuid and d.account_id = ${ctx.accountId}::uuid and d.id = ${line.payer_document_id}::uuid`);
  const common = {
    date: today,
    currency: currencyRows[0]?.currency ?? 'euro',
    pointOfService: currencyRows[0]?.pos,
    conditionSale: 'current_account',
    issue: true,
  };
  const rejectedLine = (description: string) => ({
    description,
    quantity: '1',
    unitPrice: input.amount,
    vatRate: line.vat_rate,
  });
  const creditNote = await salesService.create({
    ctx,
    input: createSaleSchema.parse({
      ...common,
      documentType: 'credit_note',
      customerId: payer.customerId,
      relatedDocumentId: line.payer_document_id,
      notes: input.reason,
      lines: [rejectedLine(`Débito: ${line.description}`.slice(0, 500))],
    }),
  });
  const patientInvoice =
    input.destination === 'patient'
      ? await salesService.create({
          ctx,
          input: createSaleSchema.parse({
            ...common,
            documentType: 'invoice',
            patientId: line.patient_id,
            notes: `${payer.name}: ${input.reason}`.slice(0, 2000),
            lines: [rejectedLine(`${line.description} (${payer.name})`.slice(0, 500))],
          }),
        })
      : null;
  const rejectionId = newId();
  await ctx.tx.insert(payerRejections).values({
    accountId: ctx.accountId,
    id: rejectionId,
    presentationId: id,
    splitLineId: line.id,
    amount: input.amount,
    reason: input.reason,
    destination: input.destination,
    creditNoteId: creditNote.data.id,
    patientDocumentId: patientInvoice?.data.id ?? null,
    createdBy: ctx.userId,
  });
  await ctx.tx
    .update(payerPresentations)
    .set({
      rejectedTotal: new Big(row.rejectedTotal).plus(input.amount).toFixed(2),
      status: row.status === 'accepted' ? 'partially_accepted' : row.status,
      version: row.version + 1,
      updatedAt: new Date(),
      updatedBy: ctx.userId,
    })
    .where(and(eq(payerPresentations.accountId, ctx.accountId), eq(payerPresentations.id, id)));
  await audit(ctx, {
    action: 'payer_rejection_recorded',
    entity: 'payer_presentation',
    entityId: id,
    patientId: line.patient_id,
    after: {
      splitLineId: line.id,
      amount: input.amount,
      reason: input.reason,
      destination: input.destination,
      creditNoteId: creditNote.data.id,
      patientInvoiceId: patientInvoice?.data.id ?? null,
    },
  });
  return { data: await get({ ctx, id }), code: 'payer_rejection_recorded' as const };
}

async function lines({
  ctx,
  id,
  query,
}: {
  ctx: Ctx;
  id: string;
  query: { page: number; pageSize: number };
}): Promise<Page<SplitLine>> {
  const presentation = await get({ ctx, id });
  return {
    data: await presentationLines(ctx, id, query),
    total: presentation.lineCount,
    page: query.page,
    pageSize: query.pageSize,
  };
}

async function printable({ ctx, id }: { ctx: Ctx; id: string }) {
  const presentation = await get({ ctx, id });
  const payer = await payersService.find(ctx, presentation.payerId);
  return { presentation, payer, lines: await allPresentationLines(ctx, id) };
}

export const presentationsService = { list, get, create, send, accept, pay, reject, lines, printable, splitLinesOf };
