import { createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { webhookExcerptMax } from '@odontia/shared/schemas/webhooks';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { webhookAttempts, webhookDeliveries, webhookEvents, webhookSubscriptions } from '../../db/schema/index.ts';
import { newId } from '../../lib/ids.ts';
import type { Sealer } from '../../lib/secrets.ts';
import type { ClaimedJob, JobContext, JobHandler, JobRetry } from '../jobs/jobs.worker.ts';
import {
  lookupAllWith,
  pinnedLookup,
  resolveWebhookTarget,
  type UrlPolicy,
  type WebhookTarget,
} from './webhook-url.ts';

/**
 * Delivers a webhook (issue 42), a `webhook_deliver` job per delivery (webhook-events.ts):
 *
 * 1. prepare: reads the delivery, its subscription (URL, sealed secret, paused?) and its event;
 * 2. the POST, with no row held in a batch (the worker's `work`): JSON `{ id, type, createdAt,
 *    clinicId, data }`, headers Odontia-Event-Id (the event's id: the same on every retry and
 *    resend), Odontia-Timestamp and Odontia-Signature `v1=<hex HMAC-SHA256 of "<timestamp>.<body>">`;
 *    redirects are not followed, the receiver has WEBHOOK_TIMEOUT_MS to answer; the host is resolved
 *    once, checked (webhook-url.ts) and the socket connects to exactly the checked addresses
 *    (node:http/https with a pinned `lookup`; Host and TLS SNI/certificate on the hostname);
 * 3. run: the attempt is recorded (status, duration, error, the answer's first bytes); a 2xx marks
 *    the delivery delivered, anything else counts a failed attempt and the job retries with the
 *    queue's backoff, until the last attempt marks it failed. At least once: a receiver dedupes
 *    on Odontia-Event-Id.
 */

export function signWebhook(secret: string, timestamp: string, body: string): string {
  return `v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

type Prepared =
  | { kind: 'skip'; why: string | null; subscriptionId: string; deliveryId: string }
  | {
      kind: 'send';
      deliveryId: string;
      subscriptionId: string;
      url: string;
      secret: string;
      eventId: string;
      body: string;
    };

interface Outcome {
  deliveryId: string;
  subscriptionId: string;
  statusCode: number | null;
  ok: boolean;
  durationMs: number;
  error: string | null;
  excerpt: string | null;
}

const oneLine = (text: string, max = 500) => text.replace(/\s+/g, ' ').trim().slice(0, max);

/**
 * One POST to a checked target: node:http/https (not `fetch`, which would resolve the name again)
 * with a `lookup` that answers only the checked addresses. Redirects are not followed (a 3xx is
 * answered as it is). Reads at most `max` characters of the answer, then lets go of the rest.
 */
function postPinned(
  url: URL,
  target: WebhookTarget,
  request: { headers: Record<string, string>; body: string; signal: AbortSignal; max: number; ca?: string },
): Promise<{ status: number; excerpt: string | null }> {
  return new Promise((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http;
    const body = Buffer.from(request.body, 'utf8');
    const outgoing = client.request(
      url,
      {
        method: 'POST',
        headers: { ...request.headers, 'content-length': String(body.length) },
        lookup: pinnedLookup(target),
        // TLS: SNI and the certificate's check on the hostname, never on the address.
        // (An IP literal sends no SNI: RFC 6066 forbids it; the certificate is then checked on the IP.)
        ...(url.protocol === 'https:' && isIP(target.hostname) === 0 ? { servername: target.hostname } : {}),
        ...(request.ca ? { ca: request.ca } : {}),
        agent: false,
        signal: request.signal,
      },
      (response) => {
        const decoder = new TextDecoder();
        let text = '';
        const finish = () => {
          response.destroy();
          resolve({ status: response.statusCode ?? 0, excerpt: text ? text.slice(0, request.max) : null });
        };
        response.on('data', (chunk: Buffer) => {
          text += decoder.decode(chunk, { stream: true });
          if (text.length >= request.max) finish();
        });
        response.on('end', finish);
        response.on('error', finish);
        response.on('aborted', finish);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

export async function postWebhook(
  prepared: Extract<Prepared, { kind: 'send' }>,
  options: UrlPolicy & {
    timeoutMs: number;
    /** The DNS look-up (tests: a stub); the connection never calls it, it uses what it answered. */
    resolve?: LookupFunction;
    /** The certificate authorities trusted instead of Node's (tests: their own CA); unset in the app. */
    ca?: string;
  },
): Promise<Outcome> {
  const started = performance.now();
  const base = { deliveryId: prepared.deliveryId, subscriptionId: prepared.subscriptionId };
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const resolved = await resolveWebhookTarget(prepared.url, options, lookupAllWith(options.resolve));
    if ('refused' in resolved) {
      return {
        ...base,
        statusCode: null,
        ok: false,
        durationMs: elapsed(),
        error: `refused: ${resolved.refused}`,
        excerpt: null,
      };
    }
    const timestamp = String(Math.floor(Date.now() / 1000));
    const signal = AbortSignal.timeout(options.timeoutMs);
    const response = await postPinned(new URL(prepared.url), resolved.target, {
      signal,
      ca: options.ca,
      max: webhookExcerptMax,
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Odontia-Webhooks/1',
        'odontia-event-id': prepared.eventId,
        'odontia-timestamp': timestamp,
        'odontia-signature': signWebhook(prepared.secret, timestamp, prepared.body),
      },
      body: prepared.body,
    });
    const excerpt = response.excerpt;
    const ok = response.status >= 200 && response.status < 300;
    return {
      ...base,
      statusCode: response.status,
      ok,
      durationMs: elapsed(),
      error: ok ? null : `HTTP ${response.status}`,
      excerpt: excerpt === null ? null : oneLine(excerpt, webhookExcerptMax),
    };
  } catch (error) {
    const timedOut =
      error instanceof Error &&
      (error.name === 'TimeoutError' || error.name === 'AbortError' || error.cause instanceof DOMException);
    const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
    const message = timedOut
      ? `timeout after ${options.timeoutMs} ms`
      : oneLine(`${error instanceof Error ? error.message : String(error)}${cause}`);
    return { ...base, statusCode: null, ok: false, durationMs: elapsed(), error: message, excerpt: null };
  }
}

export function webhookDeliverHandler(deps: { sealer: Sealer; allowPrivate: boolean; timeoutMs: number }): JobHandler {
  const options = { allowPrivate: deps.allowPrivate, timeoutMs: deps.timeoutMs };

  async function prepareAll(ctx: JobContext, list: readonly ClaimedJob[]): Promise<Map<string, unknown>> {
    const answers = new Map<string, unknown>();
    const ids = list.map((job) => job.key);
    if (ids.length === 0) return answers;
    const rows = await ctx.tx
      .select({
        deliveryId: webhookDeliveries.id,
        state: webhookDeliveries.state,
        subscriptionId: webhookSubscriptions.id,
        url: webhookSubscriptions.url,
        secretSealed: webhookSubscriptions.secretSealed,
        active: webhookSubscriptions.active,
        deletedAt: webhookSubscriptions.deletedAt,
        eventId: webhookEvents.id,
        type: webhookEvents.type,
        data: webhookEvents.data,
        createdAt: webhookEvents.createdAt,
      })
      .from(webhookDeliveries)
      .innerJoin(
        webhookSubscriptions,
        and(
          eq(webhookSubscriptions.accountId, webhookDeliveries.accountId),
          eq(webhookSubscriptions.id, webhookDeliveries.subscriptionId),
        ),
      )
      .innerJoin(
        webhookEvents,
        and(eq(webhookEvents.accountId, webhookDeliveries.accountId), eq(webhookEvents.id, webhookDeliveries.eventId)),
      )
      .where(and(eq(webhookDeliveries.accountId, ctx.accountId), inArray(webhookDeliveries.id, ids)));
    const byId = new Map(rows.map((row) => [row.deliveryId, row]));
    for (const job of list) {
      const row = byId.get(job.key);
      if (!row) {
        answers.set(job.id, { kind: 'skip', why: null, subscriptionId: '', deliveryId: job.key } satisfies Prepared);
        continue;
      }
      const base = { deliveryId: row.deliveryId, subscriptionId: row.subscriptionId };
      if (row.deletedAt) answers.set(job.id, { kind: 'skip', why: 'subscription deleted', ...base } satisfies Prepared);
      else if (!row.active)
        answers.set(job.id, { kind: 'skip', why: 'subscription paused', ...base } satisfies Prepared);
      // Delivered already (a retry that raced a success): once is enough, unless someone asked again.
      else if (row.state === 'delivered' && !job.payload.resent)
        answers.set(job.id, { kind: 'skip', why: null, ...base } satisfies Prepared);
      else {
        const body = JSON.stringify({
          id: row.eventId,
          type: row.type,
          createdAt: row.createdAt.toISOString(),
          clinicId: ctx.accountId,
          data: row.data,
        });
        answers.set(job.id, {
          kind: 'send',
          ...base,
          url: row.url,
          secret: deps.sealer.unseal(row.secretSealed),
          eventId: row.eventId,
          body,
        } satisfies Prepared);
      }
    }
    return answers;
  }

  /** Outside any transaction in a batch: the POSTs, all at once (each bounded by the timeout). */
  async function sendAll(list: readonly ClaimedJob[], prepared: Map<string, unknown>): Promise<Map<string, unknown>> {
    const answers = new Map<string, unknown>(prepared);
    await Promise.all(
      list.map(async (job) => {
        const state = prepared.get(job.id) as Prepared | undefined;
        if (state?.kind === 'send') answers.set(job.id, await postWebhook(state, options));
      }),
    );
    return answers;
  }

  async function recordAll(
    ctx: JobContext,
    list: readonly ClaimedJob[],
    worked: Map<string, unknown>,
  ): Promise<Map<string, JobRetry>> {
    const failed = new Map<string, JobRetry>();
    const attempts: (typeof webhookAttempts.$inferInsert)[] = [];
    for (const job of list) {
      const answer = worked.get(job.id) as Prepared | Outcome | undefined;
      if (!answer || !('ok' in answer)) {
        const skip = answer as Extract<Prepared, { kind: 'skip' }> | undefined;
        if (skip?.why && skip.subscriptionId) {
          // Paused or deleted since: nothing is sent, and the log says why.
          attempts.push({
            accountId: ctx.accountId,
            id: newId(),
            deliveryId: skip.deliveryId,
            subscriptionId: skip.subscriptionId,
            durationMs: 0,
            ok: false,
            error: skip.why,
            resent: Boolean(job.payload.resent),
          });
          await ctx.tx
            .update(webhookDeliveries)
            .set({ state: 'failed', updatedAt: sql`now()` })
            .where(and(eq(webhookDeliveries.accountId, ctx.accountId), eq(webhookDeliveries.id, skip.deliveryId)));
        }
        continue;
      }
      attempts.push({
        accountId: ctx.accountId,
        id: newId(),
        deliveryId: answer.deliveryId,
        subscriptionId: answer.subscriptionId,
        statusCode: answer.statusCode,
        durationMs: answer.durationMs,
        ok: answer.ok,
        error: answer.error,
        responseExcerpt: answer.excerpt,
        resent: Boolean(job.payload.resent),
      });
      const final = job.attempts >= job.maxAttempts;
      await ctx.tx
        .update(webhookDeliveries)
        .set({
          state: answer.ok ? 'delivered' : final ? 'failed' : 'pending',
          attempts: sql`${webhookDeliveries.attempts} + 1`,
          ...(answer.ok ? { deliveredAt: sql`now()` } : {}),
          updatedAt: sql`now()`,
        })
        .where(and(eq(webhookDeliveries.accountId, ctx.accountId), eq(webhookDeliveries.id, answer.deliveryId)));
      if (!answer.ok) failed.set(job.id, { retry: answer.error ?? 'failed' });
    }
    if (attempts.length > 0) await ctx.tx.insert(webhookAttempts).values(attempts);
    return failed;
  }

  return {
    async prepare(ctx, job) {
      return (await prepareAll(ctx, [job])).get(job.id);
    },
    async run(ctx, job, prepared) {
      const worked = await sendAll([job], new Map([[job.id, prepared]]));
      return (await recordAll(ctx, [job], worked)).get(job.id);
    },
    batch: {
      size: 20,
      prepare: prepareAll,
      work: sendAll,
      run: recordAll,
    },
  };
}
