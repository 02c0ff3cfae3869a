import { and, eq, sql } from 'drizzle-orm';
import { commercialDocuments, einvoiceSubmissions } from '../../../db/schema/index.ts';
import { enqueueJob } from '../../jobs/jobs.repository.ts';
import type { JobContext, JobHandler } from '../../jobs/jobs.worker.ts';
import { type EinvoiceAnswer, type EinvoiceDocument, einvoiceAdapter } from './adapters.ts';

/** The job that sends an issued sale to the e-invoicing authority (key = the document's id). */
export const einvoiceJobKind = 'einvoice.submit';

type Ctx = JobContext;

/** Issue: a pending submission and its job, in the issuing transaction. */
export async function queueEinvoice(ctx: Ctx, documentId: string): Promise<void> {
  const adapter = einvoiceAdapter();
  await ctx.tx.insert(einvoiceSubmissions).values({
    accountId: ctx.accountId,
    documentId,
    adapter: adapter.name,
    status: 'pending',
  });
  await enqueueJob(ctx, { kind: einvoiceJobKind, key: documentId, runAt: new Date(), payload: { documentId } });
}

async function record(ctx: Ctx, documentId: string, attempts: number, answer: EinvoiceAnswer) {
  await ctx.tx
    .update(einvoiceSubmissions)
    .set({
      status: answer.status,
      attempts,
      authorizationCode: answer.status === 'accepted' ? answer.authorizationCode : null,
      authorizedAt: answer.status === 'accepted' ? new Date() : null,
      response: answer.response ?? null,
      lastError: answer.status === 'rejected' ? answer.reason : null,
      updatedAt: new Date(),
    })
    .where(and(eq(einvoiceSubmissions.accountId, ctx.accountId), eq(einvoiceSubmissions.documentId, documentId)));
}

/**
 * Runs a submission: nothing when it is no longer pending; before a retry (attempts > 0) asks the
 * authority whether the last try arrived; else submits. A throw (authority unreachable) counts the
 * attempt in a transaction of its own and lets the queue retry later.
 */
export async function runEinvoiceSubmission(ctx: Ctx, documentId: string, jobAttempt = 1): Promise<void> {
  const [submission] = await ctx.tx
    .select()
    .from(einvoiceSubmissions)
    .where(and(eq(einvoiceSubmissions.accountId, ctx.accountId), eq(einvoiceSubmissions.documentId, documentId)))
    .for('no key update');
  if (submission?.status !== 'pending') return;
  const adapter = einvoiceAdapter(submission.adapter);
  // The job's attempt counts tries whose transaction rolled back (the authority unreachable) too.
  const earlier = Math.max(submission.attempts, jobAttempt - 1);
  const attempts = earlier + 1;
  if (earlier > 0) {
    const known = await adapter.query(documentId);
    if (known) return record(ctx, documentId, attempts, known);
  }
  const [document] = await ctx.tx
    .select()
    .from(commercialDocuments)
    .where(and(eq(commercialDocuments.accountId, ctx.accountId), eq(commercialDocuments.id, documentId)));
  if (!document?.contentHash || !document.pointOfService || !document.documentNumber) return;
  const snapshot = (value: unknown) => {
    const party = (value ?? {}) as { name?: unknown; taxId?: unknown };
    return { name: party.name ?? null, taxId: party.taxId ?? null };
  };
  const payload: EinvoiceDocument = {
    id: document.id,
    documentType: document.documentType,
    pointOfService: document.pointOfService,
    documentNumber: document.documentNumber,
    date: document.date,
    currency: document.currency,
    total: document.total,
    vatTotal: document.vatTotal,
    contentHash: document.contentHash,
    issuer: snapshot(document.issuerSnapshot),
    customer: snapshot(document.counterpartySnapshot),
  };
  // Counted before the call: a crash in between makes the next run query first.
  await ctx.tx.execute(sql`
    update einvoice_submissions set attempts = ${attempts}, updated_at = now()
    where account_id = ${ctx.accountId}::uuid and document_id = ${documentId}::uuid`);
  const answer = await adapter.submit(payload, documentId);
  await record(ctx, documentId, attempts, answer);
}

export const einvoiceHandler: JobHandler = {
  async run(ctx, job) {
    await runEinvoiceSubmission(ctx, job.key, job.attempts);
  },
};
