import type { ProviderChannel } from '@odontia/shared/schemas/messages';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '../../db/client.ts';
import { messagingChannels } from '../../db/schema/index.ts';
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

/** A status's place in a message's life: a report moves the message forward only. */
const rankSql = (status: SQL) =>
  sql`(case ${status} when 'sent' then 1 when 'failed' then 1 when 'delivered' then 2 when 'read' then 3 else 0 end)`;

/**
 * A delivery report: kept once per (provider id, status); the message moves forward only. One
 * statement (two or three reports arrive for every message sent): the message found and locked, the
 * report inserted unless replayed, and only then the message changed.
 */
export function recordDelivery(
  db: Pick<Database, 'tenantStatement'>,
  accountId: string,
  report: {
    channel: ProviderChannel;
    messageId: string | null;
    providerId: string;
    status: StatusName;
    errorCode: string | null;
    at: Date;
  },
): Promise<void> {
  const byOurId = report.messageId && /^[0-9a-f-]{36}$/.test(report.messageId) ? report.messageId : null;
  const stamp = sql.identifier(
    ({ sent: 'sent_at', delivered: 'delivered_at', read: 'read_at', failed: 'failed_at' } as const)[report.status],
  );
  const forward =
    report.status === 'failed'
      ? sql`messages.status not in ('delivered', 'read')`
      : sql`${rankSql(sql`messages.status`)} < ${rank[report.status] ?? 0}`;
  const failedForward = report.status === 'failed' ? forward : sql`false`;
  const at = report.at.toISOString();
  return db.tenantStatement(
    accountId,
    sql`
    with found as (
      select id from messages
      where account_id = ${accountId} and channel = ${report.channel}
        and ${byOurId ? sql`id = ${byOurId}` : sql`provider_message_id = ${report.providerId}`}
      for update
    ), event as (
      insert into message_status_events
        (account_id, id, message_id, channel, event_key, status, error_code, occurred_at)
      select ${accountId}::uuid, ${newId()}::uuid, found.id, ${report.channel}::text,
        ${`${report.providerId}:${report.status}`.slice(0, 300)}::text, ${report.status}::text,
        ${report.errorCode}::text, ${at}::timestamptz
      from found
      on conflict do nothing
      returning message_id
    )
    update messages set
      -- The first report of each state keeps its time.
      ${stamp} = coalesce(messages.${stamp}, ${at}::timestamptz),
      -- A report that arrives before our own "sent" (a run killed mid-call) tells us the provider's id.
      provider_message_id = coalesce(messages.provider_message_id, ${report.providerId}),
      status = case when ${forward} then ${report.status} else messages.status end,
      sending_since = case when ${forward} then null else messages.sending_since end,
      error_code = case when ${failedForward} then ${report.errorCode} else messages.error_code end,
      error = case when ${failedForward} then 'undelivered' else messages.error end
    from event
    where messages.account_id = ${accountId} and messages.id = event.message_id
      -- The provider's "sent" after our own: kept as an event, the message already says all of it.
      and (${forward} or messages.${stamp} is null or messages.provider_message_id is null)`,
  );
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
      await recordDelivery(db, account.accountId, {
        channel: 'sms',
        messageId: (request.query as { m?: string }).m ?? null,
        providerId: fields.MessageSid ?? '',
        status,
        errorCode: fields.ErrorCode ?? null,
        at: new Date(),
      });
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
    // Each report its own statement and transaction (one write on PostgreSQL); the replies together.
    const replies: WhatsappInbound[] = [];
    for (const entry of payload.entry ?? []) {
      for (const change of entry.changes ?? []) {
        for (const status of change.value?.statuses ?? []) {
          if (!status.id || !['sent', 'delivered', 'read', 'failed'].includes(status.status ?? '')) continue;
          await recordDelivery(db, account.accountId, {
            channel: 'whatsapp',
            messageId: status.biz_opaque_callback_data ?? null,
            providerId: status.id,
            status: status.status as StatusName,
            errorCode: status.errors?.[0]?.code != null ? String(status.errors[0].code) : null,
            at: status.timestamp ? new Date(Number(status.timestamp) * 1000) : new Date(),
          });
        }
        replies.push(...(change.value?.messages ?? []));
      }
    }
    if (replies.length > 0) {
      await db.withTenant(account.accountId, async (tx) => {
        for (const message of replies) {
          if (!message.id || !message.from) continue;
          await receiveReply(
            { tx, accountId: account.accountId },
            {
              channel: 'whatsapp',
              providerMessageId: message.id,
              from: message.from,
              body: message.text?.body ?? message.button?.payload ?? message.button?.text ?? '',
              receivedAt: message.timestamp ? new Date(Number(message.timestamp) * 1000) : new Date(),
              ip: request.ip,
            },
          );
        }
      });
    }
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
        messages?: WhatsappInbound[];
      };
    }[];
  }[];
}

/** A patient's message in Meta's envelope. */
interface WhatsappInbound {
  id?: string;
  from?: string;
  timestamp?: string;
  text?: { body?: string };
  button?: { payload?: string; text?: string };
}
