import { lookup as dnsLookup } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';

/**
 * Which URLs the installation calls (issue 42). A subscription's URL is https to a public host;
 * plain http, and any loopback, private, link-local or unspecified host, only when the
 * installation allows it (WEBHOOKS_ALLOW_PRIVATE_HTTP: tests and development), so an administrator
 * cannot make the server call its own network. The host is checked when the subscription is saved
 * (its literal name or address) and again before each POST: the name is resolved ONCE, every
 * address it answers must be public, and the POST connects to exactly those checked addresses
 * (`pinnedLookup`), so a DNS answer that changes between the check and the connection (DNS
 * rebinding) cannot reach an internal address.
 */

export interface UrlPolicy {
  allowPrivate: boolean;
}

/**
 * Whether an IP address (v4 or v6) is loopback, private, link-local, CGNAT, benchmark, multicast,
 * reserved or unspecified (IPv4-mapped and NAT64 forms by the address they carry).
 */
export function isPrivateAddress(address: string): boolean {
  const version = isIP(address);
  if (version === 4) {
    const [a = 0, b = 0] = address.split('.').map(Number);
    return (
      a === 0 ||
      a === 10 ||
      a === 127 ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      (a === 100 && b >= 64 && b <= 127) ||
      (a === 192 && b === 0 && Number(address.split('.')[2]) === 0) ||
      (a === 198 && (b === 18 || b === 19)) ||
      a >= 224
    );
  }
  if (version === 6) {
    const lower = address.toLowerCase();
    // IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d) and NAT64 (64:ff9b::a.b.c.d).
    const mapped = lower.match(/^(?:::ffff:|::|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/);
    if (mapped?.[1]) return isPrivateAddress(mapped[1]);
    // The same in hex, as URL writes it: ::ffff:7f00:1 is 127.0.0.1.
    const hex = lower.match(/^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/);
    if (hex?.[1] && hex[2]) {
      const high = Number.parseInt(hex[1], 16);
      const low = Number.parseInt(hex[2], 16);
      return isPrivateAddress(`${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`);
    }
    return (
      lower === '::' ||
      lower === '::1' ||
      lower.startsWith('fc') ||
      lower.startsWith('fd') ||
      lower.startsWith('fe8') ||
      lower.startsWith('fe9') ||
      lower.startsWith('fea') ||
      lower.startsWith('feb') ||
      lower.startsWith('ff')
    );
  }
  return false;
}

const hostOf = (url: URL) => url.hostname.replace(/^\[|\]$/g, '').toLowerCase();

const isLocalName = (host: string) => host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.local');

/** Why a URL is refused as written (null: accepted). */
export function refusedUrl(value: string, policy: UrlPolicy): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'not a URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return `scheme ${url.protocol} is not allowed`;
  if (url.username || url.password) return 'credentials in the URL are not allowed';
  const host = hostOf(url);
  const privateHost = isLocalName(host) || (isIP(host) !== 0 && isPrivateAddress(host));
  if (privateHost && !policy.allowPrivate) return 'private or loopback host';
  if (url.protocol === 'http:' && !policy.allowPrivate) return 'plain http is not allowed';
  if (url.protocol === 'http:' && !privateHost) return 'plain http only to a loopback or private host';
  return null;
}

/** The addresses a POST may connect to: resolved once, every one checked. */
export interface WebhookTarget {
  hostname: string;
  addresses: { address: string; family: 4 | 6 }[];
}

type LookupAll = (host: string) => Promise<{ address: string; family: number }[]>;

/** `dns.lookup(host, { all: true })`, or a stub's answer in the tests (any `lookup`-shaped function). */
export function lookupAllWith(lookup: LookupFunction = dnsLookup as LookupFunction): LookupAll {
  return (host) =>
    new Promise((resolve, reject) => {
      lookup(host, { all: true }, (error, addresses) => {
        if (error) reject(error);
        else resolve(Array.isArray(addresses) ? addresses : []);
      });
    });
}

/**
 * Before a POST: the URL as written, then its host resolved ONCE. Refused (a string) when the URL
 * is refused, the name answers nothing, or ANY answered address is private (unless private hosts
 * are allowed); otherwise the checked addresses, the only ones the POST connects to.
 */
export async function resolveWebhookTarget(
  value: string,
  policy: UrlPolicy,
  lookupAll: LookupAll = lookupAllWith(),
): Promise<{ refused: string } | { target: WebhookTarget }> {
  const refused = refusedUrl(value, policy);
  if (refused) return { refused };
  const host = hostOf(new URL(value));
  const literal = isIP(host);
  if (literal !== 0) return { target: { hostname: host, addresses: [{ address: host, family: literal as 4 | 6 }] } };
  const answered = await lookupAll(host);
  const addresses = answered
    .map((entry) => ({ address: entry.address, family: isIP(entry.address) }))
    .filter((entry): entry is { address: string; family: 4 | 6 } => entry.family === 4 || entry.family === 6);
  if (addresses.length === 0) return { refused: `${host} resolves to no address` };
  if (!policy.allowPrivate && addresses.some((entry) => isPrivateAddress(entry.address)))
    return { refused: `${host} resolves to a private address` };
  return { target: { hostname: host, addresses } };
}

/**
 * A `lookup` for the connection that answers the checked addresses and never asks DNS again:
 * whatever the name resolves to later, the socket goes to an address that was checked. The Host
 * header and TLS (SNI, the certificate's name) still use the hostname.
 */
export function pinnedLookup(target: WebhookTarget): LookupFunction {
  return (_hostname, options, callback) => {
    const raw = options?.family;
    const family = raw === 'IPv4' ? 4 : raw === 'IPv6' ? 6 : raw;
    const wanted = family === 4 || family === 6 ? target.addresses.filter((entry) => entry.family === family) : [];
    const list = wanted.length > 0 ? wanted : target.addresses;
    const first = list[0];
    if (!first) callback(Object.assign(new Error('no checked address'), { code: 'ENOTFOUND' }), '');
    else if (options?.all) callback(null, list);
    else callback(null, first.address, first.family);
  };
}
