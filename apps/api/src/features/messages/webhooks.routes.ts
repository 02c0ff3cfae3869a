import type { ProviderChannel } from '@odontia/shared/schemas/messages';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '../../db/client.ts';
import { messageStatusEvents, messages, messagingChannels } from '../../db/schema/index.ts';
import type { TenantTx } from '../../db/tenancy.ts';
import { newId } from '../../lib/ids.ts';
import type { Sealer } from '../../lib/secrets.ts';
import { metaSignatureValid, twilioSignatureValid } from './providers.ts';
import { receiveReply } from './replies.ts';

/**
 * The providers' webhooks (issue 38), public and signed: /api/webhooks/sms/:key/status and /inbound
 * (Twilio's form posts, X-Twilio-Signature), /api/webhooks/whatsapp/:key (Meta's verification GET and
 * its JSON posts, X-Hub-Signature-256). The key in the path finds the clinic's account; the
 * signature, checked over the raw body with that account's secret, decides whether anything is read.
 * A forged post answers 403 and changes nothing; a replayed one answers 200 and changes nothing
 * (each delivery report and each reply has its provider's id as a unique key).
 */

type StatusName = 'sent' | 'delivered' | 'read' | 'failed';
const rank: Record<string, number> = { queued: 0, sending: 0, sent: 1, delivered: 2, read: 3, failed: 1 };

const twilioStatuses: Record<string, StatusName> = {
  sent: 'sent',
  delivered: 'delivered',
  read: 'read',
  undelivered: 'failed',
  failed: 'failed',
};

/** How long a channel's key and secrets are kept in memory. */
const keyKeptMs = 60_000;

interface ChannelKey {
  accountId: string;
  secret: string;
  webhookSecret: string | null;
}

async function channelOfKey(
  db: Database,
  sealer: Sealer,
  channel: ProviderChannel,
  key: string,
): Promise<ChannelKey | null> {
  if (!/^[A-Za-z0-9_-]{16,100}$/.test(key)) return null;
  const row = await db.withSystem(async (tx) => {
    const [found] = await tx
      .select({
        accountId: messagingChannels.accountId,
        secret: messagingChannels.secretSealed,
        webhookSecret: messagingChannels.webhookSecretSealed,
      })
      .from(messagingChannels)
      .where(and(eq(messagingChannels.webhookKey, key), eq(messagingChannels.channel, channel)));
    return found;
  });
  if (!row) return null;
  return {
    accountId: row.accountId,
    secret: sealer.unseal(row.secret),
    webhookSecret: row.webhookSecret ? sealer.unseal(row.webhookSecret) : null,
  };
}

/** A delivery report: kept once per (provider id, status); the message moves forward only. */
export async function recordDelivery(
  ctx: { tx: TenantTx; accountId: string },
  report: {
    channel: ProviderChannel;
    messageId: string | null;
    providerId: string;
    status: StatusName;
    errorCode: string | null;
    at: Date;
  },
): Promise<void> {
  const { tx, accountId } = ctx;
  const byOurId = report.messageId && /^[0-9a-f-]{36}$/.test(report.messageId) ? report.messageId : null;
  const [message] = await tx
    .select({
      id: messages.id,
      status: messages.status,
      providerMessageId: messages.providerMessageId,
      sentAt: messages.sentAt,
      deliveredAt: messages.deliveredAt,
      readAt: messages.readAt,
      failedAt: messages.failedAt,
    })
    .from(messages)
    .where(
      and(
        eq(messages.accountId, accountId),
        eq(messages.channel, report.channel),
        byOurId ? eq(messages.id, byOurId) : eq(messages.providerMessageId, report.providerId),
      ),
    )
    .for('update');
  if (!message) return; // Not ours (another system on the same number): nothing to record.
  const inserted = await tx
    .insert(messageStatusEvents)
    .values({
      accountId,
      id: newId(),
      messageId: message.id,
      channel: report.channel,
      eventKey: `${report.providerId}:${report.status}`.slice(0, 300),
      status: report.status,
      errorCode: report.errorCode,
      occurredAt: report.at,
    })
    .onConflictDoNothing()
    .returning({ id: messageStatusEvents.id });
  if (inserted.length === 0) return; // replayed
  const current = rank[message.status] ?? 0;
  const forward =
    report.status === 'failed'
      ? message.status !== 'delivered' && message.status !== 'read'
      : (rank[report.status] ?? 0) > current;
  const stamp = ({ sent: 'sentAt', delivered: 'deliveredAt', read: 'readAt', failed: 'failedAt' } as const)[
    report.status
  ];
  // The provider's "sent" after our own: kept as an event, the message already says all of it.
  if (!forward && message[stamp] !== null && message.providerMessageId) return;
  await tx
    .update(messages)
    .set({
      // The first report of each state keeps its time.
      [stamp]: sql`coalesce(${messages[stamp]}, ${report.at})`,
      // A report that arrives before our own "sent" (a run killed mid-call) tells us the provider's id.
      ...(message.providerMessageId ? {} : { providerMessageId: report.providerId }),
      ...(forward ? { status: report.status, sendingSince: null } : {}),
      ...(report.status === 'failed' && forward ? { errorCode: report.errorCode, error: 'undelivered' } : {}),
    })
    .where(and(eq(messages.accountId, accountId), eq(messages.id, message.id)));
}

const twiml = '<?xml version="1.0" encoding="UTF-8"?><Response></Response>';

export const messagingWebhooks: FastifyPluginAsync<{ db: Database; sealer: Sealer; publicUrl: string }> = async (
  app,
  { db, sealer, publicUrl },
) => {
  // The signatures are over the bytes as sent: keep the raw text, parse it here.
  app.removeAllContentTypeParsers();
  for (const type of ['application/json', 'application/x-www-form-urlencoded']) {
    app.addContentTypeParser(type, { parseAs: 'string', bodyLimit: 256 * 1024 }, (_request, body, done) =>
      done(null, body),
    );
  }
  /**
   * Each message brings two or three reports: a channel's key is read once a minute, not per post.
   * A signature the kept secret does not accept reads it again (the clinic may have changed it).
   */
  const keys = new Map<string, { at: number; account: ChannelKey }>();
  async function signedBy(
    channel: ProviderChannel,
    key: string,
    valid: (account: ChannelKey) => boolean,
  ): Promise<ChannelKey | 'unknown' | 'forged'> {
    const kept = keys.get(`${channel}:${key}`);
    if (kept && Date.now() - kept.at < keyKeptMs && valid(kept.account)) return kept.account;
    const account = await channelOfKey(db, sealer, channel, key);
    if (!account) return 'unknown';
    if (keys.size >= 10_000) keys.clear();
    keys.set(`${channel}:${key}`, { at: Date.now(), account });
    return valid(account) ? account : 'forged';
  }
  const signedUrl = (request: FastifyRequest) => new URL(request.url, publicUrl).toString();
  const keyOf = (request: FastifyRequest) => String((request.params as { key?: string }).key ?? '');
  const rawOf = (request: FastifyRequest) => (typeof request.body === 'string' ? request.body : '');
  const refuse = (reply: FastifyReply) => reply.status(403).send({ code: 'webhook_signature_invalid' });

  /** Twilio's form post: the account by key, its signature, then the fields. */
  async function twilioPost(request: FastifyRequest, reply: FastifyReply) {
    const fields = Object.fromEntries(new URLSearchParams(rawOf(request)));
    const signature = request.headers['x-twilio-signature'];
    const account = await signedBy('sms', keyOf(request), (candidate) =>
      twilioSignatureValid(
        candidate.secret,
        signedUrl(request),
        fields,
        typeof signature === 'string' ? signature : undefined,
      ),
    );
    if (account === 'unknown') {
      reply.status(404).send({ code: 'not_found' });
      return null;
    }
    if (account === 'forged') {
      refuse(reply);
      return null;
    }
    return { account, fields };
  }

  const config = { permission: 'public' as const };
  const schema = { hide: true };

  app.post('/webhooks/sms/:key/status', { config, schema }, async (request, reply) => {
    const signed = await twilioPost(request, reply);
    if (!signed) return reply;
    const { account, fields } = signed;
    const status = twilioStatuses[fields.MessageStatus ?? ''];
    if (status && fields.MessageSid) {
      await db.withTenant(account.accountId, (tx) =>
        recordDelivery(
          { tx, accountId: account.accountId },
          {
            channel: 'sms',
            messageId: (request.query as { m?: string }).m ?? null,
            providerId: fields.MessageSid ?? '',
            status,
            errorCode: fields.ErrorCode ?? null,
            at: new Date(),
          },
        ),
      );
    }
    return reply.status(204).send();
  });

  app.post('/webhooks/sms/:key/inbound', { config, schema }, async (request, reply) => {
    const signed = await twilioPost(request, reply);
    if (!signed) return reply;
    const { account, fields } = signed;
    if (fields.MessageSid && fields.From) {
      await db.withTenant(account.accountId, (tx) =>
        receiveReply(
          { tx, accountId: account.accountId },
          {
            channel: 'sms',
            providerMessageId: fields.MessageSid ?? '',
            from: fields.From ?? '',
            body: fields.Body ?? '',
            receivedAt: new Date(),
            ip: request.ip,
          },
        ),
      );
    }
    return reply.type('text/xml').send(twiml);
  });

  // Meta's subscription check: echo the challenge when the verify token is this channel's key.
  app.get('/webhooks/whatsapp/:key', { config, schema }, async (request, reply) => {
    const query = request.query as Record<string, string | undefined>;
    const account = await channelOfKey(db, sealer, 'whatsapp', keyOf(request));
    if (!account || query['hub.mode'] !== 'subscribe' || query['hub.verify_token'] !== keyOf(request)) {
      return refuse(reply);
    }
    return reply.type('text/plain').send(String(query['hub.challenge'] ?? ''));
  });

  app.post('/webhooks/whatsapp/:key', { config, schema }, async (request, reply) => {
    const raw = rawOf(request);
    const signature = request.headers['x-hub-signature-256'];
    const account = await signedBy(
      'whatsapp',
      keyOf(request),
      (candidate) =>
        candidate.webhookSecret !== null &&
        metaSignatureValid(candidate.webhookSecret, raw, typeof signature === 'string' ? signature : undefined),
    );
    if (account === 'unknown') return reply.status(404).send({ code: 'not_found' });
    if (account === 'forged') return refuse(reply);
    let payload: WhatsappPayload;
    try {
      payload = JSON.parse(raw) as WhatsappPayload;
    } catch {
      return reply.status(400).send({ code: 'invalid_json' });
    }
    await db.withTenant(account.accountId, async (tx) => {
      const ctx = { tx, accountId: account.accountId };
      for (const entry of payload.entry ?? []) {
        for (const change of entry.changes ?? []) {
          for (const status of change.value?.statuses ?? []) {
            if (!status.id || !['sent', 'delivered', 'read', 'failed'].includes(status.status ?? '')) continue;
            await recordDelivery(ctx, {
              channel: 'whatsapp',
              messageId: status.biz_opaque_callback_data ?? null,
              providerId: status.id,
              status: status.status as StatusName,
              errorCode: status.errors?.[0]?.code != null ? String(status.errors[0].code) : null,
              at: status.timestamp ? new Date(Number(status.timestamp) * 1000) : new Date(),
            });
          }
          for (const message of change.value?.messages ?? []) {
            if (!message.id || !message.from) continue;
            await receiveReply(ctx, {
              channel: 'whatsapp',
              providerMessageId: message.id,
              from: message.from,
              body: message.text?.body ?? message.button?.payload ?? message.button?.text ?? '',
              receivedAt: message.timestamp ? new Date(Number(message.timestamp) * 1000) : new Date(),
              ip: request.ip,
            });
          }
        }
      }
    });
    return reply.status(200).send({ received: true });
  });
};

/** What we read of Meta's webhook envelope. */
interface WhatsappPayload {
  entry?: {
    changes?: {
      value?: {
        statuses?: {
          id?: string;
          status?: string;
          timestamp?: string;
          biz_opaque_callback_data?: string;
          errors?: { code?: number }[];
        }[];
        messages?: {
          id?: string;
          from?: string;
          timestamp?: string;
          text?: { body?: string };
          button?: { payload?: string; text?: string };
        }[];
      };
    }[];
  }[];
}
