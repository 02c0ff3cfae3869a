import { and, count, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { TxContext } from '../../context.ts';
import { apiTokens, users } from '../../db/schema/index.ts';

/** SQL of the API tokens (issue 42): a clinic's or a person's tokens, newest first, under RLS. */

/** A person's own tokens, the clinic's, or every member's personal ones (`members`: the administrator's view). */
export type ApiTokenKindFilter = { kind: 'personal'; userId: string } | { kind: 'clinic' } | { kind: 'members' };

const whose = (ctx: TxContext, filter: ApiTokenKindFilter) =>
  and(
    eq(apiTokens.accountId, ctx.accountId),
    eq(apiTokens.kind, filter.kind === 'members' ? 'personal' : filter.kind),
    filter.kind === 'personal' ? eq(apiTokens.userId, filter.userId) : undefined,
  );

const owners = alias(users, 'owners');

const columns = {
  id: apiTokens.id,
  kind: apiTokens.kind,
  name: apiTokens.name,
  prefix: apiTokens.prefix,
  scopes: apiTokens.scopes,
  rateLimitPerMinute: apiTokens.rateLimitPerMinute,
  expiresAt: apiTokens.expiresAt,
  lastUsedAt: apiTokens.lastUsedAt,
  revokedAt: apiTokens.revokedAt,
  createdAt: apiTokens.createdAt,
  createdByName: users.completeName,
  ownerId: apiTokens.userId,
  ownerName: owners.completeName,
};

const selectTokens = (ctx: TxContext) =>
  ctx.tx
    .select(columns)
    .from(apiTokens)
    .leftJoin(users, and(eq(users.accountId, apiTokens.accountId), eq(users.id, apiTokens.createdBy)))
    .leftJoin(owners, and(eq(owners.accountId, apiTokens.accountId), eq(owners.id, apiTokens.userId)));

export type ApiTokenRow = Awaited<ReturnType<ReturnType<typeof selectTokens>['execute']>>[number];

export async function pageTokens(
  ctx: TxContext,
  filter: ApiTokenKindFilter,
  { page, pageSize }: { page: number; pageSize: number },
): Promise<{ rows: ApiTokenRow[]; total: number }> {
  const rows = await selectTokens(ctx)
    .where(whose(ctx, filter))
    .orderBy(desc(apiTokens.createdAt), desc(apiTokens.id))
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  const [counted] = await ctx.tx.select({ total: count() }).from(apiTokens).where(whose(ctx, filter));
  return { rows, total: counted?.total ?? 0 };
}

export async function findToken(
  ctx: TxContext,
  filter: ApiTokenKindFilter,
  id: string,
  lock = false,
): Promise<ApiTokenRow | undefined> {
  const query = selectTokens(ctx).where(and(whose(ctx, filter), eq(apiTokens.id, id)));
  const [row] = lock ? await query.for('update', { of: apiTokens }) : await query;
  return row;
}

/** Live tokens (neither revoked nor expired) of the person or the clinic. */
export async function countLive(ctx: TxContext, filter: ApiTokenKindFilter, at: Date): Promise<number> {
  const [row] = await ctx.tx
    .select({ total: count() })
    .from(apiTokens)
    .where(and(whose(ctx, filter), isNull(apiTokens.revokedAt), gt(apiTokens.expiresAt, at)));
  return row?.total ?? 0;
}

export async function insertToken(ctx: TxContext, row: Omit<typeof apiTokens.$inferInsert, 'accountId'>) {
  await ctx.tx.insert(apiTokens).values({ ...row, accountId: ctx.accountId });
}

export async function markRevoked(ctx: TxContext, id: string, by: string): Promise<void> {
  await ctx.tx
    .update(apiTokens)
    .set({ revokedAt: sql`now()`, revokedBy: by })
    .where(and(eq(apiTokens.accountId, ctx.accountId), eq(apiTokens.id, id)));
}
