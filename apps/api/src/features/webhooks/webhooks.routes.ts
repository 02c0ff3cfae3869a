import { webhookRoutes as declared } from '@odontia/shared/routes/webhooks';
import type { FastifyPluginAsync } from 'fastify';
import type { Sealer } from '../../lib/secrets.ts';
import { routes } from '../../plugins/routes.ts';
import type { UrlPolicy } from './webhook-url.ts';
import { createWebhooksService } from './webhooks.service.ts';

/** /api/settings/webhooks (issue 42): administrators subscribe URLs to the clinic's events. */
export const webhooksRoutes: FastifyPluginAsync<{ sealer: Sealer; policy: UrlPolicy }> = async (
  app,
  { sealer, policy },
) => {
  const route = routes(app, { tags: ['webhooks'] });
  const service = createWebhooksService({ sealer, policy });
  const read = { permission: 'settings.manage', failureCode: 'error_get_webhook' } as const;
  const write = { permission: 'settings.manage', failureCode: 'error_update_webhook' } as const;

  route.serve(
    declared.list,
    { ...read, summary: "The clinic's webhook subscriptions, newest first" },
    ({ ctx, query }) => service.list({ ctx, query }),
  );
  route.serve(declared.get, { ...read, summary: 'One subscription (never its secret)' }, async ({ ctx, params }) => ({
    data: await service.get({ ctx, id: params.id }),
  }));
  route.serve(
    declared.create,
    {
      ...write,
      summary:
        'Subscribe a URL to events; answers the signing secret this once; 400 webhook_url_refused (scheme, private host)',
    },
    ({ ctx, body }) => service.create({ ctx, input: body }),
  );
  route.serve(
    declared.update,
    { ...write, summary: 'Edit, pause or resume a subscription; 409 version_conflict when stale' },
    ({ ctx, params, body }) => service.update({ ctx, id: params.id, input: body }),
  );
  route.serve(
    declared.remove,
    { ...write, summary: 'Delete a subscription: nothing more is sent; its log is kept' },
    ({ ctx, params }) => service.remove({ ctx, id: params.id }),
  );
  route.serve(
    declared.rotateSecret,
    { ...write, summary: 'A new signing secret, answered this once (the old one stops signing now)' },
    ({ ctx, params }) => service.rotateSecret({ ctx, id: params.id }),
  );
  route.serve(
    declared.attempts,
    { ...read, summary: "The subscription's delivery log: every attempt, newest first" },
    ({ ctx, params, query }) => service.attempts({ ctx, id: params.id, query }),
  );
  route.serve(
    declared.resend,
    { ...write, summary: 'Send an event to the subscription again, with the same Odontia-Event-Id' },
    ({ ctx, params }) => service.resend({ ctx, id: params.id, deliveryId: params.deliveryId }),
  );
};
