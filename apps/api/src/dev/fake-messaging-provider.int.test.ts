import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeMessagingProvider, startFakeMessagingProvider } from './fake-messaging-provider.ts';

/**
 * The fake is checked from the outside, as the app sees it: plain HTTP requests in the providers'
 * formats, and a receiver standing for the app's webhooks. The signatures are recomputed here with
 * node:crypto from the providers' documented recipes, not with the fake's own functions.
 */

interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

const twilio = { accountSid: `AC${'a'.repeat(32)}`, authToken: 'twilio-token', number: '+15005550006' };
const whatsapp = { phoneNumberId: '106540352242922', accessToken: 'graph-token', appSecret: 'app-secret' };

let fake: FakeMessagingProvider;
let receiver: http.Server;
let receiverUrl: string;
const received: Received[] = [];

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(req.url?.startsWith('/broken') ? 500 : 200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  fake = await startFakeMessagingProvider({ callbackDelayMs: 10 });
  fake.configureTwilio({ ...twilio, inboundUrl: `${receiverUrl}/twilio/inbound` });
  fake.configureWhatsapp({ ...whatsapp, webhookUrl: `${receiverUrl}/whatsapp/webhook` });
});

afterAll(async () => {
  await fake?.stop();
  await new Promise<void>((resolve) => receiver?.close(() => resolve()));
});

beforeEach(async () => {
  await fake.settled();
  received.length = 0;
});

// ——— the clients, as the app would write them ———

const basic = (sid: string, token: string) => `Basic ${Buffer.from(`${sid}:${token}`).toString('base64')}`;

function sendSms(fields: Record<string, string>, token = twilio.authToken) {
  return fetch(`${fake.url}/2010-04-01/Accounts/${twilio.accountSid}/Messages.json`, {
    method: 'POST',
    headers: { authorization: basic(twilio.accountSid, token), 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ From: twilio.number, ...fields }),
  });
}

function twilioGet(path: string) {
  return fetch(`${fake.url}/2010-04-01/Accounts/${twilio.accountSid}/${path}`, {
    headers: { authorization: basic(twilio.accountSid, twilio.authToken) },
  });
}

function sendWhatsapp(message: Record<string, unknown>, token = whatsapp.accessToken) {
  return fetch(`${fake.url}/v21.0/${whatsapp.phoneNumberId}/messages`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ messaging_product: 'whatsapp', recipient_type: 'individual', ...message }),
  });
}

const reminderTemplate = (to: string) => ({
  to,
  type: 'template',
  template: {
    name: 'appointment_reminder',
    language: { code: 'es' },
    components: [
      {
        type: 'body',
        parameters: [
          { type: 'text', text: 'Ana' },
          { type: 'text', text: '10:30' },
        ],
      },
    ],
  },
  biz_opaque_callback_data: 'reminder:42',
});

/** The answers' fields the assertions read (the rest is checked with toMatchObject). */
interface TwilioMessageJson {
  sid: string;
  status: string;
  date_created: string;
  date_sent: string | null;
}
interface TwilioListJson {
  messages: TwilioMessageJson[];
}
interface GraphSendJson {
  messages: { id: string }[];
}
interface GraphErrorJson {
  error: { code: number };
}
const json = <T>(response: Response) => response.json() as Promise<T>;

// ——— independent checks ———

/** Twilio's recipe: base64 HMAC-SHA1 (auth token) of the URL, then each sorted key and its value. */
function twilioSignatureOf(url: string, body: string): string {
  const params = new URLSearchParams(body);
  const data = [...params.keys()].sort().reduce((text, key) => `${text}${key}${params.get(key)}`, url);
  return createHmac('sha1', twilio.authToken).update(data).digest('base64');
}

/** Meta's recipe: sha256= and the hex HMAC-SHA256 (app secret) of the raw body. */
function metaSignatureOf(body: string): string {
  return `sha256=${createHmac('sha256', whatsapp.appSecret).update(body).digest('hex')}`;
}

const form = (r: Received) => Object.fromEntries(new URLSearchParams(r.body));
const statusesOf = (r: Received) => JSON.parse(r.body).entry[0].changes[0].value.statuses;
const at = (path: string) => received.filter((r) => r.path === path);
const today = () => new Date().toISOString().slice(0, 10);
const RFC_2822 = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} \+0000$/;

describe('Twilio Programmable Messaging', () => {
  it('answers 201 with the Message resource, lists it and posts signed status callbacks: sent, then delivered', async () => {
    const callback = `${receiverUrl}/twilio/status?clinic=7`;
    const response = await sendSms({
      To: '+34600111222',
      Body: 'Su cita es mañana a las 10:30',
      StatusCallback: callback,
    });
    expect(response.status).toBe(201);
    const resource = await json<TwilioMessageJson>(response);
    expect(resource).toMatchObject({
      account_sid: twilio.accountSid,
      to: '+34600111222',
      from: twilio.number,
      body: 'Su cita es mañana a las 10:30',
      status: 'queued',
      direction: 'outbound-api',
      api_version: '2010-04-01',
      num_segments: '1',
      error_code: null,
      error_message: null,
      price: null,
      uri: `/2010-04-01/Accounts/${twilio.accountSid}/Messages/${resource.sid}.json`,
    });
    expect(resource.sid).toMatch(/^SM[0-9a-f]{32}$/);
    expect(resource.date_created).toMatch(RFC_2822);
    expect(fake.sent.at(-1)).toMatchObject({
      channel: 'sms',
      id: resource.sid,
      to: '+34600111222',
      statusCallback: callback,
    });

    await fake.settled();
    const posts = at('/twilio/status?clinic=7');
    expect(posts.map((p) => form(p).MessageStatus)).toEqual(['sent', 'delivered']);
    for (const post of posts) {
      expect(post.headers['content-type']).toBe('application/x-www-form-urlencoded');
      expect(post.headers['x-twilio-signature']).toBe(twilioSignatureOf(callback, post.body));
      expect(form(post)).toMatchObject({
        MessageSid: resource.sid,
        SmsSid: resource.sid,
        AccountSid: twilio.accountSid,
        From: twilio.number,
        To: '+34600111222',
        ApiVersion: '2010-04-01',
      });
    }

    const listed = await json<TwilioListJson>(await twilioGet(`Messages.json?To=%2B34600111222&DateSent=${today()}`));
    expect(listed).toMatchObject({ page: 0, page_size: 50, next_page_uri: null, previous_page_uri: null });
    expect(listed.messages.map((m: { sid: string }) => m.sid)).toContain(resource.sid);
    expect(listed.messages[0]).toMatchObject({ sid: resource.sid, status: 'delivered' });
    expect(listed.messages[0]?.date_sent).toMatch(RFC_2822);
    const before = await json<TwilioListJson>(
      await twilioGet('Messages.json?To=%2B34600111222&DateSent%3C=2000-01-01'),
    );
    expect(before.messages).toEqual([]);
    const other = await json<TwilioListJson>(await twilioGet('Messages.json?To=%2B34699999999'));
    expect(other.messages).toEqual([]);

    const one = await twilioGet(`Messages/${resource.sid}.json`);
    expect(await one.json()).toMatchObject({ sid: resource.sid, status: 'delivered' });
    const missing = await twilioGet(`Messages/SM${'0'.repeat(32)}.json`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ code: 20404, status: 404 });
  });

  it('refuses a wrong auth token (20003), a To not in E.164 (21211) and a missing Body (21602), recording nothing', async () => {
    const count = fake.sent.length;
    const unauthorized = await sendSms({ To: '+34600111222', Body: 'x' }, 'wrong');
    expect(unauthorized.status).toBe(401);
    expect(await unauthorized.json()).toEqual({
      code: 20003,
      message: 'Authenticate',
      more_info: 'https://www.twilio.com/docs/errors/20003',
      status: 401,
    });
    const notE164 = await sendSms({ To: '600111222', Body: 'x' });
    expect(notE164.status).toBe(400);
    expect(await notE164.json()).toMatchObject({ code: 21211, status: 400 });
    const noBody = await sendSms({ To: '+34600111222' });
    expect(await noBody.json()).toMatchObject({ code: 21602, status: 400 });
    const noTo = await sendSms({ Body: 'x' });
    expect(await noTo.json()).toMatchObject({ code: 21604, status: 400 });
    expect((await twilioGet('Messages.json')).status).toBe(200);
    expect(
      (await fetch(`${fake.url}/2010-04-01/Accounts/${twilio.accountSid}/Messages.json`)).status,
      'GET needs auth too',
    ).toBe(401);
    expect(fake.sent.length).toBe(count);
  });

  it('posts an inbound SMS to the number’s webhook, signed, and answers what the app answered', async () => {
    const status = await fake.smsReply({ accountSid: twilio.accountSid, from: '+34600111222', body: 'SI' });
    expect(status).toBe(200);
    const [post] = at('/twilio/inbound');
    expect(post).toBeDefined();
    if (!post) return;
    expect(form(post)).toMatchObject({
      AccountSid: twilio.accountSid,
      From: '+34600111222',
      To: twilio.number,
      Body: 'SI',
      NumMedia: '0',
      NumSegments: '1',
      ApiVersion: '2010-04-01',
    });
    expect(form(post).MessageSid).toMatch(/^SM[0-9a-f]{32}$/);
    expect(post.headers['x-twilio-signature']).toBe(twilioSignatureOf(`${receiverUrl}/twilio/inbound`, post.body));
  });
});

describe('WhatsApp Business Cloud API', () => {
  it('answers a template send with a wamid and posts signed statuses carrying biz_opaque_callback_data', async () => {
    const response = await sendWhatsapp(reminderTemplate('+34 600 111 333'));
    expect(response.status).toBe(200);
    const answer = await json<GraphSendJson>(response);
    expect(answer).toMatchObject({
      messaging_product: 'whatsapp',
      contacts: [{ input: '+34 600 111 333', wa_id: '34600111333' }],
    });
    const wamid: string = answer.messages[0]?.id ?? '';
    expect(wamid).toMatch(/^wamid\.[A-Za-z0-9_-]+$/);
    expect(fake.sent.at(-1)).toMatchObject({
      channel: 'whatsapp',
      id: wamid,
      accountRef: whatsapp.phoneNumberId,
      to: '34600111333',
      body: null,
      template: { name: 'appointment_reminder', language: 'es', parameters: ['Ana', '10:30'] },
      callbackData: 'reminder:42',
    });

    await fake.settled();
    const posts = at('/whatsapp/webhook');
    expect(posts.map((p) => statusesOf(p)[0].status)).toEqual(['sent', 'delivered']);
    for (const post of posts) {
      expect(post.headers['content-type']).toBe('application/json');
      expect(post.headers['x-hub-signature-256']).toBe(metaSignatureOf(post.body));
      const envelope = JSON.parse(post.body);
      expect(envelope.object).toBe('whatsapp_business_account');
      expect(envelope.entry[0].changes[0].field).toBe('messages');
      expect(envelope.entry[0].changes[0].value.metadata.phone_number_id).toBe(whatsapp.phoneNumberId);
      expect(statusesOf(post)[0]).toMatchObject({
        id: wamid,
        recipient_id: '34600111333',
        biz_opaque_callback_data: 'reminder:42',
        timestamp: expect.stringMatching(/^\d{10}$/),
      });
    }
  });

  it('refuses a wrong access token with OAuthException 190', async () => {
    const response = await sendWhatsapp(reminderTemplate('34600111333'), 'wrong');
    expect(response.status).toBe(401);
    expect((await json<GraphErrorJson>(response)).error).toMatchObject({
      message: 'Invalid OAuth access token.',
      type: 'OAuthException',
      code: 190,
      fbtrace_id: expect.any(String),
    });
  });

  it('refuses free text outside the 24-hour window (131047) and accepts it after the patient writes', async () => {
    const text = { to: '34600111444', type: 'text', text: { body: 'Le esperamos' } };
    const refused = await sendWhatsapp(text);
    expect(refused.status).toBe(400);
    expect((await json<GraphErrorJson>(refused)).error).toMatchObject({
      message: '(#131047) Re-engagement message',
      type: 'OAuthException',
      code: 131047,
      error_data: { details: expect.stringContaining('more than 24 hours') },
    });

    expect(await fake.whatsappReply({ phoneNumberId: whatsapp.phoneNumberId, from: '34600111444', body: 'Hola' })).toBe(
      200,
    );
    const [inbound] = at('/whatsapp/webhook');
    expect(inbound?.headers['x-hub-signature-256']).toBe(metaSignatureOf(inbound?.body ?? ''));
    const value = JSON.parse(inbound?.body ?? '{}').entry[0].changes[0].value;
    expect(value.contacts[0].wa_id).toBe('34600111444');
    expect(value.messages[0]).toMatchObject({ from: '34600111444', type: 'text', text: { body: 'Hola' } });
    expect(value.messages[0].id).toMatch(/^wamid\./);

    const accepted = await sendWhatsapp(text);
    expect(accepted.status).toBe(200);
    expect(fake.sent.at(-1)).toMatchObject({ body: 'Le esperamos', template: null });
  });

  it('posts a button reply with its payload and the message it answers', async () => {
    const sent = await json<GraphSendJson>(await sendWhatsapp(reminderTemplate('34600111555')));
    await fake.settled();
    received.length = 0;
    await fake.whatsappReply({ phoneNumberId: whatsapp.phoneNumberId, from: '34600111555', buttonPayload: 'CONFIRM' });
    const message = JSON.parse(at('/whatsapp/webhook')[0]?.body ?? '{}').entry[0].changes[0].value.messages[0];
    expect(message).toMatchObject({
      type: 'button',
      button: { payload: 'CONFIRM', text: 'CONFIRM' },
      context: { id: sent.messages[0]?.id },
    });
  });
});

describe('faults', () => {
  it('error: answers the provider’s error and records nothing; only the next send is hit', async () => {
    const count = fake.sent.length;
    fake.fail({ kind: 'error' });
    const failed = await sendSms({ To: '+34600222000', Body: 'x' });
    expect(failed.status).toBe(500);
    expect(await failed.json()).toMatchObject({ code: 20500, status: 500 });
    fake.fail({ kind: 'error', status: 429 });
    const limited = await sendWhatsapp(reminderTemplate('34600222000'));
    expect(limited.status).toBe(429);
    expect((await json<GraphErrorJson>(limited)).error.code).toBe(130429);
    expect(fake.sent.length).toBe(count);
    expect((await sendSms({ To: '+34600222000', Body: 'x' })).status).toBe(201);
  });

  it('timeout: keeps the connection open, then resets it, recording nothing', async () => {
    const count = fake.sent.length;
    fake.fail({ kind: 'timeout', ms: 150 });
    const started = Date.now();
    await expect(sendSms({ To: '+34600333000', Body: 'x' })).rejects.toThrow();
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    expect(fake.sent.length).toBe(count);
    const listed = await json<TwilioListJson>(await twilioGet('Messages.json?To=%2B34600333000'));
    expect(listed.messages).toEqual([]);
  });

  it('hold: the message is listed before the answer arrives; the callbacks follow the answer', async () => {
    fake.fail({ kind: 'hold', ms: 400 });
    let answered = false;
    const pending = sendSms({ To: '+34600444000', Body: 'x', StatusCallback: `${receiverUrl}/hold` }).then((r) => {
      answered = true;
      return r;
    });
    let listed: TwilioMessageJson[] = [];
    for (let tries = 0; listed.length === 0 && tries < 50; tries++) {
      listed = (await json<TwilioListJson>(await twilioGet('Messages.json?To=%2B34600444000'))).messages;
      if (listed.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(listed).toHaveLength(1);
    expect(answered).toBe(false);
    expect(at('/hold')).toEqual([]);
    const response = await pending;
    expect(response.status).toBe(201);
    expect((await json<TwilioMessageJson>(response)).sid).toBe(listed[0]?.sid);
    await fake.settled();
    expect(at('/hold').map((p) => form(p).MessageStatus)).toEqual(['sent', 'delivered']);
  });

  it('duplicate-callbacks: every status callback is posted twice', async () => {
    fake.fail({ kind: 'duplicate-callbacks' });
    await sendSms({ To: '+34600555000', Body: 'x', StatusCallback: `${receiverUrl}/twice` });
    fake.fail({ kind: 'duplicate-callbacks' });
    await sendWhatsapp(reminderTemplate('34600555000'));
    await fake.settled();
    expect(at('/twice').map((p) => form(p).MessageStatus)).toEqual(['sent', 'sent', 'delivered', 'delivered']);
    expect(at('/whatsapp/webhook').map((p) => statusesOf(p)[0].status)).toEqual([
      'sent',
      'sent',
      'delivered',
      'delivered',
    ]);
  });

  it('undelivered: accepted, then SMS undelivered with 30003 and WhatsApp failed with 131026', async () => {
    fake.fail({ kind: 'undelivered' });
    const sms = await json<TwilioMessageJson>(
      await sendSms({ To: '+34600666000', Body: 'x', StatusCallback: `${receiverUrl}/lost` }),
    );
    fake.fail({ kind: 'undelivered' });
    expect((await sendWhatsapp(reminderTemplate('34600666000'))).status).toBe(200);
    await fake.settled();
    const smsFinal = form(at('/lost')[1] ?? { path: '', headers: {}, body: '' });
    expect(smsFinal).toMatchObject({ MessageStatus: 'undelivered', ErrorCode: '30003' });
    expect(await (await twilioGet(`Messages/${sms.sid}.json`)).json()).toMatchObject({
      status: 'undelivered',
      error_code: 30003,
    });
    const [sent, failed] = at('/whatsapp/webhook').map((p) => statusesOf(p)[0]);
    expect(sent.status).toBe('sent');
    expect(failed).toMatchObject({ status: 'failed', errors: [{ code: 131026, title: 'Message undeliverable' }] });
  });

  it('retries a callback the app does not answer 2xx, at most twice', async () => {
    const url = `${receiverUrl}/broken`;
    await sendSms({ To: '+34600777000', Body: 'x', StatusCallback: url });
    await fake.settled();
    const attempts = fake.callbacks.filter((c) => c.url === url);
    expect(attempts.map((c) => c.status)).toEqual([500, 500, 500, 500, 500, 500]);
    expect(attempts.map((c) => new URLSearchParams(c.body).get('MessageStatus'))).toEqual([
      'sent',
      'sent',
      'sent',
      'delivered',
      'delivered',
      'delivered',
    ]);
  });
});

describe('the control API', () => {
  it('configures, queues faults, posts replies and lists messages over HTTP', async () => {
    const other = await startFakeMessagingProvider({ callbackDelayMs: 5 });
    try {
      const post = (path: string, body: unknown) =>
        fetch(`${other.url}/_fake/${path}`, { method: 'POST', body: JSON.stringify(body) });
      expect(
        (await post('twilio', { ...twilio, accountSid: 'AC1', inboundUrl: `${receiverUrl}/control/sms` })).status,
      ).toBe(200);
      const phone = { ...whatsapp, phoneNumberId: '200', webhookUrl: `${receiverUrl}/control/wa` };
      expect((await post('whatsapp', phone)).status).toBe(200);
      expect((await post('faults', { kind: 'error', status: 503 })).status).toBe(200);
      expect((await post('faults', { kind: 'nonsense' })).status).toBe(400);

      const send = () =>
        fetch(`${other.url}/2010-04-01/Accounts/AC1/Messages.json`, {
          method: 'POST',
          headers: { authorization: basic('AC1', twilio.authToken) },
          body: new URLSearchParams({ To: '+34600888000', From: twilio.number, Body: 'x' }),
        });
      expect((await send()).status).toBe(503);
      expect((await send()).status).toBe(201);

      const sms = await (await post('sms/reply', { accountSid: 'AC1', from: '+34600888000', body: 'NO' })).json();
      expect(sms).toEqual({ status: 200 });
      const wa = await (
        await post('whatsapp/reply', { phoneNumberId: '200', from: '34600888000', body: 'Hola' })
      ).json();
      expect(wa).toEqual({ status: 200 });
      expect(at('/control/sms')).toHaveLength(1);
      expect(at('/control/wa')).toHaveLength(1);

      const { messages } = await json<{ messages: unknown[] }>(await fetch(`${other.url}/_fake/messages`));
      expect(messages).toEqual([
        expect.objectContaining({ channel: 'sms', accountRef: 'AC1', to: '+34600888000', at: expect.any(String) }),
      ]);
    } finally {
      await other.stop();
    }
  });
});
