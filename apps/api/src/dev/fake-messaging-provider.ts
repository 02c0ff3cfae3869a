import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { realpathSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

/**
 * A local stand-in for the two messaging providers the app talks to: Twilio Programmable Messaging
 * (SMS, REST API 2010-04-01) and the WhatsApp Business Cloud API (Graph API). It speaks their wire
 * protocols — paths, authentication, request and answer bodies, error codes, signed status and
 * inbound webhooks — so the app's real client code runs against it in integration and e2e tests,
 * the benchmark and the demo. `fail` queues the faults real providers have: errors, timeouts, an
 * answer lost after the message was accepted, duplicate callbacks, failed deliveries.
 *
 * Run directly (`node --import tsx apps/api/src/dev/fake-messaging-provider.ts --port 4010`) it
 * serves until stopped and prints its URL; another process drives it through `/_fake/…`.
 */

export interface TwilioAccountConfig {
  accountSid: string;
  authToken: string;
  /** The account's number in E.164: the only `From` it may send from, the `To` of inbound SMS. */
  number: string;
  /** Where inbound SMS are posted (the number's "A message comes in" webhook). */
  inboundUrl?: string;
}

export interface WhatsappPhoneConfig {
  phoneNumberId: string;
  accessToken: string;
  appSecret: string;
  /** The app's webhook: status updates and inbound messages. */
  webhookUrl: string;
  /** Digits only, as Meta sends it in `metadata.display_phone_number`. */
  displayPhoneNumber?: string;
  /** The WhatsApp Business Account id (`entry[].id` of the webhooks). */
  businessAccountId?: string;
}

export interface FakeTemplate {
  name: string;
  language: string;
  parameters: string[];
}

export interface FakeSentMessage {
  channel: 'sms' | 'whatsapp';
  /** Twilio's message SID or WhatsApp's wamid. */
  id: string;
  /** The Twilio account SID or the WhatsApp phone number id that sent it. */
  accountRef: string;
  to: string;
  from: string;
  body: string | null;
  template: FakeTemplate | null;
  callbackData: string | null;
  statusCallback: string | null;
  at: Date;
}

/** One POST the fake made to the app (each retry and each duplicate is one). */
export interface FakeCallback {
  url: string;
  body: string;
  /** The HTTP status the app answered; 0 when it could not be reached. */
  status: number;
}

export type FakeFault =
  | { kind: 'error'; status?: number }
  | { kind: 'timeout'; ms: number }
  | { kind: 'hold'; ms: number }
  | { kind: 'duplicate-callbacks' }
  | { kind: 'undelivered' };

export interface SmsReply {
  accountSid: string;
  from: string;
  body: string;
}

export interface WhatsappReply {
  phoneNumberId: string;
  from: string;
  body?: string;
  /** A quick-reply button's payload: the inbound message is then of type `button`. */
  buttonPayload?: string;
  /** The WhatsApp profile name of the sender. */
  name?: string;
}

export interface FakeMessagingProvider {
  /** http://host:port, without a trailing slash. */
  url: string;
  configureTwilio(account: TwilioAccountConfig): void;
  configureWhatsapp(phone: WhatsappPhoneConfig): void;
  /** Every message accepted, in order. */
  sent: FakeSentMessage[];
  /** Every webhook posted (status callbacks, inbound messages), with what the app answered. */
  callbacks: FakeCallback[];
  /** Queues a fault; each send that would be accepted takes the next one. */
  fail(fault: FakeFault): void;
  /** Posts an inbound SMS to the account's inboundUrl; resolves with the app's HTTP status. */
  smsReply(reply: SmsReply): Promise<number>;
  /** Posts an inbound WhatsApp message to the webhook; it opens the 24-hour window. */
  whatsappReply(reply: WhatsappReply): Promise<number>;
  /** Resolves when no callback is scheduled or in flight. */
  settled(): Promise<void>;
  stop(): Promise<void>;
}

export interface FakeMessagingProviderOptions {
  port?: number;
  host?: string;
  /** Time before each status callback and between retries (20 ms unless set). */
  callbackDelayMs?: number;
}

const TWILIO_API_VERSION = '2010-04-01';
const E164 = /^\+[1-9]\d{6,14}$/;
const SERVICE_WINDOW_MS = 24 * 60 * 60 * 1000;
/** An answered callback is retried at most twice. */
const CALLBACK_ATTEMPTS = 3;
const CALLBACK_TIMEOUT_MS = 10_000;
const MAX_BODY_BYTES = 1_000_000;

type WhatsappPhone = Required<WhatsappPhoneConfig>;

/** Twilio's view of a message: what GET answers, its status moving as the callbacks go. */
interface TwilioMessage {
  sid: string;
  accountSid: string;
  to: string;
  from: string;
  body: string;
  direction: 'outbound-api' | 'inbound';
  status: string;
  errorCode: number | null;
  errorMessage: string | null;
  numSegments: number;
  created: Date;
  updated: Date;
  sentAt: Date | null;
}

interface WhatsappMessage {
  wamid: string;
  phone: WhatsappPhone;
  waId: string;
  /** Free-form text in the service window is free; templates are billed. */
  kind: 'text' | 'template';
  version: string;
  callbackData: string | null;
  conversationId: string;
}

interface State {
  callbackDelayMs: number;
  twilio: Map<string, TwilioAccountConfig>;
  whatsapp: Map<string, WhatsappPhone>;
  sent: FakeSentMessage[];
  callbacks: FakeCallback[];
  faults: FakeFault[];
  twilioMessages: TwilioMessage[];
  /** `phoneNumberId:waId` → when that user last wrote to that number (ms). */
  lastInbound: Map<string, number>;
  /** `phoneNumberId:waId` → the last wamid sent there (a button reply's `context`). */
  lastOutbound: Map<string, string>;
  inFlight: Set<Promise<unknown>>;
  timers: Set<NodeJS.Timeout>;
  wakers: Set<() => void>;
  stopped: boolean;
  agent: http.Agent;
}

interface Post {
  url: string;
  body: string;
  headers: Record<string, string>;
}

class BadRequest extends Error {}

// ——— starting, stopping ———

export async function startFakeMessagingProvider(
  options: FakeMessagingProviderOptions = {},
): Promise<FakeMessagingProvider> {
  const state = newState(options.callbackDelayMs ?? 20);
  const provider = providerFor(state);
  const server = http.createServer((req, res) => {
    handle(state, provider, req, res).catch((error: unknown) => answerCrash(res, error));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const { address, port } = server.address() as AddressInfo;
  provider.url = `http://${address.includes(':') ? `[${address}]` : address}:${port}`;
  provider.stop = () => stopAll(state, server);
  return provider;
}

function newState(callbackDelayMs: number): State {
  return {
    callbackDelayMs,
    twilio: new Map(),
    whatsapp: new Map(),
    sent: [],
    callbacks: [],
    faults: [],
    twilioMessages: [],
    lastInbound: new Map(),
    lastOutbound: new Map(),
    inFlight: new Set(),
    timers: new Set(),
    wakers: new Set(),
    stopped: false,
    // Its own agent, destroyed on stop. Keep-alive, as the providers' senders do: a connection per
    // report would run out of local ports at a busy minute's reports (thousands a minute, each port
    // kept a minute in TIME_WAIT) and fail them as unreachable.
    agent: new http.Agent({ keepAlive: true, maxSockets: 32 }),
  };
}

function providerFor(state: State): FakeMessagingProvider {
  return {
    url: '',
    sent: state.sent,
    callbacks: state.callbacks,
    configureTwilio: (account) => {
      state.twilio.set(account.accountSid, { ...account });
    },
    configureWhatsapp: (phone) => {
      state.whatsapp.set(phone.phoneNumberId, {
        ...phone,
        displayPhoneNumber: phone.displayPhoneNumber ?? '15550100001',
        businessAccountId: phone.businessAccountId ?? '100000000000001',
      });
    },
    fail: (fault) => {
      state.faults.push(fault);
    },
    smsReply: (reply) => track(state, postSmsReply(state, reply)),
    whatsappReply: (reply) => track(state, postWhatsappReply(state, reply)),
    settled: () => settled(state),
    stop: async () => {},
  };
}

async function stopAll(state: State, server: http.Server): Promise<void> {
  state.stopped = true;
  for (const wake of [...state.wakers]) wake();
  for (const timer of state.timers) clearTimeout(timer);
  state.timers.clear();
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  // Held and timed-out requests would otherwise keep the server open until they end.
  server.closeAllConnections();
  state.agent.destroy();
  await closed;
}

async function settled(state: State): Promise<void> {
  // A chain that ends can start none, but a reply posted meanwhile adds one: loop until empty.
  while (state.inFlight.size > 0) await Promise.allSettled([...state.inFlight]);
}

function track<T>(state: State, work: Promise<T>): Promise<T> {
  state.inFlight.add(work);
  const forget = () => state.inFlight.delete(work);
  work.then(forget, forget);
  return work;
}

/** A delay that stopping cuts short, so no timer outlives the fake. */
function pause(state: State, ms: number): Promise<void> {
  if (state.stopped || ms <= 0) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      state.timers.delete(timer);
      state.wakers.delete(done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    state.timers.add(timer);
    state.wakers.add(done);
  });
}

// ——— routing ———

const TWILIO_LIST = /^\/2010-04-01\/Accounts\/([^/]+)\/Messages\.json$/;
const TWILIO_ONE = /^\/2010-04-01\/Accounts\/([^/]+)\/Messages\/([^/]+)\.json$/;
const GRAPH_MESSAGES = /^\/(v\d+\.\d+)\/([^/]+)\/messages$/;

async function handle(
  state: State,
  provider: FakeMessagingProvider,
  req: http.IncomingMessage,
  res: http.ServerResponse,
): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://fake.invalid');
  const raw = await readBody(req);
  const method = req.method ?? 'GET';
  const path = url.pathname;
  if (path.startsWith('/_fake/')) return control(provider, method, path, raw, res);

  const list = TWILIO_LIST.exec(path);
  if (list?.[1] && method === 'POST') return createTwilioMessage(state, req, res, list[1], raw);
  if (list?.[1] && method === 'GET') return listTwilioMessages(state, req, res, list[1], url.searchParams);
  const one = TWILIO_ONE.exec(path);
  if (one?.[1] && one[2] && method === 'GET') return fetchTwilioMessage(state, req, res, one[1], one[2]);
  const graph = GRAPH_MESSAGES.exec(path);
  if (graph?.[1] && graph[2] && method === 'POST')
    return createWhatsappMessage(state, req, res, graph[1], graph[2], raw);
  sendJson(res, 404, { error: 'not_found', method, path });
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new BadRequest('request body too large'));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  if (res.destroyed || res.headersSent) return;
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    ...headers,
  });
  res.end(text);
}

function answerCrash(res: http.ServerResponse, error: unknown) {
  const message = error instanceof Error ? error.message : String(error);
  sendJson(res, error instanceof BadRequest ? 400 : 500, { error: message });
}

/**
 * Answers now, or after a `hold` fault's delay (the message is already recorded: a sender killed
 * meanwhile never learns its id). Resolves when the answer is out or the connection gone, the
 * moment callbacks may start.
 */
function answerAccepted(
  state: State,
  res: http.ServerResponse,
  status: number,
  body: unknown,
  fault: FakeFault | undefined,
): Promise<void> {
  const closed = new Promise<void>((resolve) => {
    if (res.closed) resolve();
    else res.once('close', () => resolve());
  });
  void pause(state, fault?.kind === 'hold' ? fault.ms : 0).then(() => sendJson(res, status, body));
  return closed;
}

/** The faults that refuse a send before anything is recorded. True when the request was answered. */
function refusedByFault(
  state: State,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  fault: FakeFault | undefined,
  errorBody: (status: number) => unknown,
): boolean {
  if (fault?.kind === 'error') {
    const status = fault.status ?? 500;
    sendJson(res, status, errorBody(status));
    return true;
  }
  if (fault?.kind === 'timeout') {
    // Nothing answered: the client waits, then sees its connection reset.
    void pause(state, fault.ms).then(() => req.socket.destroy());
    return true;
  }
  return false;
}

// ——— Twilio: REST API ———

function twilioError(res: http.ServerResponse, status: number, code: number, message: string) {
  const headers: Record<string, string> = status === 401 ? { 'www-authenticate': 'Basic realm="Twilio API"' } : {};
  sendJson(res, status, twilioErrorBody(status, code, message), headers);
}

function twilioErrorBody(status: number, code: number, message: string) {
  return { code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status };
}

/** The error Twilio answers for a fault's HTTP status. */
function twilioFaultBody(status: number) {
  if (status === 429) return twilioErrorBody(status, 20429, 'Too Many Requests');
  if (status === 503) return twilioErrorBody(status, 20503, 'Service Unavailable');
  return twilioErrorBody(status, 20500, 'Internal Server Error');
}

/** HTTP Basic with AccountSid:AuthToken, for the account in the path. */
function twilioAccountFor(state: State, req: http.IncomingMessage, pathSid: string): TwilioAccountConfig | null {
  const match = /^Basic\s+(\S+)$/i.exec(req.headers.authorization ?? '');
  const account = state.twilio.get(pathSid);
  if (!match?.[1] || !account) return null;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  const user = decoded.slice(0, colon);
  return user === account.accountSid && sameSecret(decoded.slice(colon + 1), account.authToken) ? account : null;
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function unauthenticated(res: http.ServerResponse) {
  twilioError(res, 401, 20003, 'Authenticate');
}

/** Twilio's checks of a create request, in the order it makes them. */
function twilioRefusal(account: TwilioAccountConfig, form: URLSearchParams): { code: number; message: string } | null {
  const to = form.get('To');
  const from = form.get('From');
  const body = form.get('Body');
  const callback = form.get('StatusCallback');
  if (!to) return { code: 21604, message: "A 'To' phone number is required." };
  if (!E164.test(to)) return { code: 21211, message: `The 'To' number ${to} is not a valid phone number.` };
  if (!from) return { code: 21603, message: "A 'From' phone number is required." };
  if (from !== account.number) {
    return {
      code: 21606,
      message: `The From phone number ${from} is not a valid, SMS-capable inbound phone number or short code for your account.`,
    };
  }
  if (!body) return { code: 21602, message: 'Message body is required.' };
  if (body.length > 1600)
    return { code: 21617, message: 'The concatenated message body exceeds the 1600 character limit.' };
  if (callback && !isHttpUrl(callback)) return { code: 21609, message: 'Invalid StatusCallback url' };
  return null;
}

function isHttpUrl(value: string): boolean {
  try {
    const { protocol } = new URL(value);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

function createTwilioMessage(
  state: State,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  accountSid: string,
  raw: string,
) {
  const account = twilioAccountFor(state, req, accountSid);
  if (!account) return unauthenticated(res);
  const form = new URLSearchParams(raw);
  const refusal = twilioRefusal(account, form);
  if (refusal) return twilioError(res, 400, refusal.code, refusal.message);
  const fault = state.faults.shift();
  if (refusedByFault(state, req, res, fault, twilioFaultBody)) return;

  const message = recordTwilioMessage(state, account, form);
  // The answer is the message as created (queued), whatever it has become when a hold ends.
  const answered = answerAccepted(state, res, 201, twilioResource(message), fault);
  track(state, runTwilioStatuses(state, account, message, form.get('StatusCallback'), fault, answered));
}

function recordTwilioMessage(state: State, account: TwilioAccountConfig, form: URLSearchParams): TwilioMessage {
  const now = new Date();
  const message: TwilioMessage = {
    sid: `SM${randomBytes(16).toString('hex')}`,
    accountSid: account.accountSid,
    to: form.get('To') ?? '',
    from: form.get('From') ?? '',
    body: form.get('Body') ?? '',
    direction: 'outbound-api',
    status: 'queued',
    errorCode: null,
    errorMessage: null,
    numSegments: smsSegments(form.get('Body') ?? ''),
    created: now,
    updated: now,
    sentAt: null,
  };
  state.twilioMessages.push(message);
  state.sent.push({
    channel: 'sms',
    id: message.sid,
    accountRef: account.accountSid,
    to: message.to,
    from: message.from,
    body: message.body,
    template: null,
    callbackData: null,
    statusCallback: form.get('StatusCallback'),
    at: now,
  });
  return message;
}

/** The Message resource as Twilio's JSON shows it. */
function twilioResource(message: TwilioMessage) {
  const uri = `/${TWILIO_API_VERSION}/Accounts/${message.accountSid}/Messages/${message.sid}`;
  return {
    account_sid: message.accountSid,
    api_version: TWILIO_API_VERSION,
    body: message.body,
    date_created: rfc2822(message.created),
    date_sent: message.sentAt ? rfc2822(message.sentAt) : null,
    date_updated: rfc2822(message.updated),
    direction: message.direction,
    error_code: message.errorCode,
    error_message: message.errorMessage,
    from: message.from,
    messaging_service_sid: null,
    num_media: '0',
    num_segments: String(message.numSegments),
    price: null,
    price_unit: 'USD',
    sid: message.sid,
    status: message.status,
    subresource_uris: { media: `${uri}/Media.json`, feedback: `${uri}/Feedback.json` },
    to: message.to,
    uri: `${uri}.json`,
  };
}

/** Twilio's dates: RFC 2822 in GMT, written `+0000`. */
function rfc2822(date: Date): string {
  return date.toUTCString().replace('GMT', '+0000');
}

const GSM7_BASIC = new Set(
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà',
);
const GSM7_EXTENDED = new Set('^{}\\[~]|€\f');

/** Segments as a carrier counts them: GSM-7 160/153 septets, else UCS-2 70/67 code units. */
function smsSegments(body: string): number {
  const chars = [...body];
  if (chars.every((c) => GSM7_BASIC.has(c) || GSM7_EXTENDED.has(c))) {
    const septets = chars.reduce((sum, c) => sum + (GSM7_EXTENDED.has(c) ? 2 : 1), 0);
    return septets <= 160 ? 1 : Math.ceil(septets / 153);
  }
  return body.length <= 70 ? 1 : Math.ceil(body.length / 67);
}

function fetchTwilioMessage(
  state: State,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  accountSid: string,
  messageSid: string,
) {
  if (!twilioAccountFor(state, req, accountSid)) return unauthenticated(res);
  const message = state.twilioMessages.find((m) => m.sid === messageSid && m.accountSid === accountSid);
  if (!message) {
    const path = `/${TWILIO_API_VERSION}/Accounts/${accountSid}/Messages/${messageSid}.json`;
    return twilioError(res, 404, 20404, `The requested resource ${path} was not found`);
  }
  sendJson(res, 200, twilioResource(message));
}

/** `DateSent`, `DateSent<` (sent on or before) and `DateSent>` (on or after), as Twilio reads them. */
function dateSentFilter(query: URLSearchParams): ((sentAt: Date | null) => boolean) | string {
  const checks: ((sentAt: Date) => boolean)[] = [];
  for (const [key, compare] of [
    ['DateSent', 'day'],
    ['DateSent<', 'before'],
    ['DateSent>', 'after'],
  ] as const) {
    const value = query.get(key);
    if (value === null) continue;
    const bound = parseTwilioDate(value);
    if (!bound) return `Invalid ${key} value: ${value}`;
    if (compare === 'day') checks.push((at) => at.toISOString().slice(0, 10) === bound.toISOString().slice(0, 10));
    if (compare === 'before') checks.push((at) => at.getTime() <= bound.getTime());
    if (compare === 'after') checks.push((at) => at.getTime() >= bound.getTime());
  }
  if (checks.length === 0) return () => true;
  // A message not yet sent has no date_sent: no date filter matches it.
  return (sentAt) => sentAt !== null && checks.every((check) => check(sentAt));
}

/** YYYY-MM-DD (midnight UTC) or an ISO 8601 date-time, as the Twilio helper libraries send. */
function parseTwilioDate(value: string): Date | null {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return new Date(`${value}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(value)) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

function listTwilioMessages(
  state: State,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  accountSid: string,
  query: URLSearchParams,
) {
  if (!twilioAccountFor(state, req, accountSid)) return unauthenticated(res);
  const dateFilter = dateSentFilter(query);
  if (typeof dateFilter === 'string') return twilioError(res, 400, 20001, dateFilter);
  const pageSize = Math.min(Math.max(Number.parseInt(query.get('PageSize') ?? '50', 10) || 50, 1), 1000);
  const page = Math.max(Number.parseInt(query.get('Page') ?? '0', 10) || 0, 0);
  const to = query.get('To');
  const from = query.get('From');
  const matching = state.twilioMessages
    .filter((m) => m.accountSid === accountSid && (!to || m.to === to) && (!from || m.from === from))
    .filter((m) => dateFilter(m.sentAt))
    .reverse(); // newest first
  const start = page * pageSize;
  const items = matching.slice(start, start + pageSize);
  const pageUri = (n: number) => twilioListUri(accountSid, query, pageSize, n);
  sendJson(res, 200, {
    messages: items.map(twilioResource),
    page,
    page_size: pageSize,
    start,
    end: Math.max(start, start + items.length - 1),
    uri: pageUri(page),
    first_page_uri: pageUri(0),
    next_page_uri: start + pageSize < matching.length ? pageUri(page + 1) : null,
    previous_page_uri: page > 0 ? pageUri(page - 1) : null,
  });
}

function twilioListUri(accountSid: string, query: URLSearchParams, pageSize: number, page: number): string {
  const params = new URLSearchParams();
  for (const key of ['To', 'From', 'DateSent', 'DateSent<', 'DateSent>']) {
    const value = query.get(key);
    if (value !== null) params.set(key, value);
  }
  params.set('PageSize', String(pageSize));
  params.set('Page', String(page));
  return `/${TWILIO_API_VERSION}/Accounts/${accountSid}/Messages.json?${params}`;
}

// ——— Twilio: webhooks ———

/**
 * X-Twilio-Signature: base64 HMAC-SHA1, keyed with the auth token, of the full URL followed by
 * each POST parameter, sorted by name, as name + value.
 */
function twilioSignature(authToken: string, url: string, params: Record<string, string>): string {
  const data = Object.keys(params)
    .sort()
    .reduce((text, key) => text + key + params[key], url);
  return createHmac('sha1', authToken).update(data, 'utf8').digest('base64');
}

function twilioPost(account: TwilioAccountConfig, url: string, params: Record<string, string>): Post {
  return {
    url,
    body: new URLSearchParams(params).toString(),
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'user-agent': 'TwilioProxy/1.1',
      'x-twilio-signature': twilioSignature(account.authToken, url, params),
    },
  };
}

/**
 * Twilio's side after a create: the message is sent, then delivered (or not). The status moves
 * whether or not the sender got its answer; each callback waits for the answer to be out.
 */
async function runTwilioStatuses(
  state: State,
  account: TwilioAccountConfig,
  message: TwilioMessage,
  callbackUrl: string | null,
  fault: FakeFault | undefined,
  answered: Promise<void>,
) {
  const outcome = fault?.kind === 'undelivered' ? 'undelivered' : 'delivered';
  for (const status of ['sent', outcome] as const) {
    await pause(state, state.callbackDelayMs);
    if (state.stopped) return;
    advanceTwilioMessage(message, status);
    await answered;
    if (!callbackUrl) continue;
    const post = twilioPost(account, callbackUrl, twilioStatusParams(message));
    await postEach(state, post, fault?.kind === 'duplicate-callbacks' ? 2 : 1);
  }
}

function advanceTwilioMessage(message: TwilioMessage, status: 'sent' | 'delivered' | 'undelivered') {
  message.status = status;
  message.updated = new Date();
  if (status === 'sent') message.sentAt = message.updated;
  if (status === 'undelivered') {
    message.errorCode = 30003;
    message.errorMessage = 'Unreachable destination handset';
  }
}

function twilioStatusParams(message: TwilioMessage): Record<string, string> {
  const final = message.status === 'delivered' || message.status === 'undelivered';
  return {
    AccountSid: message.accountSid,
    ApiVersion: TWILIO_API_VERSION,
    From: message.from,
    MessageSid: message.sid,
    MessageStatus: message.status,
    SmsSid: message.sid,
    SmsStatus: message.status,
    To: message.to,
    ...(message.errorCode ? { ErrorCode: String(message.errorCode) } : {}),
    ...(final ? { RawDlrDoneDate: dlrDate(message.updated) } : {}),
  };
}

/** The carrier's delivery report time, YYMMDDhhmm in UTC. */
function dlrDate(date: Date): string {
  return date.toISOString().replace(/[-:T]/g, '').slice(2, 12);
}

async function postSmsReply(state: State, reply: SmsReply): Promise<number> {
  const account = state.twilio.get(reply.accountSid);
  if (!account) throw new BadRequest(`no Twilio account ${reply.accountSid}`);
  if (!account.inboundUrl) throw new BadRequest(`the Twilio account ${reply.accountSid} has no inboundUrl`);
  const now = new Date();
  const message: TwilioMessage = {
    sid: `SM${randomBytes(16).toString('hex')}`,
    accountSid: account.accountSid,
    to: account.number,
    from: reply.from,
    body: reply.body,
    direction: 'inbound',
    status: 'received',
    errorCode: null,
    errorMessage: null,
    numSegments: smsSegments(reply.body),
    created: now,
    updated: now,
    sentAt: now,
  };
  state.twilioMessages.push(message);
  const params = {
    AccountSid: account.accountSid,
    ApiVersion: TWILIO_API_VERSION,
    Body: reply.body,
    From: reply.from,
    MessageSid: message.sid,
    NumMedia: '0',
    NumSegments: String(message.numSegments),
    SmsMessageSid: message.sid,
    SmsSid: message.sid,
    SmsStatus: 'received',
    To: account.number,
  };
  return postOnce(state, twilioPost(account, account.inboundUrl, params));
}

// ——— WhatsApp: Cloud API ———

interface GraphError {
  message: string;
  type: string;
  code: number;
  error_subcode?: number;
  error_data?: { messaging_product: 'whatsapp'; details: string };
}

function graphError(res: http.ServerResponse, status: number, error: GraphError) {
  const headers: Record<string, string> =
    status === 401 ? { 'www-authenticate': `OAuth "Facebook Platform" "invalid_token" "${error.message}"` } : {};
  sendJson(res, status, graphErrorBody(error), headers);
}

function graphErrorBody(error: GraphError) {
  return { error: { ...error, fbtrace_id: randomBytes(8).toString('base64url') } };
}

/** The Graph error for a fault's HTTP status. */
function graphFaultBody(status: number) {
  if (status === 429) {
    return graphErrorBody({ message: '(#130429) Rate limit hit', type: 'OAuthException', code: 130429 });
  }
  return graphErrorBody({
    message: 'An unexpected error has occurred. Please retry your request later.',
    type: 'OAuthException',
    code: 2,
  });
}

function invalidParameter(code: number, title: string, details: string): GraphError {
  return {
    message: `(#${code}) ${title}`,
    type: 'OAuthException',
    code,
    error_data: { messaging_product: 'whatsapp', details },
  };
}

const RE_ENGAGEMENT: GraphError = {
  message: '(#131047) Re-engagement message',
  type: 'OAuthException',
  code: 131047,
  error_data: {
    messaging_product: 'whatsapp',
    details:
      'Message failed to send because more than 24 hours have passed since the customer last replied to this number.',
  },
};

function bearerMatches(req: http.IncomingMessage, accessToken: string): boolean {
  const match = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
  return Boolean(match?.[1] && sameSecret(match[1], accessToken));
}

interface WhatsappSend {
  input: string;
  waId: string;
  kind: 'text' | 'template';
  body: string | null;
  template: FakeTemplate | null;
  callbackData: string | null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `to` as a WhatsApp id: the digits of an international number, `+` and separators allowed. */
function waIdOf(to: string): string | null {
  if (!/^\+?[\d\s().-]+$/.test(to)) return null;
  const digits = to.replace(/\D/g, '');
  return /^[1-9]\d{6,14}$/.test(digits) ? digits : null;
}

/** Reads a send request the way the Cloud API validates it; a GraphError when it would refuse it. */
function parseWhatsappSend(raw: string): WhatsappSend | GraphError {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return invalidParameter(100, 'Invalid parameter', 'The request body is not valid JSON.');
  }
  if (!isRecord(json) || json.messaging_product !== 'whatsapp') {
    return invalidParameter(100, 'The parameter messaging_product is required.', 'messaging_product must be whatsapp');
  }
  if (typeof json.to !== 'string' || json.to === '') {
    return invalidParameter(100, 'The parameter to is required.', 'to is required');
  }
  const waId = waIdOf(json.to);
  if (!waId) return invalidParameter(131009, 'Parameter value is not valid', `Invalid phone number: ${json.to}`);
  const callbackData = typeof json.biz_opaque_callback_data === 'string' ? json.biz_opaque_callback_data : null;
  const base = { input: json.to, waId, callbackData };
  const type = json.type ?? 'text';
  if (type === 'text') {
    const body = isRecord(json.text) ? json.text.body : undefined;
    if (typeof body !== 'string' || body === '') {
      return invalidParameter(100, "The parameter text['body'] is required.", 'text.body is required');
    }
    return { ...base, kind: 'text', body, template: null };
  }
  if (type === 'template') {
    const template = parseTemplate(json.template);
    return 'code' in template ? template : { ...base, kind: 'template', body: null, template };
  }
  return invalidParameter(
    100,
    'Invalid parameter',
    `This fake accepts text and template messages, not ${String(type)}.`,
  );
}

function parseTemplate(value: unknown): FakeTemplate | GraphError {
  const language = isRecord(value) && isRecord(value.language) ? value.language.code : undefined;
  if (!isRecord(value) || typeof value.name !== 'string' || value.name === '') {
    return invalidParameter(131008, 'Required parameter is missing', 'template.name is required');
  }
  if (typeof language !== 'string' || language === '') {
    return invalidParameter(131008, 'Required parameter is missing', 'template.language.code is required');
  }
  const components = Array.isArray(value.components) ? value.components : [];
  const body = components.find((c) => isRecord(c) && c.type === 'body');
  const parameters = isRecord(body) && Array.isArray(body.parameters) ? body.parameters : [];
  return { name: value.name, language, parameters: parameters.map(parameterText) };
}

/** A template parameter as the user reads it: text, or the fallback of a currency or date. */
function parameterText(parameter: unknown): string {
  if (!isRecord(parameter)) return '';
  if (typeof parameter.text === 'string') return parameter.text;
  for (const key of ['currency', 'date_time']) {
    const value = parameter[key];
    if (isRecord(value) && typeof value.fallback_value === 'string') return value.fallback_value;
  }
  return '';
}

function windowKey(phoneNumberId: string, waId: string): string {
  return `${phoneNumberId}:${waId}`;
}

/** Free-form messages only within 24 hours of the user's last message to this number. */
function serviceWindowOpen(state: State, phone: WhatsappPhone, waId: string): boolean {
  const last = state.lastInbound.get(windowKey(phone.phoneNumberId, waId));
  return last !== undefined && Date.now() - last < SERVICE_WINDOW_MS;
}

function createWhatsappMessage(
  state: State,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  version: string,
  phoneNumberId: string,
  raw: string,
) {
  const phone = state.whatsapp.get(phoneNumberId);
  if (!phone) return graphError(res, 400, unknownObject(phoneNumberId));
  if (!bearerMatches(req, phone.accessToken)) {
    return graphError(res, 401, { message: 'Invalid OAuth access token.', type: 'OAuthException', code: 190 });
  }
  const request = parseWhatsappSend(raw);
  if ('code' in request) return graphError(res, 400, request);
  if (request.kind === 'text' && !serviceWindowOpen(state, phone, request.waId)) {
    return graphError(res, 400, RE_ENGAGEMENT);
  }
  const fault = state.faults.shift();
  if (refusedByFault(state, req, res, fault, graphFaultBody)) return;

  const message = recordWhatsappMessage(state, phone, version, request);
  const answer = {
    messaging_product: 'whatsapp',
    contacts: [{ input: request.input, wa_id: request.waId }],
    messages: [{ id: message.wamid, ...(request.kind === 'template' ? { message_status: 'accepted' } : {}) }],
  };
  const answered = answerAccepted(state, res, 200, answer, fault);
  track(state, runWhatsappStatuses(state, message, fault, answered));
}

function unknownObject(id: string): GraphError {
  return {
    message: `Unsupported post request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
    type: 'GraphMethodException',
    code: 100,
    error_subcode: 33,
  };
}

function recordWhatsappMessage(
  state: State,
  phone: WhatsappPhone,
  version: string,
  request: WhatsappSend,
): WhatsappMessage {
  const message: WhatsappMessage = {
    wamid: newWamid(),
    phone,
    waId: request.waId,
    kind: request.kind,
    version,
    callbackData: request.callbackData,
    conversationId: randomBytes(16).toString('hex'),
  };
  state.lastOutbound.set(windowKey(phone.phoneNumberId, request.waId), message.wamid);
  state.sent.push({
    channel: 'whatsapp',
    id: message.wamid,
    accountRef: phone.phoneNumberId,
    to: request.waId,
    from: phone.displayPhoneNumber,
    body: request.body,
    template: request.template,
    callbackData: request.callbackData,
    statusCallback: phone.webhookUrl,
    at: new Date(),
  });
  return message;
}

function newWamid(): string {
  return `wamid.${randomBytes(30).toString('base64url')}`;
}

function unixSeconds(date = new Date()): string {
  return String(Math.floor(date.getTime() / 1000));
}

// ——— WhatsApp: webhooks ———

/** X-Hub-Signature-256: `sha256=` and the hex HMAC-SHA256 of the raw body, keyed with the app secret. */
function hubSignature256(appSecret: string, body: string): string {
  return `sha256=${createHmac('sha256', appSecret).update(body, 'utf8').digest('hex')}`;
}

function whatsappPost(phone: WhatsappPhone, value: Record<string, unknown>): Post {
  const body = JSON.stringify({
    object: 'whatsapp_business_account',
    entry: [
      {
        id: phone.businessAccountId,
        changes: [
          {
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: phone.displayPhoneNumber, phone_number_id: phone.phoneNumberId },
              ...value,
            },
            field: 'messages',
          },
        ],
      },
    ],
  });
  return {
    url: phone.webhookUrl,
    body,
    headers: {
      'content-type': 'application/json',
      'user-agent': 'facebookexternalua',
      'x-hub-signature': `sha1=${createHmac('sha1', phone.appSecret).update(body, 'utf8').digest('hex')}`,
      'x-hub-signature-256': hubSignature256(phone.appSecret, body),
    },
  };
}

/** Meta's side after a send: sent, then delivered, or failed when the fault says undeliverable. */
async function runWhatsappStatuses(
  state: State,
  message: WhatsappMessage,
  fault: FakeFault | undefined,
  answered: Promise<void>,
) {
  const outcome = fault?.kind === 'undelivered' ? 'failed' : 'delivered';
  for (const status of ['sent', outcome] as const) {
    await pause(state, state.callbackDelayMs);
    if (state.stopped) return;
    await answered;
    const post = whatsappPost(message.phone, { statuses: [whatsappStatus(message, status)] });
    await postEach(state, post, fault?.kind === 'duplicate-callbacks' ? 2 : 1);
  }
}

function whatsappStatus(message: WhatsappMessage, status: 'sent' | 'delivered' | 'failed') {
  return {
    id: message.wamid,
    status,
    timestamp: unixSeconds(),
    recipient_id: message.waId,
    ...(message.callbackData !== null ? { biz_opaque_callback_data: message.callbackData } : {}),
    ...(status === 'failed' ? { errors: [undeliverable()] } : billing(message, status)),
  };
}

/**
 * Conversation and pricing, as on sent and delivered statuses. Meta drops `conversation` from
 * v24.0 on; pricing is per message: a template is billed, a reply in the service window free.
 */
function billing(message: WhatsappMessage, status: 'sent' | 'delivered') {
  const category = message.kind === 'template' ? 'utility' : 'service';
  const pricing = {
    billable: message.kind === 'template',
    pricing_model: 'PMP',
    type: message.kind === 'template' ? 'regular' : 'free_customer_service',
    category,
  };
  const major = Number.parseInt(message.version.slice(1), 10);
  if (major >= 24) return { pricing };
  const expires =
    status === 'sent' ? { expiration_timestamp: unixSeconds(new Date(Date.now() + SERVICE_WINDOW_MS)) } : {};
  return { conversation: { id: message.conversationId, ...expires, origin: { type: category } }, pricing };
}

function undeliverable() {
  return {
    code: 131026,
    title: 'Message undeliverable',
    message: 'Message undeliverable',
    error_data: { details: 'Message Undeliverable.' },
    href: 'https://developers.facebook.com/docs/whatsapp/cloud-api/support/error-codes/',
  };
}

async function postWhatsappReply(state: State, reply: WhatsappReply): Promise<number> {
  const phone = state.whatsapp.get(reply.phoneNumberId);
  if (!phone) throw new BadRequest(`no WhatsApp phone number id ${reply.phoneNumberId}`);
  const waId = waIdOf(reply.from);
  if (!waId) throw new BadRequest(`not a phone number: ${reply.from}`);
  if (reply.body === undefined && reply.buttonPayload === undefined) {
    throw new BadRequest('a WhatsApp reply needs a body or a buttonPayload');
  }
  const key = windowKey(phone.phoneNumberId, waId);
  // The window opens when Meta receives the message, before the app has seen it.
  state.lastInbound.set(key, Date.now());
  const inbound = {
    from: waId,
    id: newWamid(),
    timestamp: unixSeconds(),
    ...inboundContent(reply, phone, state.lastOutbound.get(key)),
  };
  const contacts = [{ profile: { name: reply.name ?? 'Test Patient' }, wa_id: waId }];
  return postOnce(state, whatsappPost(phone, { contacts, messages: [inbound] }));
}

/** A text message, or a quick-reply button press with the message it answers as `context`. */
function inboundContent(reply: WhatsappReply, phone: WhatsappPhone, answering: string | undefined) {
  if (reply.buttonPayload === undefined) return { type: 'text', text: { body: reply.body ?? '' } };
  return {
    ...(answering ? { context: { from: phone.displayPhoneNumber, id: answering } } : {}),
    type: 'button',
    button: { payload: reply.buttonPayload, text: reply.body ?? reply.buttonPayload },
  };
}

// ——— posting webhooks ———

/** Posts `copies` times (a duplicate-callbacks fault), each with its retries. */
async function postEach(state: State, post: Post, copies: number) {
  for (let copy = 0; copy < copies && !state.stopped; copy++) await postWithRetries(state, post);
}

/** A webhook the app does not answer 2xx is tried again, at most twice. */
async function postWithRetries(state: State, post: Post) {
  for (let attempt = 1; attempt <= CALLBACK_ATTEMPTS && !state.stopped; attempt++) {
    const status = await postOnce(state, post);
    if (status >= 200 && status < 300) return;
    if (attempt < CALLBACK_ATTEMPTS) await pause(state, state.callbackDelayMs);
  }
}

/** One POST, recorded in `callbacks`; resolves with the status, 0 when the app was unreachable. */
function postOnce(state: State, post: Post): Promise<number> {
  return new Promise((resolve) => {
    const record = (status: number) => {
      state.callbacks.push({ url: post.url, body: post.body, status });
      resolve(status);
    };
    let request: http.ClientRequest;
    try {
      request = http.request(post.url, {
        method: 'POST',
        agent: state.agent,
        timeout: CALLBACK_TIMEOUT_MS,
        headers: { ...post.headers, 'content-length': String(Buffer.byteLength(post.body)) },
      });
    } catch {
      record(0); // not an http: URL
      return;
    }
    request.on('response', (response) => {
      response.resume();
      response.on('end', () => record(response.statusCode ?? 0));
      response.on('error', () => record(response.statusCode ?? 0));
    });
    request.on('timeout', () => request.destroy());
    request.on('error', () => record(0));
    request.end(post.body);
  });
}

// ——— the control API: /_fake/… for a test or a demo in another process ———

async function control(
  provider: FakeMessagingProvider,
  method: string,
  path: string,
  raw: string,
  res: http.ServerResponse,
): Promise<void> {
  const route = `${method} ${path}`;
  if (route === 'GET /_fake/messages') return sendJson(res, 200, { messages: provider.sent });
  if (route === 'GET /_fake/callbacks') return sendJson(res, 200, { callbacks: provider.callbacks });
  if (route === 'POST /_fake/settled') {
    await provider.settled();
    return sendJson(res, 200, {});
  }
  const body = parseControlJson(raw);
  if (route === 'POST /_fake/sms/reply')
    return sendJson(res, 200, { status: await provider.smsReply(asSmsReply(body)) });
  if (route === 'POST /_fake/whatsapp/reply') {
    return sendJson(res, 200, { status: await provider.whatsappReply(asWhatsappReply(body)) });
  }
  if (route === 'POST /_fake/faults') provider.fail(asFault(body));
  else if (route === 'POST /_fake/twilio') provider.configureTwilio(asTwilioConfig(body));
  else if (route === 'POST /_fake/whatsapp') provider.configureWhatsapp(asWhatsappConfig(body));
  else return sendJson(res, 404, { error: 'not_found', method, path });
  sendJson(res, 200, {});
}

function parseControlJson(raw: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(raw);
    if (isRecord(value)) return value;
  } catch {
    // answered below
  }
  throw new BadRequest('expected a JSON object');
}

function text(body: Record<string, unknown>, key: string): string {
  const value = body[key];
  if (typeof value !== 'string' || value === '') throw new BadRequest(`${key} must be a non-empty string`);
  return value;
}

function optionalText(body: Record<string, unknown>, key: string): string | undefined {
  return body[key] === undefined ? undefined : text(body, key);
}

function milliseconds(body: Record<string, unknown>): number {
  const value = body.ms;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) throw new BadRequest('ms must be a number');
  return value;
}

function asFault(body: Record<string, unknown>): FakeFault {
  switch (body.kind) {
    case 'error': {
      const status = body.status;
      if (status !== undefined && (typeof status !== 'number' || status < 400 || status > 599)) {
        throw new BadRequest('status must be an HTTP error status');
      }
      return status === undefined ? { kind: 'error' } : { kind: 'error', status };
    }
    case 'timeout':
    case 'hold':
      return { kind: body.kind, ms: milliseconds(body) };
    case 'duplicate-callbacks':
    case 'undelivered':
      return { kind: body.kind };
    default:
      throw new BadRequest('kind must be error, timeout, hold, duplicate-callbacks or undelivered');
  }
}

function asTwilioConfig(body: Record<string, unknown>): TwilioAccountConfig {
  const inboundUrl = optionalText(body, 'inboundUrl');
  return {
    accountSid: text(body, 'accountSid'),
    authToken: text(body, 'authToken'),
    number: text(body, 'number'),
    ...(inboundUrl ? { inboundUrl } : {}),
  };
}

function asWhatsappConfig(body: Record<string, unknown>): WhatsappPhoneConfig {
  const displayPhoneNumber = optionalText(body, 'displayPhoneNumber');
  const businessAccountId = optionalText(body, 'businessAccountId');
  return {
    phoneNumberId: text(body, 'phoneNumberId'),
    accessToken: text(body, 'accessToken'),
    appSecret: text(body, 'appSecret'),
    webhookUrl: text(body, 'webhookUrl'),
    ...(displayPhoneNumber ? { displayPhoneNumber } : {}),
    ...(businessAccountId ? { businessAccountId } : {}),
  };
}

function asSmsReply(body: Record<string, unknown>): SmsReply {
  return { accountSid: text(body, 'accountSid'), from: text(body, 'from'), body: text(body, 'body') };
}

function asWhatsappReply(body: Record<string, unknown>): WhatsappReply {
  const reply: WhatsappReply = { phoneNumberId: text(body, 'phoneNumberId'), from: text(body, 'from') };
  const fields = { body: optionalText(body, 'body'), buttonPayload: optionalText(body, 'buttonPayload') };
  const name = optionalText(body, 'name');
  if (fields.body !== undefined) reply.body = fields.body;
  if (fields.buttonPayload !== undefined) reply.buttonPayload = fields.buttonPayload;
  if (name !== undefined) reply.name = name;
  return reply;
}

// ——— run directly ———

function runDirectly(): boolean {
  const script = process.argv[1];
  if (!script) return false;
  try {
    return import.meta.url === pathToFileURL(realpathSync(script)).href;
  } catch {
    return false;
  }
}

async function main() {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '4010' },
      host: { type: 'string', default: '127.0.0.1' },
      'callback-delay-ms': { type: 'string', default: '20' },
    },
  });
  const provider = await startFakeMessagingProvider({
    port: Number(values.port),
    host: values.host,
    callbackDelayMs: Number(values['callback-delay-ms']),
  });
  process.stdout.write(`${provider.url}\n`);
  const stop = () => void provider.stop().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (runDirectly()) await main();
