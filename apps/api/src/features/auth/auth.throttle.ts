import { isIPv6 } from 'node:net';
import type { Database } from '../../db/client.ts';
import { countAttempt, throttleKeyHash } from '../../db/throttle-counters.ts';
import * as repository from './throttle.repository.ts';

/**
 * The auth throttle (issues 3 and 14): every password check (sign-in, unlock, password change,
 * e-mail change) and every request that may send a mail (forgot-password, resend-activation,
 * sign-up) is an attempt against three counters, sliding windows kept in PostgreSQL so every API
 * process sees the same counts (ARCHITECTURE §8):
 *
 * - the pair (e-mail, client address), strict: what one client may try against one account;
 * - the client address across accounts: credential stuffing from one place;
 * - the e-mail from anywhere, higher and slower: a guesser spread over many addresses. It does not
 *   apply from an address where the user opened a session in the last 30 days, so attackers
 *   elsewhere cannot lock the real user out of the clinic's own computers.
 *
 * An attempt is counted before the password is checked and forgiven when it succeeds, so
 * concurrent attempts cannot slip past a limit between the check and the count.
 */

const minute = 60_000;
const day = 24 * 60 * minute;

export const throttleLimits = {
  pair: { limit: 10, windowMs: 15 * minute },
  address: { limit: 30, windowMs: 15 * minute },
  email: { limit: 50, windowMs: 60 * minute },
  /** Where the user signed in within this long, the e-mail's own limit does not apply. */
  knownAddressMs: 30 * day,
} as const;

/**
 * The part of a client address that one client controls: an IPv4 address, or the /64 prefix of an
 * IPv6 one (a single line usually gets a whole /64, so counting addresses would give it 2^64 tries).
 */
export function addressKey(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped?.[1]) return mapped[1];
  if (!isIPv6(ip)) return ip;
  const [head = '', tail = ''] = ip.split('%')[0]?.split('::') ?? [];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = ip.includes('::') ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((group) => Number.parseInt(group, 16).toString(16))
    .join(':')}::/64`;
}

export interface Attempt {
  /** The account's e-mail as typed (sign-in, mails) or as stored (checks inside a session). */
  email: string;
  /** The client address (Fastify's request.ip: X-Forwarded-For only with TRUST_PROXY). */
  ip: string;
  /** The login the e-mail belongs to, when known: its usual addresses (any clinic) escape the e-mail's limit. */
  user?: { loginId: string } | undefined;
}

export interface CountedAttempt {
  /** The attempt succeeded: it does not count against the limits. */
  forgive(): Promise<void>;
}

export interface AuthThrottle {
  /**
   * Counts an attempt, or throws 429 `too_many_requests` (with `retryAfterSeconds`, `retryAfterMinutes`
   * and a Retry-After header) when one of its counters is full; then nothing is counted.
   */
  attempt(attempt: Attempt): Promise<CountedAttempt>;
  /** Forgets every count (tests). */
  reset(): Promise<void>;
}

const hashKey = (key: string) => throttleKeyHash(key);

export function createAuthThrottle({ db, now = Date.now }: { db: Database; now?: () => number }): AuthThrottle {
  return {
    async attempt({ email, ip, user }) {
      const identity = email.trim().toLowerCase();
      const address = addressKey(ip);
      const counters = [
        { ...throttleLimits.pair, keyHash: hashKey(`pair:${identity}|${address}`), known: false },
        { ...throttleLimits.address, keyHash: hashKey(`address:${address}`), known: false },
        { ...throttleLimits.email, keyHash: hashKey(`email:${identity}`), known: user !== undefined },
      ];
      const ids = await db.withSystem((tx) =>
        countAttempt(tx, counters, now(), (counter) =>
          counter.known && user ? isKnownAddress(tx, user, ip, now()) : Promise.resolve(false),
        ),
      );
      return {
        forgive: () => db.withSystem((tx) => repository.deleteFailures(tx, ids)),
      };
    },

    reset: () => db.withSystem((tx) => repository.deleteAllFailures(tx)),
  };
}

function isKnownAddress(
  tx: Parameters<typeof repository.signedInFrom>[0],
  user: { loginId: string },
  ip: string,
  at: number,
): Promise<boolean> {
  return repository.signedInFrom(tx, user.loginId, ip, new Date(at - throttleLimits.knownAddressMs));
}
