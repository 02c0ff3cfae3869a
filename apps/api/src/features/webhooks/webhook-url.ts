import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';

/**
 * Which URLs the installation calls (issue 42). A subscription's URL is https to a public host;
 * plain http, and any loopback, private, link-local or unspecified host, only when the
 * installation allows it (WEBHOOKS_ALLOW_PRIVATE_HTTP: tests and development), so an administrator
 * cannot make the server call its own network. The host is checked when the subscription is saved
 * (its literal name or address) and again before each POST (what its name resolves to then).
 */

export interface UrlPolicy {
  allowPrivate: boolean;
}

/** Whether an IP address (v4 or v6) is loopback, private, link-local, CGNAT or unspecified. */
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
      a >= 224
    );
  }
  if (version === 6) {
    const lower = address.toLowerCase();
    const mapped = lower.match(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/);
    if (mapped?.[1]) return isPrivateAddress(mapped[1]);
    // The same in hex, as URL writes it: ::ffff:7f00:1 is 127.0.0.1.
    const hex = lower.match(/^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/);
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

/** Before a POST: what the host resolves to now must be public, unless private hosts are allowed. */
export async function refusedAddress(value: string, policy: UrlPolicy): Promise<string | null> {
  const refused = refusedUrl(value, policy);
  if (refused || policy.allowPrivate) return refused;
  const host = hostOf(new URL(value));
  if (isIP(host) !== 0) return null;
  const addresses = await lookup(host, { all: true });
  return addresses.some((address) => isPrivateAddress(address.address))
    ? `${host} resolves to a private address`
    : null;
}
