import type { WebhookEventType } from '@odontia/shared/schemas/webhooks';
import { and, count, desc, eq, isNull, sql } from 'drizzle-orm';
import type { TxContext } from '../../context.ts';
import { webhookAttempts, webhookDeliveries, webhookEvents, webhookSubscriptions } from '../../db/schema/index.ts';

/** The webhooks' SQL (issue 42): every statement names the clinic first; RLS checks it again. */

const live = (ctx: TxContext, id?: string) =>
  and(
    eq(webhookSubscriptions.accountId, ctx.accountId),
    isNull(webhookSubscriptions.deletedAt),
    ...(id ? [eq(webhookSubscriptions.id, id)] : []),
  );

/** The newest attempt of the subscription (through its log index). */
const lastAttempt = sql<{ at: string; statusCode: number | null; ok: boolean } | null>`(
  select json_build_object('at', a.attempted_at, 'statusCode', a.status_code, 'ok', a.ok)
  from ${webhookAttempts} a
  where a.account_id = ${webhookSubscriptions.accountId} and a.subscription_id = ${webhookSubscriptions.id}
  order by a.attempted_at desc, a.id desc limit 1)`;

const columns = {
  id: webhookSubscriptions.id,
  url: webhookSubscriptions.url,
  events: webhookSubscriptions.events,
  active: webhookSubscriptions.active,
  description: webhookSubscriptions.description,
  secretHint: webhookSubscriptions.secretHint,
  createdAt: webhookSubscriptions.createdAt,
  updatedAt: webhookSubscriptions.updatedAt,
  version: webhookSubscriptions.version,
  lastAttempt,
};

export type SubscriptionRow = {
  id: string;
  url: string;
  events: string[];
  active: boolean;
  description: string | null;
  secretHint: string;
  createdAt: Date;
  updatedAt: Date;
  version: number;
  lastAttempt: { at: string; statusCode: number | null; ok: boolean } | null;
};

export async function pageSubscriptions(ctx: TxContext, page: { page: number; pageSize: number }) {
  const rows = await ctx.tx
    .select(columns)
    .from(webhookSubscriptions)
    .where(live(ctx))
    .orderBy(desc(webhookSubscriptions.createdAt), desc(webhookSubscriptions.id))
    .limit(page.pageSize)
    .offset((page.page - 1) * page.pageSize);
  const [total] = await ctx.tx.select({ n: count() }).from(webhookSubscriptions).where(live(ctx));
  return { rows: rows as SubscriptionRow[], total: total?.n ?? 0 };
}

export async function findSubscription(ctx: TxContext, id: string, forUpdate = false) {
  const query = ctx.tx.select(columns).from(webhookSubscriptions).where(live(ctx, id));
  const [row] = forUpdate ? await query.for('update', { of: webhookSubscriptions }) : await query;
  return row as SubscriptionRow | undefined;
}

export async function insertSubscription(
  ctx: TxContext & { userId: string },
  row: {
    id: string;
    url: string;
    events: WebhookEventType[];
    active: boolean;
    description: string | null;
    secretSealed: string;
    secretHint: string;
  },
) {
  await ctx.tx
    .insert(webhookSubscriptions)
    .values({ accountId: ctx.accountId, ...row, createdBy: ctx.userId, updatedBy: ctx.userId });
}

export async function updateSubscription(
  ctx: TxContext & { userId: string },
  id: string,
  set: Partial<{
    url: string;
    events: WebhookEventType[];
    active: boolean;
    description: string | null;
    secretSealed: string;
    secretHint: string;
    deletedAt: Date;
    deletedBy: string;
  }>,
) {
  await ctx.tx
    .update(webhookSubscriptions)
    .set({ ...set, updatedAt: sql`now()`, updatedBy: ctx.userId, version: sql`${webhookSubscriptions.version} + 1` })
    .where(live(ctx, id));
}

/** A subscription's log: its attempts, newest first, with the event and the delivery's state now. */
export async function pageAttempts(ctx: TxContext, subscriptionId: string, page: { page: number; pageSize: number }) {
  const where = and(eq(webhookAttempts.accountId, ctx.accountId), eq(webhookAttempts.subscriptionId, subscriptionId));
  const rows = await ctx.tx
    .select({
      id: webhookAttempts.id,
      deliveryId: webhookAttempts.deliveryId,
      eventId: webhookDeliveries.eventId,
      eventType: webhookEvents.type,
      attemptedAt: webhookAttempts.attemptedAt,
      statusCode: webhookAttempts.statusCode,
      durationMs: webhookAttempts.durationMs,
      ok: webhookAttempts.ok,
      error: webhookAttempts.error,
      responseExcerpt: webhookAttempts.responseExcerpt,
      deliveryState: webhookDeliveries.state,
      resent: webhookAttempts.resent,
    })
    .from(webhookAttempts)
    .innerJoin(
      webhookDeliveries,
      and(
        eq(webhookDeliveries.accountId, webhookAttempts.accountId),
        eq(webhookDeliveries.id, webhookAttempts.deliveryId),
      ),
    )
    .innerJoin(
      webhookEvents,
      and(eq(webhookEvents.accountId, webhookDeliveries.accountId), eq(webhookEvents.id, webhookDeliveries.eventId)),
    )
    .where(where)
    .orderBy(desc(webhookAttempts.attemptedAt), desc(webhookAttempts.id))
    .limit(page.pageSize)
    .offset((page.page - 1) * page.pageSize);
  const [total] = await ctx.tx.select({ n: count() }).from(webhookAttempts).where(where);
  return { rows, total: total?.n ?? 0 };
}

/** A delivery of the subscription, locked (a resend), or nothing. */
export async function lockDelivery(ctx: TxContext, subscriptionId: string, deliveryId: string) {
  const [row] = await ctx.tx
    .select({ id: webhookDeliveries.id, eventId: webhookDeliveries.eventId, state: webhookDeliveries.state })
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.accountId, ctx.accountId),
        eq(webhookDeliveries.id, deliveryId),
        eq(webhookDeliveries.subscriptionId, subscriptionId),
      ),
    )
    .for('update');
  return row;
}

export async function markPending(ctx: TxContext, deliveryId: string) {
  await ctx.tx
    .update(webhookDeliveries)
    .set({ state: 'pending', updatedAt: sql`now()` })
    .where(and(eq(webhookDeliveries.accountId, ctx.accountId), eq(webhookDeliveries.id, deliveryId)));
}
