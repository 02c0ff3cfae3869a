import { createHash, generateKeyPairSync, randomBytes, randomInt } from 'node:crypto';
import { realpathSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import forge from 'node-forge';
import { conditionFitsLetter, cuitIsValid, voucherTypeInfo } from '../features/sales/einvoicing/arca/arca-codes.ts';
import { readSignedCms } from '../features/sales/einvoicing/arca/cms.ts';
import { asArray, escapeXml, soapEnvelope, type Xml, xmlParser } from '../features/sales/einvoicing/arca/soap.ts';
import type { ArcaEndpoints } from '../features/sales/einvoicing/arca/wsaa.ts';

/**
 * A local stand-in for ARCA's WSAA (LoginCms) and WSFEv1, speaking their SOAP 1.1 wire format
 * (see test/fixtures/arca/*.wsdl). WSAA checks the CMS for real against a CA the fake creates at
 * start (`issueCertificate` hands out certificates it signed); WSFE keeps the numbering per
 * CUIT, point of sale and voucher type and validates like ARCA does. `fail` queues the faults
 * that matter for a client: an answer lost after the vouchers were authorised, the service down,
 * a rejection, a request processed twice.
 *
 * Run directly (`node --import tsx apps/api/src/dev/fake-arca.ts --port 4020`) it serves until
 * stopped and prints its URL; another process drives it through `/_fake/…`.
 */

export type FakeArcaFaultKind = 'timeout' | 'down' | 'reject' | 'duplicate';

export interface FakeArcaFaultOptions {
  /** How many requests it hits (1 unless set). */
  count?: number;
  /** `reject`: the observation code and message every voucher of the request gets. */
  code?: string;
  message?: string;
  /** `timeout`: how long the socket is held before it is destroyed (30 s unless set). */
  holdMs?: number;
}

export interface FakeArcaState {
  series: {
    cuit: string;
    ptoVta: number;
    cbteTipo: number;
    last: number;
    vouchers: {
      cbteNro: number;
      cae: string;
      caeDueDate: string;
      cbteFch: string;
      impTotal: string;
      docTipo: number;
      docNro: string;
    }[];
  }[];
  tickets: { cuit: string; service: string; expiresAt: string; valid: boolean }[];
  logins: number;
  requests: Record<string, number>;
}

export interface FakeArca {
  /** http://host:port, without a trailing slash. */
  url: string;
  endpoints: ArcaEndpoints;
  issueCertificate(
    cuit: string,
    opts?: { expired?: boolean; untrusted?: boolean },
  ): { certificatePem: string; privateKeyPem: string };
  fail(kind: FakeArcaFaultKind, opts?: FakeArcaFaultOptions): void;
  /** Makes every issued ticket invalid, as if their 12 hours had passed. */
  expireTickets(): void;
  state(): FakeArcaState;
  reset(): void;
  close(): Promise<void>;
}

export interface FakeArcaOptions {
  port?: number;
  host?: string;
  /** Delay before each answer. */
  latencyMs?: number;
  /** Ticket lifetime (12 h unless set). */
  ticketTtlMs?: number;
  /** Letter B at or above this total (ARS) needs an identified receiver. */
  consumerFinalLimit?: number;
}

interface Authority {
  certificate: forge.pki.Certificate;
  key: forge.pki.rsa.PrivateKey;
}

interface Ticket {
  token: string;
  sign: string;
  cuit: string;
  service: string;
  certificateId: string;
  generatedAt: number;
  expiresAt: number;
  revoked: boolean;
}

interface StoredVoucher {
  cbteNro: number;
  cae: string;
  caeDueDate: string;
  processedAt: string;
  fingerprint: string;
  detail: Xml;
}

interface Series {
  cuit: string;
  ptoVta: number;
  cbteTipo: number;
  last: number;
  lastDate: string;
  vouchers: Map<number, StoredVoucher>;
}

interface Fault extends FakeArcaFaultOptions {
  kind: FakeArcaFaultKind;
  remaining: number;
}

interface State {
  ca: Authority;
  strangerCa: Authority | null;
  tickets: Map<string, Ticket>;
  series: Map<string, Series>;
  faults: Fault[];
  logins: number;
  requests: Map<string, number>;
  caeSequence: number;
  timers: Set<NodeJS.Timeout>;
  latencyMs: number;
  ticketTtlMs: number;
  consumerFinalLimitCents: number;
}

const WSAA_PATH = '/ws/services/LoginCms';
const WSFE_PATH = '/wsfev1/service.asmx';
const WSFE_NS = 'http://ar.gov.afip.dif.FEV1/';
const WSAA_NS = 'http://wsaa.view.sua.dvadac.desein.afip.gov';
const DAY_MS = 24 * 60 * 60 * 1000;
const ARGENTINA_OFFSET_MS = -3 * 60 * 60 * 1000;
const MAX_BODY_BYTES = 5_000_000;
/** FECompTotXRequest: the most vouchers one FECAESolicitar may carry. */
const MAX_VOUCHERS_PER_REQUEST = 250;

// ——— starting, stopping ———

export async function startFakeArca(options: FakeArcaOptions = {}): Promise<FakeArca> {
  const state: State = {
    ca: newAuthority('Fake ARCA CA'),
    strangerCa: null,
    tickets: new Map(),
    series: new Map(),
    faults: [],
    logins: 0,
    requests: new Map(),
    caeSequence: randomInt(10_000_000, 90_000_000),
    timers: new Set(),
    latencyMs: options.latencyMs ?? 0,
    ticketTtlMs: options.ticketTtlMs ?? 12 * 60 * 60 * 1000,
    consumerFinalLimitCents: Math.round((options.consumerFinalLimit ?? 10_000_000) * 100),
  };
  const fake: FakeArca = {
    url: '',
    endpoints: { wsaaUrl: '', wsfeUrl: '' },
    issueCertificate: (cuit, opts = {}) => issueCertificate(state, cuit, opts),
    fail: (kind, opts = {}) => {
      state.faults.push({ ...opts, kind, remaining: opts.count ?? 1 });
    },
    expireTickets: () => {
      for (const ticket of state.tickets.values()) ticket.revoked = true;
    },
    state: () => snapshot(state),
    reset: () => {
      state.tickets.clear();
      state.series.clear();
      state.faults.length = 0;
      state.logins = 0;
      state.requests.clear();
    },
    close: async () => {},
  };
  const server = http.createServer((req, res) => {
    handle(state, fake, req, res).catch((error: unknown) => {
      sendText(res, 500, 'text/plain', error instanceof Error ? error.message : String(error));
    });
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const { address, port } = server.address() as AddressInfo;
  fake.url = `http://${address.includes(':') ? `[${address}]` : address}:${port}`;
  fake.endpoints = { wsaaUrl: `${fake.url}${WSAA_PATH}`, wsfeUrl: `${fake.url}${WSFE_PATH}` };
  fake.close = async () => {
    for (const timer of state.timers) clearTimeout(timer);
    state.timers.clear();
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    await closed;
  };
  return fake;
}

function snapshot(state: State): FakeArcaState {
  return {
    series: [...state.series.values()].map((s) => ({
      cuit: s.cuit,
      ptoVta: s.ptoVta,
      cbteTipo: s.cbteTipo,
      last: s.last,
      vouchers: [...s.vouchers.values()].map((v) => ({
        cbteNro: v.cbteNro,
        cae: v.cae,
        caeDueDate: v.caeDueDate,
        cbteFch: String(v.detail.CbteFch),
        impTotal: String(v.detail.ImpTotal),
        docTipo: Number(v.detail.DocTipo),
        docNro: String(v.detail.DocNro),
      })),
    })),
    tickets: [...state.tickets.values()].map((t) => ({
      cuit: t.cuit,
      service: t.service,
      expiresAt: new Date(t.expiresAt).toISOString(),
      valid: ticketValid(t),
    })),
    logins: state.logins,
    requests: Object.fromEntries(state.requests),
  };
}

// ——— certificates ———

function newKeyPair(): {
  publicKey: forge.pki.rsa.PublicKey;
  privateKey: forge.pki.rsa.PrivateKey;
  privateKeyPem: string;
} {
  // Node generates the key (forge's pure-JS keygen takes seconds); forge builds the certificates.
  const pair = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
  });
  return {
    publicKey: forge.pki.publicKeyFromPem(pair.publicKey),
    privateKey: forge.pki.privateKeyFromPem(pair.privateKey),
    privateKeyPem: pair.privateKey,
  };
}

function newAuthority(name: string): Authority {
  const keys = newKeyPair();
  const certificate = forge.pki.createCertificate();
  certificate.publicKey = keys.publicKey;
  certificate.serialNumber = randomBytes(8)
    .toString('hex')
    .replace(/^[89a-f]/, '1');
  certificate.validity.notBefore = new Date(Date.now() - DAY_MS);
  certificate.validity.notAfter = new Date(Date.now() + 3650 * DAY_MS);
  const subject = [
    { name: 'countryName', value: 'AR' },
    { name: 'organizationName', value: 'Fake ARCA' },
    { name: 'commonName', value: name },
  ];
  certificate.setSubject(subject);
  certificate.setIssuer(subject);
  certificate.setExtensions([{ name: 'basicConstraints', cA: true }]);
  certificate.sign(keys.privateKey, forge.md.sha256.create());
  return { certificate, key: keys.privateKey };
}

function issueCertificate(
  state: State,
  cuit: string,
  opts: { expired?: boolean; untrusted?: boolean },
): { certificatePem: string; privateKeyPem: string } {
  if (opts.untrusted && !state.strangerCa) state.strangerCa = newAuthority('Somebody Else CA');
  const authority = opts.untrusted && state.strangerCa ? state.strangerCa : state.ca;
  const keys = newKeyPair();
  const certificate = forge.pki.createCertificate();
  certificate.publicKey = keys.publicKey;
  certificate.serialNumber = randomBytes(8)
    .toString('hex')
    .replace(/^[89a-f]/, '1');
  const now = Date.now();
  certificate.validity.notBefore = new Date(opts.expired ? now - 730 * DAY_MS : now - DAY_MS);
  certificate.validity.notAfter = new Date(opts.expired ? now - DAY_MS : now + 730 * DAY_MS);
  // As ARCA's: the CUIT in the subject's serialNumber, "CUIT nnnnnnnnnnn".
  certificate.setSubject([
    { name: 'countryName', value: 'AR' },
    { name: 'commonName', value: `odontia-${cuit}` },
    { type: '2.5.4.5', value: `CUIT ${cuit.replace(/\D/g, '')}` },
  ]);
  certificate.setIssuer(authority.certificate.subject.attributes);
  certificate.sign(authority.key, forge.md.sha256.create());
  return { certificatePem: forge.pki.certificateToPem(certificate), privateKeyPem: keys.privateKeyPem };
}

// ——— routing ———

async function handle(
  state: State,
  fake: FakeArca,
  req: http.IncomingMessage,
  res: http.ServerResponse,
): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://fake.invalid');
  const raw = await readBody(req);
  const method = req.method ?? 'GET';
  if (url.pathname.startsWith('/_fake/')) return control(fake, method, url.pathname, raw, res);
  if (method !== 'POST' || (url.pathname !== WSAA_PATH && url.pathname !== WSFE_PATH))
    return sendText(res, 404, 'text/plain', 'not found');

  const body = parseSoap(raw);
  const operation = body ? (Object.keys(body)[0] ?? '') : '';
  state.requests.set(operation || 'unknown', (state.requests.get(operation || 'unknown') ?? 0) + 1);
  const fault = takeFault(state, operation);
  if (fault?.kind === 'down') return sendText(res, 503, 'text/html', '<html><body>Service Unavailable</body></html>');
  if (state.latencyMs > 0) await pause(state, state.latencyMs);
  if (!body)
    return sendFault(
      res,
      'soap:Client',
      'Server was unable to process request. ---> Data at the root level is invalid.',
    );

  let answer: string;
  if (url.pathname === WSAA_PATH) {
    if (operation !== 'loginCms') return sendFault(res, 'soapenv:Server', `No such operation '${operation}'`);
    const outcome = loginCms(state, String(body.loginCms?.in0 ?? ''));
    if ('fault' in outcome) return sendFault(res, `ns1:${outcome.fault}`, outcome.message, true);
    answer = outcome.envelope;
  } else {
    const handler = WSFE_OPERATIONS[operation];
    if (!handler)
      return sendFault(
        res,
        'soap:Client',
        `Server did not recognize the value of HTTP Header SOAPAction: ${operation}.`,
      );
    const request = body[operation] ?? {};
    if (fault?.kind === 'duplicate') handler(state, request, undefined);
    answer = soapEnvelope(handler(state, request, fault));
  }
  if (fault?.kind === 'timeout') {
    // Processed, never answered: the client times out not knowing.
    const timer = setTimeout(() => {
      state.timers.delete(timer);
      req.socket.destroy();
    }, fault.holdMs ?? 30_000);
    state.timers.add(timer);
    res.once('close', () => {
      clearTimeout(timer);
      state.timers.delete(timer);
    });
    return;
  }
  sendText(res, 200, 'text/xml; charset=utf-8', answer);
}

/** `timeout`, `reject` and `duplicate` hit the next FECAESolicitar; `down` the next request of any kind. */
function takeFault(state: State, operation: string): Fault | undefined {
  const index = state.faults.findIndex((f) => f.kind === 'down' || operation === 'FECAESolicitar');
  const fault = state.faults[index];
  if (!fault) return undefined;
  fault.remaining -= 1;
  if (fault.remaining <= 0) state.faults.splice(index, 1);
  return fault;
}

function parseSoap(raw: string): Xml | null {
  try {
    const body = xmlParser.parse(raw)?.Envelope?.Body;
    return body && typeof body === 'object' ? body : null;
  } catch {
    return null;
  }
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new Error('request body too large'));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function pause(state: State, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      state.timers.delete(timer);
      resolve();
    }, ms);
    state.timers.add(timer);
  });
}

function sendText(res: http.ServerResponse, status: number, type: string, text: string) {
  if (res.destroyed || res.headersSent) return;
  res.writeHead(status, { 'content-type': type, 'content-length': String(Buffer.byteLength(text)) });
  res.end(text);
}

/** A SOAP 1.1 fault, HTTP 500; WSAA's (Axis) carry their code in the axis namespace. */
function sendFault(res: http.ServerResponse, code: string, message: string, axis = false) {
  const codeNamespace = axis ? ' xmlns:ns1="http://xml.apache.org/axis/"' : '';
  const detail = axis
    ? '<detail><ns2:exceptionName xmlns:ns2="http://xml.apache.org/axis/">gov.afip.desein.dvadac.sua.view.wsaa.LoginFault</ns2:exceptionName></detail>'
    : '<detail/>';
  const text =
    '<?xml version="1.0" encoding="UTF-8"?><soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"><soapenv:Body>' +
    `<soapenv:Fault><faultcode${codeNamespace}>${escapeXml(code)}</faultcode><faultstring>${escapeXml(message)}</faultstring>${detail}</soapenv:Fault>` +
    '</soapenv:Body></soapenv:Envelope>';
  sendText(res, 500, 'text/xml; charset=utf-8', text);
}

// ——— control ———

async function control(fake: FakeArca, method: string, path: string, raw: string, res: http.ServerResponse) {
  const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
  const json = (status: number, value: unknown) => sendText(res, status, 'application/json', JSON.stringify(value));
  if (path === '/_fake/state' && method === 'GET') return json(200, fake.state());
  if (method !== 'POST') return json(404, { error: 'not_found' });
  if (path === '/_fake/certificate')
    return json(
      200,
      fake.issueCertificate(String(body.cuit ?? ''), {
        expired: body.expired === true,
        untrusted: body.untrusted === true,
      }),
    );
  if (path === '/_fake/fail') {
    const kind = String(body.kind) as FakeArcaFaultKind;
    if (!['timeout', 'down', 'reject', 'duplicate'].includes(kind))
      return json(400, { error: `unknown fault ${kind}` });
    fake.fail(kind, body as FakeArcaFaultOptions);
    return json(200, { ok: true });
  }
  if (path === '/_fake/expire-tickets') {
    fake.expireTickets();
    return json(200, { ok: true });
  }
  if (path === '/_fake/reset') {
    fake.reset();
    return json(200, { ok: true });
  }
  return json(404, { error: 'not_found' });
}

// ——— WSAA ———

type LoginOutcome = { envelope: string } | { fault: string; message: string };

function loginCms(state: State, in0: string): LoginOutcome {
  let cms: ReturnType<typeof readSignedCms>;
  try {
    cms = readSignedCms(in0);
  } catch {
    return { fault: 'cms.bad', message: 'El CMS no es valido' };
  }
  if (!cms.signatureValid) return { fault: 'cms.sign.invalid', message: 'Firma inválida o algoritmo no soportado' };
  let trusted = false;
  try {
    trusted = state.ca.certificate.verify(cms.certificate);
  } catch {
    trusted = false;
  }
  if (!trusted) return { fault: 'cms.cert.untrusted', message: 'Certificado no emitido por AC de confianza' };
  const now = Date.now();
  if (cms.certificate.validity.notAfter.getTime() < now || cms.certificate.validity.notBefore.getTime() > now)
    return { fault: 'cms.cert.expired', message: 'Certificado expirado' };

  let request: Xml;
  try {
    request = xmlParser.parse(cms.content)?.loginTicketRequest;
  } catch {
    request = undefined;
  }
  if (!request?.header) return { fault: 'xml.bad', message: 'No se ha podido interpretar el XML contra el SCHEMA' };
  const generated = Date.parse(String(request.header.generationTime ?? ''));
  const expires = Date.parse(String(request.header.expirationTime ?? ''));
  if (Number.isNaN(generated) || generated > now + 60_000 || generated < now - DAY_MS)
    return { fault: 'xml.generationTime.invalid', message: 'generationTime posee formato o dato inválido' };
  if (Number.isNaN(expires) || expires < now || expires - generated > DAY_MS)
    return { fault: 'xml.expirationTime.invalid', message: 'expirationTime posee formato o dato inválido' };
  const service = String(request.service ?? '');
  if (service !== 'wsfe') return { fault: 'wsn.notFound', message: 'Servicio informado inexistente' };

  const serial = cms.certificate.subject.attributes.find((a) => a.type === '2.5.4.5')?.value;
  const cuit = /^CUIT (\d{11})$/.exec(String(serial ?? ''))?.[1];
  if (!cuit) return { fault: 'coe.notAuthorized', message: 'Computador no autorizado a acceder al servicio' };
  const certificateId = createHash('sha256')
    .update(forge.asn1.toDer(forge.pki.certificateToAsn1(cms.certificate)).getBytes(), 'binary')
    .digest('hex');
  for (const ticket of state.tickets.values()) {
    if (ticket.certificateId === certificateId && ticket.service === service && ticketValid(ticket))
      return {
        fault: 'coe.alreadyAuthenticated',
        message: 'El CEE ya posee un TA valido para el acceso al WSN solicitado',
      };
  }

  state.logins += 1;
  const ticket: Ticket = {
    token: randomBytes(96).toString('base64'),
    sign: randomBytes(64).toString('base64'),
    cuit,
    service,
    certificateId,
    generatedAt: now,
    expiresAt: now + state.ticketTtlMs,
    revoked: false,
  };
  state.tickets.set(ticket.token, ticket);
  const response =
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><loginTicketResponse version="1.0"><header>' +
    `<source>CN=wsaahomo, O=AFIP, C=AR, SERIALNUMBER=CUIT 33693450239</source><destination>SERIALNUMBER=CUIT ${cuit}, CN=odontia-${cuit}</destination>` +
    `<uniqueId>${randomInt(1, 2 ** 31)}</uniqueId><generationTime>${argentineDateTime(now)}</generationTime>` +
    `<expirationTime>${argentineDateTime(ticket.expiresAt)}</expirationTime></header>` +
    `<credentials><token>${ticket.token}</token><sign>${ticket.sign}</sign></credentials></loginTicketResponse>`;
  return {
    envelope:
      '<?xml version="1.0" encoding="UTF-8"?><soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><soapenv:Body>' +
      `<loginCmsResponse xmlns="${WSAA_NS}"><loginCmsReturn>${escapeXml(response)}</loginCmsReturn></loginCmsResponse></soapenv:Body></soapenv:Envelope>`,
  };
}

function ticketValid(ticket: Ticket): boolean {
  return !ticket.revoked && ticket.expiresAt > Date.now();
}

/** 2025-01-31T10:00:00.000-03:00, as WSAA writes its times. */
function argentineDateTime(ms: number): string {
  return `${new Date(ms + ARGENTINA_OFFSET_MS).toISOString().replace('Z', '')}-03:00`;
}

/** Today in Argentina, YYYYMMDD, shifted by `days`. */
function argentineDate(days = 0, from = Date.now()): string {
  return new Date(from + ARGENTINA_OFFSET_MS + days * DAY_MS).toISOString().slice(0, 10).replace(/-/g, '');
}

// ——— WSFEv1 ———

type Message = { code: number; message: string };
type WsfeHandler = (state: State, request: Xml, fault: Fault | undefined) => string;

const WSFE_OPERATIONS: Record<string, WsfeHandler> = {
  FEDummy: () => wrap('FEDummy', '<AppServer>OK</AppServer><DbServer>OK</DbServer><AuthServer>OK</AuthServer>'),
  FECompTotXRequest: (state, request) => {
    const refused = checkAuth(state, request.Auth);
    return wrap(
      'FECompTotXRequest',
      refused ? `<RegXReq>0</RegXReq>${errorsXml([refused])}` : `<RegXReq>${MAX_VOUCHERS_PER_REQUEST}</RegXReq>`,
    );
  },
  FEParamGetPtosVenta: (state, request) => {
    const refused = checkAuth(state, request.Auth);
    if (refused) return wrap('FEParamGetPtosVenta', errorsXml([refused]));
    const cuit = String(request.Auth?.Cuit ?? '');
    const numbers = new Set([1]);
    for (const series of state.series.values()) if (series.cuit === cuit) numbers.add(series.ptoVta);
    const list = [...numbers]
      .sort((a, b) => a - b)
      .map(
        (n) =>
          `<PtoVenta><Nro>${n}</Nro><EmisionTipo>CAE</EmisionTipo><Bloqueado>N</Bloqueado><FchBaja>NULL</FchBaja></PtoVenta>`,
      )
      .join('');
    return wrap('FEParamGetPtosVenta', `<ResultGet>${list}</ResultGet>`);
  },
  FECompUltimoAutorizado: (state, request) => {
    const refused = checkAuth(state, request.Auth);
    const ptoVta = Number(request.PtoVta);
    const cbteTipo = Number(request.CbteTipo);
    if (refused)
      return wrap(
        'FECompUltimoAutorizado',
        `<PtoVta>0</PtoVta><CbteTipo>0</CbteTipo><CbteNro>0</CbteNro>${errorsXml([refused])}`,
      );
    const series = state.series.get(seriesKey(String(request.Auth.Cuit), ptoVta, cbteTipo));
    return wrap(
      'FECompUltimoAutorizado',
      `<PtoVta>${ptoVta}</PtoVta><CbteTipo>${cbteTipo}</CbteTipo><CbteNro>${series?.last ?? 0}</CbteNro>`,
    );
  },
  FECompConsultar: (state, request) => {
    const refused = checkAuth(state, request.Auth);
    if (refused) return wrap('FECompConsultar', errorsXml([refused]));
    const query = request.FeCompConsReq ?? {};
    const ptoVta = Number(query.PtoVta);
    const cbteTipo = Number(query.CbteTipo);
    const stored = state.series
      .get(seriesKey(String(request.Auth.Cuit), ptoVta, cbteTipo))
      ?.vouchers.get(Number(query.CbteNro));
    if (!stored)
      return wrap(
        'FECompConsultar',
        errorsXml([{ code: 602, message: 'No existen datos en nuestros registros para los parametros ingresados.' }]),
      );
    const d = stored.detail;
    return wrap(
      'FECompConsultar',
      `<ResultGet>${detailEcho(d, true)}<FchServDesde>${text(d.FchServDesde)}</FchServDesde><FchServHasta>${text(d.FchServHasta)}</FchServHasta>` +
        `<FchVtoPago>${text(d.FchVtoPago)}</FchVtoPago><MonId>${text(d.MonId)}</MonId><MonCotiz>${text(d.MonCotiz)}</MonCotiz>` +
        `<CondicionIVAReceptorId>${text(d.CondicionIVAReceptorId)}</CondicionIVAReceptorId>` +
        `<Resultado>A</Resultado><CodAutorizacion>${stored.cae}</CodAutorizacion><EmisionTipo>CAE</EmisionTipo>` +
        `<FchVto>${stored.caeDueDate}</FchVto><FchProceso>${stored.processedAt}</FchProceso>` +
        `<PtoVta>${ptoVta}</PtoVta><CbteTipo>${cbteTipo}</CbteTipo></ResultGet>`,
    );
  },
  FECAESolicitar: solicitar,
};

function wrap(operation: string, inner: string): string {
  return `<${operation}Response xmlns="${WSFE_NS}"><${operation}Result>${inner}</${operation}Result></${operation}Response>`;
}

function errorsXml(errors: Message[]): string {
  return `<Errors>${errors.map((e) => `<Err><Code>${e.code}</Code><Msg>${escapeXml(e.message)}</Msg></Err>`).join('')}</Errors>`;
}

function text(value: unknown): string {
  return value === undefined || value === null ? '' : escapeXml(String(value));
}

function seriesKey(cuit: string, ptoVta: number, cbteTipo: number): string {
  return `${cuit}:${ptoVta}:${cbteTipo}`;
}

/** Error 600 as WSFE words it for each token problem; null when the ticket is good for this CUIT. */
function checkAuth(state: State, auth: Xml): Message | null {
  const ticket = state.tickets.get(String(auth?.Token ?? ''));
  if (!ticket || ticket.sign !== String(auth?.Sign ?? ''))
    return { code: 600, message: 'ValidacionDeToken: No se corresponden token y firma' };
  if (!ticketValid(ticket)) {
    const seconds = (ms: number) => Math.floor(ms / 1000);
    return {
      code: 600,
      message: `ValidacionDeToken: No validaron las fechas del token GenTime, ExpTime, NowUTC: ${seconds(ticket.generatedAt)}, ${seconds(ticket.expiresAt)}, ${seconds(Date.now())}`,
    };
  }
  if (String(auth?.Cuit ?? '') !== ticket.cuit)
    return {
      code: 600,
      message: `ValidacionDeToken: No aparecio CUIT en lista de relaciones: ${String(auth?.Cuit ?? '')}`,
    };
  return null;
}

function cents(value: unknown): number {
  const number = Number(value ?? 0);
  return Number.isFinite(number) ? Math.round(number * 100) : Number.NaN;
}

const NOTE_TYPES = new Set([2, 3, 7, 8, 12, 13]);
const KNOWN_CURRENCIES = new Set(['PES', 'DOL', '060', '012', '011', '010', '009', '018', '019', '021', '029', '033']);

function solicitar(state: State, request: Xml, fault: Fault | undefined): string {
  const refused = checkAuth(state, request.Auth);
  if (refused) return wrap('FECAESolicitar', errorsXml([refused]));
  const cuit = String(request.Auth.Cuit);
  const header = request.FeCAEReq?.FeCabReq ?? {};
  const details: Xml[] = asArray(request.FeCAEReq?.FeDetReq?.FECAEDetRequest);
  const ptoVta = Number(header.PtoVta);
  const cbteTipo = Number(header.CbteTipo);
  const info = voucherTypeInfo(cbteTipo);
  const headerErrors: Message[] = [];
  if (!info)
    headerErrors.push({
      code: 10007,
      message: 'El campo CbteTipo no es valido. Consultar metodo FEParamGetTiposCbte.',
    });
  if (!(ptoVta >= 1 && ptoVta <= 99998)) headerErrors.push({ code: 10004, message: 'El campo PtoVta no es valido.' });
  if (Number(header.CantReg) !== details.length || details.length === 0 || details.length > MAX_VOUCHERS_PER_REQUEST)
    headerErrors.push({
      code: 10001,
      message: 'El campo CantReg no se corresponde con la cantidad de comprobantes informados.',
    });
  const processedAt = `${argentineDate()}${new Date(Date.now() + ARGENTINA_OFFSET_MS).toISOString().slice(11, 19).replace(/:/g, '')}`;
  const cab = (result: string, reprocess: boolean) =>
    `<FeCabResp><Cuit>${cuit}</Cuit><PtoVta>${ptoVta}</PtoVta><CbteTipo>${cbteTipo}</CbteTipo><FchProceso>${processedAt}</FchProceso>` +
    `<CantReg>${details.length}</CantReg><Resultado>${result}</Resultado><Reproceso>${reprocess ? 'S' : 'N'}</Reproceso></FeCabResp>`;
  if (headerErrors.length > 0 || !info) return wrap('FECAESolicitar', `${cab('R', false)}${errorsXml(headerErrors)}`);

  const key = seriesKey(cuit, ptoVta, cbteTipo);
  let series = state.series.get(key);
  if (!series) {
    series = { cuit, ptoVta, cbteTipo, last: 0, lastDate: '', vouchers: new Map() };
    state.series.set(key, series);
  }
  let rejectedBefore = false;
  let reprocessed = false;
  const answers = details.map((detail) => {
    const number = Number(detail.CbteDesde);
    const fingerprint = JSON.stringify(detail);
    const previous = series.vouchers.get(number);
    if (!rejectedBefore && previous && previous.fingerprint === fingerprint) {
      // WSFEv1 reprocessing: the very same voucher again gets the CAE it already has.
      reprocessed = true;
      return detailAnswer(detail, 'A', [], previous.cae, previous.caeDueDate);
    }
    const observations: Message[] =
      fault?.kind === 'reject'
        ? [{ code: Number(fault.code ?? 10048), message: fault.message ?? 'Rechazado por el fake' }]
        : rejectedBefore
          ? [notNext()]
          : validateDetail(state, series, info.letter, cbteTipo, detail);
    if (observations.length > 0) {
      rejectedBefore = true;
      return detailAnswer(detail, 'R', observations, '', '');
    }
    state.caeSequence += 1 + randomInt(0, 7);
    const cae = `7${String(state.caeSequence).padStart(13, '0')}`;
    const caeDueDate = argentineDate(10);
    series.last = number;
    series.lastDate = String(detail.CbteFch ?? argentineDate());
    series.vouchers.set(number, { cbteNro: number, cae, caeDueDate, processedAt, fingerprint, detail });
    return detailAnswer(detail, 'A', [], cae, caeDueDate);
  });
  const approved = answers.filter((a) => a.result === 'A').length;
  const result = approved === answers.length ? 'A' : approved === 0 ? 'R' : 'P';
  return wrap(
    'FECAESolicitar',
    `${cab(result, reprocessed)}<FeDetResp>${answers.map((a) => a.xml).join('')}</FeDetResp>`,
  );
}

function notNext(): Message {
  return {
    code: 10016,
    message:
      'El numero o fecha del comprobante no se corresponde con el proximo a autorizar. Consultar metodo FECompUltimoAutorizado.',
  };
}

function detailEcho(d: Xml, amounts = false): string {
  const echoed =
    `<Concepto>${text(d.Concepto)}</Concepto><DocTipo>${text(d.DocTipo)}</DocTipo><DocNro>${text(d.DocNro)}</DocNro>` +
    `<CbteDesde>${text(d.CbteDesde)}</CbteDesde><CbteHasta>${text(d.CbteHasta)}</CbteHasta><CbteFch>${text(d.CbteFch)}</CbteFch>` +
    `<ImpTotal>${text(d.ImpTotal)}</ImpTotal><ImpTotConc>${text(d.ImpTotConc)}</ImpTotConc><ImpNeto>${text(d.ImpNeto)}</ImpNeto>` +
    `<ImpOpEx>${text(d.ImpOpEx)}</ImpOpEx><ImpTrib>${text(d.ImpTrib)}</ImpTrib><ImpIVA>${text(d.ImpIVA)}</ImpIVA>`;
  // FECAEDetResponse echoes the identification only; FECompConsultar the amounts too.
  return amounts ? echoed : echoed.replace(/<(ImpTotal|ImpTotConc|ImpNeto|ImpOpEx|ImpTrib|ImpIVA)>[^<]*<\/\1>/g, '');
}

function detailAnswer(detail: Xml, result: 'A' | 'R', observations: Message[], cae: string, caeDueDate: string) {
  const obs = observations.length
    ? `<Observaciones>${observations.map((o) => `<Obs><Code>${o.code}</Code><Msg>${escapeXml(o.message)}</Msg></Obs>`).join('')}</Observaciones>`
    : '';
  return {
    result,
    xml:
      `<FECAEDetResponse>${detailEcho(detail)}<Resultado>${result}</Resultado>${obs}` +
      `<CAE>${cae}</CAE><CAEFchVto>${caeDueDate}</CAEFchVto></FECAEDetResponse>`,
  };
}

/** The checks ARCA makes on one FECAEDetRequest; each failure is an observation of a rejected voucher. */
function validateDetail(state: State, series: Series, letter: 'A' | 'B' | 'C', cbteTipo: number, d: Xml): Message[] {
  const found: Message[] = [];
  const number = Number(d.CbteDesde);
  const date = String(d.CbteFch ?? argentineDate());
  const concept = Number(d.Concepto);
  const window = concept === 1 ? 5 : 10;
  if (number !== Number(d.CbteHasta) || number !== series.last + 1) found.push(notNext());
  else if (
    !/^\d{8}$/.test(date) ||
    date < argentineDate(-window) ||
    date > argentineDate(window) ||
    date < series.lastDate
  )
    found.push(notNext());
  if (![1, 2, 3].includes(concept)) found.push({ code: 10040, message: 'El campo Concepto no es valido.' });
  if ((concept === 2 || concept === 3) && !(d.FchServDesde && d.FchServHasta && d.FchVtoPago))
    found.push({
      code: 10036,
      message: 'Para Concepto 2 o 3 son obligatorios FchServDesde, FchServHasta y FchVtoPago.',
    });

  const docTipo = Number(d.DocTipo);
  const docNro = String(d.DocNro ?? '0');
  if (letter === 'A' && docTipo !== 80)
    found.push({ code: 10013, message: 'Para comprobantes clase A el campo DocTipo debe ser igual a 80 (CUIT).' });
  else if ((docTipo === 80 || docTipo === 86) && !cuitIsValid(docNro))
    found.push({ code: 10015, message: `El campo DocNro ${docNro} no es un CUIT/CUIL valido.` });
  const totalArs = cents(d.ImpTotal) * Number(d.MonCotiz ?? 1);
  if (letter === 'B' && docTipo === 99 && totalArs >= state.consumerFinalLimitCents)
    found.push({
      code: 10015,
      message:
        'Para comprobantes clase B con ImpTotal igual o mayor al limite, el receptor debe estar identificado (DocTipo distinto de 99).',
    });

  const condition = d.CondicionIVAReceptorId;
  if (condition === undefined || condition === '')
    found.push({
      code: 10246,
      message:
        'Campo Condicion Frente al IVA del receptor es obligatorio conforme a lo reglamentado por la Resolucion General Nro 5616. Para mas informacion consular metodo FEParamGetCondicionIvaReceptor',
    });
  else if (!conditionFitsLetter(Number(condition), letter))
    found.push({
      code: 10243,
      message: `El campo Condicion Frente al IVA del receptor (${String(condition)}) no es valido para la clase de comprobante ${letter}. Consultar metodo FEParamGetCondicionIvaReceptor`,
    });

  const vat = asArray<Xml>(d.Iva?.AlicIva);
  const sum = cents(d.ImpTotConc) + cents(d.ImpNeto) + cents(d.ImpOpEx) + cents(d.ImpIVA) + cents(d.ImpTrib);
  if (Number.isNaN(sum) || sum !== cents(d.ImpTotal))
    found.push({
      code: 10048,
      message:
        "El campo 'Importe Total' ImpTotal, debe ser igual a la suma de ImpTotConc + ImpNeto + ImpOpEx + ImpTrib + ImpIVA.",
    });
  if (letter === 'C') {
    if (vat.length > 0 || cents(d.ImpIVA) !== 0)
      found.push({ code: 10071, message: 'Para comprobantes tipo C el objeto IVA no debe informarse.' });
  } else {
    if (cents(d.ImpNeto) > 0 && vat.length === 0)
      found.push({ code: 10070, message: 'Si ImpNeto es mayor a 0 el objeto IVA es obligatorio.' });
    if (vat.reduce((total: number, a: Xml) => total + cents(a.Importe), 0) !== cents(d.ImpIVA))
      found.push({
        code: 10061,
        message: 'La suma de los campos Importe en AlicIva debe ser igual al valor ingresado en ImpIVA.',
      });
  }
  if (!KNOWN_CURRENCIES.has(String(d.MonId ?? '')))
    found.push({ code: 10119, message: 'El campo MonId no es valido. Consultar metodo FEParamGetTiposMonedas.' });
  if (NOTE_TYPES.has(cbteTipo) && asArray(d.CbtesAsoc?.CbteAsoc).length === 0 && !d.PeriodoAsoc)
    found.push({
      code: 10151,
      message: 'Para comprobantes de Nota de Debito o Credito es obligatorio informar CbtesAsoc o PeriodoAsoc.',
    });
  return found;
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
      port: { type: 'string', default: '4020' },
      host: { type: 'string', default: '127.0.0.1' },
      'latency-ms': { type: 'string', default: '0' },
    },
  });
  const fake = await startFakeArca({
    port: Number(values.port),
    host: values.host,
    latencyMs: Number(values['latency-ms']),
  });
  process.stdout.write(`${fake.url}\n`);
  const stop = () => void fake.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (runDirectly()) await main();
