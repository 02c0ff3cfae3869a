import '../lib/zod-setup';

/** `/settings/webhooks` (issue 42; settings.manage): subscriptions, the secret shown once, the delivery log. */
export { WebhooksPage as WebhookSettingsPage } from '../features/webhooks/webhooks-page';
