import { createHash } from 'node:crypto';
import { idempotencyKeyPattern } from '@odontia/shared/schemas/common';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { idempotencyKeys } from '../db/schema/index.ts';
import type { TenantTx } from '../db/tenancy.ts';
import { AppError } from '../lib/app-error.ts';
import { canonicalJson } from '../lib/canonical-json.ts';

/**
 * Idempotent writes (ARCHITECTURE §4: every write that creates or issues a document or moves money;
 * a route says `idempotent: '<scope>'`, plugins/routes.ts): the request claims its `Idempotency-Key` inside its own
 * transaction (INSERT … ON CONFLICT DO NOTHING on the clinic's key). A second request with the
 * same key — a double click, a retry after a lost answer, another instance — waits on that row
 * until the first commits, then answers what the first answered (`Idempotent-Replayed: true`);
 * if the first rolled back, the key is free again and the second does the work. The same key with
 * another body is refused (409 `idempotency_key_reused`). Nothing lives in an instance's memory.
 */

export function idempotencyKeyOf(request: FastifyRequest): string {
  const value = request.headers['idempotency-key'];
  const key = Array.isArray(value) ? value[0] : value;
  if (!key || !idempotencyKeyPattern.test(key)) throw new AppError('idempotency_key_required');
  return key;
}

interface IdempotentRequest {
  scope: string;
  key: string;
  request: FastifyRequest;
  /** Whether the route reads a body: a route without a body contract ignores whatever is sent. */
  readsBody: boolean;
  reply: FastifyReply;
  status: number;
}

export async function idempotentAnswer<T>(
  ctx: { tx: TenantTx; accountId: string },
  { scope, key, request, readsBody, reply, status }: IdempotentRequest,
  work: () => Promise<T>,
): Promise<T> {
  const requestHash = createHash('sha256')
    .update(canonicalJson({ params: request.params ?? null, body: readsBody ? (request.body ?? null) : null }))
    .digest('hex');
  const claimed = await ctx.tx
    .insert(idempotencyKeys)
    .values({ accountId: ctx.accountId, scope, key, requestHash })
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key });
  if (claimed.length === 0) {
    const [stored] = await ctx.tx
      .select()
      .from(idempotencyKeys)
      .where(
        and(
          eq(idempotencyKeys.accountId, ctx.accountId),
          eq(idempotencyKeys.scope, scope),
          eq(idempotencyKeys.key, key),
        ),
      );
    if (!stored || stored.requestHash !== requestHash || stored.answer === null) {
      throw new AppError('idempotency_key_reused');
    }
    reply.status(stored.statusCode ?? status).header('idempotent-replayed', 'true');
    return stored.answer as T;
  }
  const answer = await work();
  await ctx.tx
    .update(idempotencyKeys)
    .set({ statusCode: status, answer: sql`${JSON.stringify(answer)}::jsonb` })
    .where(
      and(eq(idempotencyKeys.accountId, ctx.accountId), eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, key)),
    );
  return answer;
}
