import { randomBytes } from 'node:crypto';
import type { PageQuery } from '@odontia/shared/schemas/records';
import type {
  WebhookAttempt,
  WebhookDeliveryState,
  WebhookEventType,
  WebhookInput,
  WebhookSubscription,
} from '@odontia/shared/schemas/webhooks';
import type { RequestContext } from '../../context.ts';
import { AppError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';
import type { Sealer } from '../../lib/secrets.ts';
import { audit } from '../audit/audit.repository.ts';
import { changedFields } from '../audit/record-changes.ts';
import { queueDeliveries } from './webhook-events.ts';
import { refusedUrl, type UrlPolicy } from './webhook-url.ts';
import * as repository from './webhooks.repository.ts';

/**
 * The clinic's webhook subscriptions (issue 42): URL policy, the secret (made here, sealed at rest,
 * answered once at creation and at each rotation), pause, soft delete, the delivery log and resend.
 * Changes are audited (entity `webhook_subscription`; the secret never appears in the audit).
 */

const newSecret = () => `whsec_${randomBytes(24).toString('base64url')}`;

function present(row: repository.SubscriptionRow): WebhookSubscription {
  return {
    id: row.id,
    url: row.url,
    events: row.events as WebhookEventType[],
    active: row.active,
    description: row.description,
    secretHint: row.secretHint,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    version: row.version,
    lastAttempt: row.lastAttempt
      ? {
          at: new Date(row.lastAttempt.at).toISOString(),
          statusCode: row.lastAttempt.statusCode,
          ok: row.lastAttempt.ok,
        }
      : null,
  };
}

const audited = (input: Pick<WebhookInput, 'url' | 'events' | 'active' | 'description'>) => ({
  url: input.url,
  events: input.events,
  active: input.active,
  description: input.description,
});

export function createWebhooksService(deps: { sealer: Sealer; policy: UrlPolicy }) {
  function checkUrl(url: string) {
    const refused = refusedUrl(url, deps.policy);
    if (refused)
      throw new AppError('webhook_url_refused', { fields: [{ path: 'url', code: 'invalid_value' }], reason: refused });
  }

  async function get(ctx: RequestContext, id: string): Promise<WebhookSubscription> {
    const row = await repository.findSubscription(ctx, id);
    if (!row) throw new AppError('webhook_not_found');
    return present(row);
  }

  async function lock(ctx: RequestContext, id: string) {
    const row = await repository.findSubscription(ctx, id, true);
    if (!row) throw new AppError('webhook_not_found');
    return row;
  }

  return {
    async list({ ctx, query }: { ctx: RequestContext; query: PageQuery }) {
      const { rows, total } = await repository.pageSubscriptions(ctx, query);
      return { data: rows.map(present), total, page: query.page, pageSize: query.pageSize };
    },

    get: ({ ctx, id }: { ctx: RequestContext; id: string }) => get(ctx, id),

    async create({ ctx, input }: { ctx: RequestContext; input: WebhookInput }) {
      checkUrl(input.url);
      const id = newId();
      const secret = newSecret();
      await repository.insertSubscription(ctx, {
        id,
        url: input.url,
        events: input.events,
        active: input.active,
        description: input.description,
        secretSealed: deps.sealer.seal(secret),
        secretHint: secret.slice(-4),
      });
      await audit(ctx, {
        action: 'webhook_subscription_created',
        entity: 'webhook_subscription',
        entityId: id,
        after: audited(input),
      });
      return { data: await get(ctx, id), secret, code: 'webhook_created' as const };
    },

    async update({ ctx, id, input }: { ctx: RequestContext; id: string; input: WebhookInput & { version: number } }) {
      const current = await lock(ctx, id);
      if (current.version !== input.version) throw new AppError('version_conflict', { current: present(current) });
      checkUrl(input.url);
      const { before, after } = changedFields(
        audited({ ...current, events: current.events as WebhookEventType[] }),
        audited(input),
      );
      await repository.updateSubscription(ctx, id, {
        url: input.url,
        events: input.events,
        active: input.active,
        description: input.description,
      });
      await audit(ctx, {
        action: 'webhook_subscription_updated',
        entity: 'webhook_subscription',
        entityId: id,
        before,
        after,
      });
      return { data: await get(ctx, id), code: 'webhook_updated' as const };
    },

    async remove({ ctx, id }: { ctx: RequestContext; id: string }) {
      const current = await lock(ctx, id);
      await repository.updateSubscription(ctx, id, { deletedAt: new Date(), deletedBy: ctx.userId });
      await audit(ctx, {
        action: 'webhook_subscription_deleted',
        entity: 'webhook_subscription',
        entityId: id,
        before: audited({ ...current, events: current.events as WebhookEventType[] }),
      });
      return { code: 'webhook_deleted' as const };
    },

    async rotateSecret({ ctx, id }: { ctx: RequestContext; id: string }) {
      await lock(ctx, id);
      const secret = newSecret();
      await repository.updateSubscription(ctx, id, {
        secretSealed: deps.sealer.seal(secret),
        secretHint: secret.slice(-4),
      });
      await audit(ctx, {
        action: 'webhook_secret_rotated',
        entity: 'webhook_subscription',
        entityId: id,
        after: { secretHint: secret.slice(-4) },
      });
      return { data: await get(ctx, id), secret, code: 'webhook_secret_rotated' as const };
    },

    async attempts({ ctx, id, query }: { ctx: RequestContext; id: string; query: PageQuery }) {
      await get(ctx, id);
      const { rows, total } = await repository.pageAttempts(ctx, id, query);
      const data: WebhookAttempt[] = rows.map((row) => ({
        ...row,
        eventType: row.eventType as WebhookEventType,
        deliveryState: row.deliveryState as WebhookDeliveryState,
        attemptedAt: row.attemptedAt.toISOString(),
      }));
      return { data, total, page: query.page, pageSize: query.pageSize };
    },

    /** "Reenviar": the same event (same Odontia-Event-Id) to the subscription once more, now. */
    async resend({ ctx, id, deliveryId }: { ctx: RequestContext; id: string; deliveryId: string }) {
      await lock(ctx, id);
      const delivery = await repository.lockDelivery(ctx, id, deliveryId);
      if (!delivery) throw new AppError('webhook_delivery_not_found');
      await repository.markPending(ctx, deliveryId);
      await queueDeliveries(ctx, [deliveryId], true);
      await audit(ctx, {
        action: 'webhook_resent',
        entity: 'webhook_subscription',
        entityId: id,
        after: { deliveryId, eventId: delivery.eventId },
      });
      return {
        data: { deliveryId, eventId: delivery.eventId, state: 'pending' as const },
        code: 'webhook_resend_queued' as const,
      };
    },
  };
}
