import { XMLParser } from 'fast-xml-parser';

/** Timeout, refused, reset, or HTTP 5xx without a SOAP answer: whether the service acted is unknown. */
export class ArcaUnreachable extends Error {
  override name = 'ArcaUnreachable';
}

/**
 * A definite refusal: a SOAP fault, a WSAA error (`cms.cert.expired`, `coe.alreadyAuthenticated`…)
 * or a WSFE `<Errors>` code (`600`, `10016`…). `code` is ARCA's, without namespace prefix.
 */
export class ArcaRefused extends Error {
  override name = 'ArcaRefused';
  constructor(
    readonly code: string,
    message: string,
    readonly errors: { code: string; message: string }[] = [{ code, message }],
  ) {
    super(`${code}: ${message}`);
  }
}

export const SOAP_ENV = 'http://schemas.xmlsoap.org/soap/envelope/';

const ARRAY_TAGS = new Set([
  'FECAEDetRequest',
  'FECAEDetResponse',
  'AlicIva',
  'CbteAsoc',
  'Tributo',
  'Obs',
  'Err',
  'Evt',
  'PtoVenta',
]);

/** Namespace prefixes dropped, every value kept as the text it was (amounts stay exact). */
export const xmlParser = new XMLParser({
  ignoreAttributes: true,
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  processEntities: true,
  isArray: (name) => ARRAY_TAGS.has(name),
});

export function escapeXml(text: string): string {
  return text.replace(
    /[<>&"']/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c] ?? c,
  );
}

// biome-ignore lint/suspicious/noExplicitAny: parsed XML is untyped until read field by field
export type Xml = any;

export function soapEnvelope(body: string): string {
  return `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${SOAP_ENV}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema"><soap:Body>${body}</soap:Body></soap:Envelope>`;
}

/** The parsed `Body` of a SOAP answer, or null when the text is no SOAP envelope. */
export function soapBody(text: string): Xml | null {
  if (!text.includes('Envelope')) return null;
  try {
    const parsed = xmlParser.parse(text);
    return parsed?.Envelope?.Body ?? null;
  } catch {
    return null;
  }
}

/** `ns1:cms.cert.expired` → `cms.cert.expired`. */
function faultCode(raw: unknown): string {
  const text = String(raw ?? 'soap:Server');
  const colon = text.indexOf(':');
  return colon >= 0 ? text.slice(colon + 1) : text;
}

/**
 * POSTs a SOAP 1.1 request; answers the parsed Body. Throws ArcaRefused on a SOAP fault and
 * ArcaUnreachable when nothing trustworthy came back.
 */
export async function soapCall(
  url: string,
  soapAction: string,
  envelope: string,
  options: { timeoutMs: number; fetch?: typeof fetch },
): Promise<Xml> {
  const doFetch = options.fetch ?? fetch;
  let status: number;
  let text: string;
  try {
    const response = await doFetch(url, {
      method: 'POST',
      headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: `"${soapAction}"` },
      body: envelope,
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    status = response.status;
    text = await response.text();
  } catch (error) {
    const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    throw new ArcaUnreachable(`${url}: ${reason}`, { cause: error });
  }
  const body = soapBody(text);
  const fault = body?.Fault;
  if (fault) throw new ArcaRefused(faultCode(fault.faultcode), String(fault.faultstring ?? ''));
  if (!body || status >= 300) throw new ArcaUnreachable(`${url}: HTTP ${status} without a SOAP answer`);
  return body;
}

export function asArray<T>(value: T | T[] | undefined | null | ''): T[] {
  if (value === undefined || value === null || value === '') return [];
  return Array.isArray(value) ? value : [value];
}

/** `<Errors><Err>` / `<Observaciones><Obs>` as code + message. */
export function codeMessages(list: Xml, item: 'Err' | 'Obs' | 'Evt'): { code: string; message: string }[] {
  return asArray(list?.[item]).map((entry: Xml) => ({
    code: String(entry?.Code ?? ''),
    message: String(entry?.Msg ?? ''),
  }));
}
