import { randomInt } from 'node:crypto';
import { signCms } from './cms.ts';
import { ArcaRefused, escapeXml, soapCall, xmlParser } from './soap.ts';

/** WSAA, ARCA's authentication service: a signed request (TRA) buys a 12-hour access ticket. */

export type ArcaEnvironment = 'homologation' | 'production';

export interface ArcaEndpoints {
  wsaaUrl: string;
  wsfeUrl: string;
}

export function arcaEndpoints(env: ArcaEnvironment): ArcaEndpoints {
  return env === 'production'
    ? {
        wsaaUrl: 'https://wsaa.afip.gov.ar/ws/services/LoginCms',
        wsfeUrl: 'https://servicios1.afip.gov.ar/wsfev1/service.asmx',
      }
    : {
        wsaaUrl: 'https://wsaahomo.afip.gov.ar/ws/services/LoginCms',
        wsfeUrl: 'https://wswhomo.afip.gov.ar/wsfev1/service.asmx',
      };
}

export interface ArcaCredentials {
  /** The issuer's CUIT, digits only. */
  cuit: string;
  certificatePem: string;
  privateKeyPem: string;
}

export interface AccessTicket {
  token: string;
  sign: string;
  /** ISO 8601. */
  expiresAt: string;
}

/** A ticket expiring sooner than this is renewed before use. */
export const TICKET_RENEW_MARGIN_MS = 10 * 60 * 1000;

export function ticketIsFresh(ticket: AccessTicket | null, now = Date.now()): boolean {
  return ticket !== null && Date.parse(ticket.expiresAt) - now > TICKET_RENEW_MARGIN_MS;
}

/** Where tickets are kept, shared by every instance. */
export interface TicketStore {
  get(): Promise<AccessTicket | null>;
  /**
   * Runs `login` so that only one caller (across instances) logs in at a time; first re-checks
   * the store and answers a ticket that is still fresh (`ticketIsFresh`) without logging in.
   */
  refresh(login: () => Promise<AccessTicket>): Promise<AccessTicket>;
  /** Forget a ticket the service refused (expired/invalid). */
  drop(): Promise<void>;
}

export function memoryTicketStore(): TicketStore {
  let ticket: AccessTicket | null = null;
  let queue: Promise<unknown> = Promise.resolve();
  return {
    get: async () => ticket,
    refresh(login) {
      const run = queue.then(async () => {
        if (ticket && ticketIsFresh(ticket)) return ticket;
        const renewed = await login();
        ticket = renewed;
        return renewed;
      });
      queue = run.catch(() => undefined);
      return run;
    },
    drop: async () => {
      ticket = null;
    },
  };
}

const TRA_WINDOW_MS = 10 * 60 * 1000;

/** xsd:dateTime in UTC, without milliseconds. */
function isoSeconds(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function loginTicketRequest(service: string, now: Date): string {
  const uniqueId = Math.floor(now.getTime() / 1000) ^ randomInt(0, 0xffff);
  return (
    '<?xml version="1.0" encoding="UTF-8"?><loginTicketRequest version="1.0"><header>' +
    `<uniqueId>${uniqueId >>> 0}</uniqueId>` +
    `<generationTime>${isoSeconds(new Date(now.getTime() - TRA_WINDOW_MS))}</generationTime>` +
    `<expirationTime>${isoSeconds(new Date(now.getTime() + TRA_WINDOW_MS))}</expirationTime>` +
    `</header><service>${escapeXml(service)}</service></loginTicketRequest>`
  );
}

/** The TRA for `service`, signed as CMS, base64: what `loginCms` takes as `in0`. */
export function signLoginRequest(credentials: ArcaCredentials, service: string, now: Date): string {
  return signCms(loginTicketRequest(service, now), credentials.certificatePem, credentials.privateKeyPem, now);
}

export const WSAA_NAMESPACE = 'http://wsaa.view.sua.dvadac.desein.afip.gov';

export async function login(
  endpoints: ArcaEndpoints,
  credentials: ArcaCredentials,
  service = 'wsfe',
  options: { now?: Date; timeoutMs?: number; fetch?: typeof fetch } = {},
): Promise<AccessTicket> {
  const cms = signLoginRequest(credentials, service, options.now ?? new Date());
  const envelope =
    `<?xml version="1.0" encoding="UTF-8"?><soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:wsaa="${WSAA_NAMESPACE}">` +
    `<soapenv:Header/><soapenv:Body><wsaa:loginCms><wsaa:in0>${cms}</wsaa:in0></wsaa:loginCms></soapenv:Body></soapenv:Envelope>`;
  const body = await soapCall(endpoints.wsaaUrl, '', envelope, {
    timeoutMs: options.timeoutMs ?? 30_000,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const returned = body?.loginCmsResponse?.loginCmsReturn;
  if (typeof returned !== 'string' || returned === '')
    throw new ArcaRefused('wsaa.badAnswer', 'loginCmsReturn missing');
  const ticket = xmlParser.parse(returned)?.loginTicketResponse;
  const token = ticket?.credentials?.token;
  const sign = ticket?.credentials?.sign;
  const expiration = Date.parse(ticket?.header?.expirationTime ?? '');
  if (!token || !sign || Number.isNaN(expiration))
    throw new ArcaRefused('wsaa.badAnswer', 'loginTicketResponse without token, sign or expirationTime');
  return { token: String(token), sign: String(sign), expiresAt: new Date(expiration).toISOString() };
}
