import { z } from 'zod';
import { instantText, named } from '../api-schema.ts';
import { optionalText, safeText } from '../validation.ts';
import { idSchema, pageSchema } from './common.ts';
import { pageQuerySchema, versionField } from './records.ts';

/**
 * Webhooks for integrators (issue 42): the administrator subscribes URLs to the clinic's events;
 * each event is recorded in the transaction of the change (an outbox) and POSTed, signed, by the
 * job queue, with retries. /api/settings/webhooks[/:id[/rotate-secret|/attempts|/deliveries/:deliveryId/resend]]:
 * administrators (`settings.manage`). docs/api.md "Webhooks" documents the payloads and the signature.
 */

export const webhookEventTypes = [
  'appointment.booked',
  'appointment.moved',
  'appointment.cancelled',
  'patient.created',
  'patient.updated',
  'invoice.issued',
  'collection.recorded',
] as const;
export type WebhookEventType = (typeof webhookEventTypes)[number];

export const webhookDeliveryStates = ['pending', 'delivered', 'failed'] as const;
export type WebhookDeliveryState = (typeof webhookDeliveryStates)[number];

/** Most characters of a subscription's URL (the column's check says the same). */
export const webhookUrlMax = 2000;
/** How much of a receiver's answer an attempt keeps. */
export const webhookExcerptMax = 500;

/**
 * A URL as typed: http(s) only, no credentials in it. Whether plain http or a private host is
 * allowed is the server's decision (WEBHOOKS_ALLOW_PRIVATE_HTTP): 400 `webhook_url_refused`.
 */
export const webhookUrlField = () =>
  safeText()
    .trim()
    .min(1, 'required')
    .max(webhookUrlMax, 'too_long')
    // http(s), a host without credentials (no `@` before the path); the server parses it again.
    .regex(/^https?:\/\/[^\s/?#@]+(?:[/?#]\S*)?$/i, 'invalid_format');

const webhookFields = {
  url: webhookUrlField(),
  events: z
    .array(z.enum(webhookEventTypes, 'invalid_value'))
    .min(1, 'required')
    .max(webhookEventTypes.length, 'too_big')
    .transform((events) => [...new Set(events)]),
  active: z.boolean().default(true),
  description: optionalText(500),
};

export const createWebhookSchema = z.object(webhookFields);
export const updateWebhookSchema = z.object({ ...webhookFields, version: versionField });
export type WebhookInput = z.output<typeof createWebhookSchema>;
export type WebhookFormInput = z.input<typeof updateWebhookSchema>;

export const webhookSchema = named(
  'WebhookSubscription',
  z.object({
    id: z.uuid(),
    url: z.string(),
    events: z.array(z.enum(webhookEventTypes)),
    active: z.boolean(),
    description: z.string().nullable(),
    /** The secret's last 4 characters, to tell which one a receiver holds (the secret itself is shown once). */
    secretHint: z.string(),
    createdAt: instantText(),
    updatedAt: instantText(),
    version: z.number().int(),
    /** The newest attempt of any delivery, for the list. */
    lastAttempt: z.object({ at: instantText(), statusCode: z.number().int().nullable(), ok: z.boolean() }).nullable(),
  }),
);
export type WebhookSubscription = z.infer<typeof webhookSchema>;

export const webhookAnswerSchema = z.object({
  data: webhookSchema,
  code: z.enum(['webhook_created', 'webhook_updated', 'webhook_secret_rotated']).optional(),
});
/** A create or a rotation: the secret, shown this once. */
export const webhookSecretAnswerSchema = z.object({
  data: webhookSchema,
  secret: z.string(),
  code: z.enum(['webhook_created', 'webhook_secret_rotated']),
});
export const webhookDeletedSchema = z.object({ code: z.literal('webhook_deleted') });
export const webhookPageSchema = pageSchema(webhookSchema);
export const webhooksQuerySchema = pageQuerySchema;

export const webhookAttemptSchema = named(
  'WebhookAttempt',
  z.object({
    id: z.uuid(),
    deliveryId: z.uuid(),
    eventId: z.uuid(),
    eventType: z.enum(webhookEventTypes),
    attemptedAt: instantText(),
    statusCode: z.number().int().nullable(),
    durationMs: z.number().int(),
    ok: z.boolean(),
    error: z.string().nullable(),
    responseExcerpt: z.string().nullable(),
    /** The delivery's state now (pending: another attempt is due). */
    deliveryState: z.enum(webhookDeliveryStates),
    /** A "Reenviar" asked for it. */
    resent: z.boolean(),
  }),
);
export type WebhookAttempt = z.infer<typeof webhookAttemptSchema>;
export const webhookAttemptPageSchema = pageSchema(webhookAttemptSchema);
export const webhookAttemptsQuerySchema = pageQuerySchema;

export const webhookDeliveryParamsSchema = z.object({ id: idSchema, deliveryId: idSchema });
export const webhookResendAnswerSchema = z.object({
  data: z.object({ deliveryId: z.uuid(), eventId: z.uuid(), state: z.enum(webhookDeliveryStates) }),
  code: z.literal('webhook_resend_queued'),
});
