import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The two message providers' wire protocols (issue 38), behind one shape: an SMS provider with
 * Twilio's REST API (Messages.json, HTTP Basic, form-encoded) and WhatsApp's Cloud API
 * (/{phone-number-id}/messages, Bearer, JSON). Both report delivery by signed webhooks, verified
 * here: Twilio's X-Twilio-Signature (HMAC-SHA1 of the URL and the sorted fields, with the auth
 * token) and Meta's X-Hub-Signature-256 (HMAC-SHA256 of the raw body, with the app secret).
 */

export interface ProviderAccount {
  apiUrl: string;
  accountRef: string;
  sender: string;
  secret: string;
}

export interface OutgoingMessage {
  /** Our message id: WhatsApp echoes it in its webhooks; Twilio's status URL carries it. */
  messageId: string;
  to: string;
  body: string;
  /** A WhatsApp template (outside the 24-hour window); without one, free text. */
  template: { name: string; language: string; parameters: string[] } | null;
  statusCallback: string;
}

/** What a provider said: accepted with its id, or refused (`retry`: worth another attempt later). */
export type SendOutcome =
  | { ok: true; providerId: string }
  | {
      ok: false;
      retry: boolean;
      code: string;
      error: string;
      /** No answer came back (time-out, connection lost): the provider may have the message. */
      unknown?: boolean;
    };

const timeoutMs = 15_000;

async function call(url: string, init: RequestInit): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
  const text = await response.text();
  let body: Record<string, unknown> = {};
  try {
    body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    body = { message: text.slice(0, 200) };
  }
  return { status: response.status, body };
}

/** 5xx, 429 and network trouble are the provider's: try again. A 4xx is the message's: it will not pass. */
const retryable = (status: number) => status >= 500 || status === 429 || status === 408;

const stripTrailingSlash = (url: string) => url.replace(/\/+$/, '');

export const twilioSms = {
  async send(account: ProviderAccount, message: OutgoingMessage): Promise<SendOutcome> {
    const form = new URLSearchParams({
      To: message.to,
      From: account.sender,
      Body: message.body,
      StatusCallback: message.statusCallback,
    });
    const { status, body } = await call(
      `${stripTrailingSlash(account.apiUrl)}/2010-04-01/Accounts/${encodeURIComponent(account.accountRef)}/Messages.json`,
      {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${account.accountRef}:${account.secret}`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: form.toString(),
      },
    );
    if (status === 201 || status === 200) return { ok: true, providerId: String(body.sid) };
    return {
      ok: false,
      retry: retryable(status),
      code: String(body.code ?? status),
      error: String(body.message ?? `HTTP ${status}`).slice(0, 300),
    };
  },

  /**
   * Whether the provider already took this text for this number since `since` (a send whose answer
   * never came back): Twilio's list filtered by To and DateSent, matched on the body we stored.
   */
  async find(account: ProviderAccount, message: { to: string; body: string; since: Date }): Promise<string | null> {
    const day = message.since.toISOString().slice(0, 10);
    const query = new URLSearchParams({ To: message.to, 'DateSent>': day, PageSize: '50' });
    const { status, body } = await call(
      `${stripTrailingSlash(account.apiUrl)}/2010-04-01/Accounts/${encodeURIComponent(account.accountRef)}/Messages.json?${query}`,
      {
        headers: {
          authorization: `Basic ${Buffer.from(`${account.accountRef}:${account.secret}`).toString('base64')}`,
        },
      },
    );
    if (status !== 200) throw new Error(`the SMS provider's message list answered ${status}`);
    const list = Array.isArray(body.messages) ? (body.messages as Record<string, unknown>[]) : [];
    const found = list.find((item) => item.body === message.body && item.to === message.to);
    return found ? String(found.sid) : null;
  },
};

export const whatsappCloud = {
  async send(account: ProviderAccount, message: OutgoingMessage): Promise<SendOutcome> {
    const to = message.to.replace(/^\+/, '');
    const payload = message.template
      ? {
          messaging_product: 'whatsapp',
          recipient_type: 'individual',
          to,
          type: 'template',
          template: {
            name: message.template.name,
            language: { code: message.template.language },
            components: [
              { type: 'body', parameters: message.template.parameters.map((text) => ({ type: 'text', text })) },
            ],
          },
          biz_opaque_callback_data: message.messageId,
        }
      : {
          messaging_product: 'whatsapp',
          recipient_type: 'individual',
          to,
          type: 'text',
          text: { body: message.body },
          biz_opaque_callback_data: message.messageId,
        };
    const { status, body } = await call(
      `${stripTrailingSlash(account.apiUrl)}/${encodeURIComponent(account.accountRef)}/messages`,
      {
        method: 'POST',
        headers: { authorization: `Bearer ${account.secret}`, 'content-type': 'application/json' },
        body: JSON.stringify(payload),
      },
    );
    const sent = (body.messages as { id?: string }[] | undefined)?.[0]?.id;
    if (status === 200 && sent) return { ok: true, providerId: sent };
    const error = (body.error ?? {}) as { code?: number; message?: string };
    return {
      ok: false,
      retry: retryable(status),
      code: String(error.code ?? status),
      error: String(error.message ?? `HTTP ${status}`).slice(0, 300),
    };
  },
};

/** Constant-time comparison of two signatures as text. */
function sameSignature(expected: string, given: string | undefined): boolean {
  if (!given) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Twilio: base64(HMAC-SHA1(authToken, url + each field sorted by name as name+value)). */
export function twilioSignatureValid(
  authToken: string,
  url: string,
  fields: Record<string, string>,
  given: string | undefined,
): boolean {
  const data =
    url +
    Object.keys(fields)
      .sort()
      .map((key) => key + fields[key])
      .join('');
  return sameSignature(createHmac('sha1', authToken).update(data, 'utf8').digest('base64'), given);
}

/** Meta: `sha256=` + hex(HMAC-SHA256(appSecret, raw body)). */
export function metaSignatureValid(appSecret: string, rawBody: string, given: string | undefined): boolean {
  return sameSignature(`sha256=${createHmac('sha256', appSecret).update(rawBody, 'utf8').digest('hex')}`, given);
}
