import type { WebhookEventType } from '@odontia/shared/schemas/webhooks';
import { and, arrayContains, eq, isNull } from 'drizzle-orm';
import type { TxContext } from '../../context.ts';
import { webhookDeliveries, webhookEvents, webhookSubscriptions } from '../../db/schema/index.ts';
import { newId } from '../../lib/ids.ts';
import { enqueueJobs } from '../jobs/jobs.repository.ts';
import { nudgeJobs } from '../jobs/jobs.worker.ts';

/**
 * The webhooks' outbox (issue 42): called by the services where a change happens (an appointment
 * booked, moved or cancelled, a patient created or updated, an invoice issued, a collection
 * recorded), in the SAME transaction, so an event exists exactly when its change committed. One
 * read when no subscription wants the type (the usual case: nothing written); otherwise the event,
 * one delivery per active subscription and one `webhook_deliver` job each, three statements
 * whatever their number. The job queue delivers them after the commit (webhook.job.ts).
 */

export const webhookDeliverJobKind = 'webhook_deliver';
/** Attempts of a delivery: now, then 1 min, 5 min, 30 min, 2 h, 2 h, 2 h, 2 h (jobs.worker.ts backoff): about 9 hours. */
export const webhookMaxAttempts = 8;

/** JSON values only: ids, times as ISO text, states, amounts as decimal text with their currency. */
export type WebhookData = Record<string, string | number | boolean | null | string[]>;

export async function recordWebhookEvent(ctx: TxContext, type: WebhookEventType, data: WebhookData): Promise<void> {
  const { tx, accountId } = ctx;
  const subscribed = await tx
    .select({ id: webhookSubscriptions.id })
    .from(webhookSubscriptions)
    .where(
      and(
        eq(webhookSubscriptions.accountId, accountId),
        isNull(webhookSubscriptions.deletedAt),
        eq(webhookSubscriptions.active, true),
        arrayContains(webhookSubscriptions.events, [type]),
      ),
    );
  if (subscribed.length === 0) return;
  const eventId = newId();
  await tx.insert(webhookEvents).values({ accountId, id: eventId, type, data });
  const deliveries = subscribed.map((subscription) => ({
    accountId,
    id: newId(),
    subscriptionId: subscription.id,
    eventId,
  }));
  await tx.insert(webhookDeliveries).values(deliveries);
  await queueDeliveries(
    ctx,
    deliveries.map((delivery) => delivery.id),
  );
}

/** A `webhook_deliver` job per delivery, due now (a resend queues one more for the same delivery). */
export async function queueDeliveries(ctx: TxContext, deliveryIds: readonly string[], resent = false): Promise<void> {
  await enqueueJobs(
    ctx,
    deliveryIds.map((id) => ({
      kind: webhookDeliverJobKind,
      key: id,
      runAt: new Date(),
      payload: resent ? { resent: true } : {},
      maxAttempts: webhookMaxAttempts,
    })),
  );
  // The worker looks within a moment, once this transaction has committed.
  nudgeJobs();
}
